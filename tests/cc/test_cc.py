"""hsx cc beyond the corpus: multi-file programs, the ABI's frame chain, metadata
macros, debug line tables, diagnostics and the command line."""
from __future__ import annotations

import json

import pytest
from cckit import compile_and_run, run_image, run_in_kernel
from click.testing import CliRunner


def _build(tmp_path, files: dict[str, str], opt=2, debug=False):
    from hsx.toolchain.cc.driver import Options, build_c
    paths = []
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text)
        paths.append(str(path))
    return build_c(paths, Options(opt=opt, debug=debug))


@pytest.mark.parametrize("opt", [0, 2])
def test_static_names_do_not_clash_and_globals_are_shared(tmp_path, opt):
    (result, _) = _build(tmp_path, {
        "a.c": "static int helper(void) { return 1; }\nint shared = 40;\n"
               "int from_b(void);\nint main(void) { return helper() + from_b() + shared; }\n",
        "b.c": "static int helper(void) { return 100; }\nextern int shared;\n"
               "int from_b(void) { shared += 2; return helper(); }\n",
    }, opt)
    assert run_image(result.image) == (b"", 143)


@pytest.mark.parametrize("opt", [0, 2])
def test_frame_chain_ends_at_zero(tmp_path, opt):
    out, status = compile_and_run(tmp_path, """
        #include <stdio.h>
        __attribute__((noinline)) static int depth(void) {
            unsigned *fp;
            __asm__ volatile("MOV %0, R14" : "=r"(fp));
            int n = 0;
            while (fp) { fp = (unsigned *)fp[0]; n++; }
            return n;
        }
        volatile int sink;
        __attribute__((noinline)) static int down(int k) {
            if (!k) return depth();
            int r = down(k - 1);
            sink = r;
            return r;
        }
        int main(void) { printf("%d\\n", down(3)); return 0; }
    """, opt)
    assert out == "6\n"      # depth, down x4, main


def test_malloc_returns_null_when_the_heap_is_full(tmp_path):
    out, _ = compile_and_run(tmp_path, """
        #include <stdio.h>
        #include <stdlib.h>
        int main(void) {
            int n = 0;
            while (malloc(1000)) n++;
            printf("%d %d\\n", n > 20, malloc(1 << 20) == 0);
            return 0;
        }
    """)
    assert out == "1 1\n"


def test_metadata_macros_reach_the_image(tmp_path):
    result, _ = _build(tmp_path, {"m.c": """
        #include <hsx_value.h>
        #include <hsx_command.h>
        #include <hsx_mailbox.h>
        HSX_VALUE(1, 2, "temperature", 21.5);
        HSX_MAILBOX("app:telemetry", 96, "RDWR");
        __attribute__((used)) static int on_reset(void) { return 0; }
        HSX_COMMAND(16, 1, "reset", on_reset);
        int main(void) { return 0; }
    """})
    meta = result.image.metadata
    assert [(v.group, v.value, v.name) for v in meta.values] == [(1, 2, "temperature")]
    assert [(m.target, m.capacity, m.mode_mask) for m in meta.mailboxes] == \
        [("app:telemetry", 96, 3)]
    command = meta.commands[0]
    assert (command.group, command.cmd) == (16, 1)
    assert result.symbols.address_of("on_reset") == command.handler_offset


def test_a_value_declared_beyond_f16_is_an_error_at_the_c_file(tmp_path):
    from hsx.toolchain.diagnostics import ToolchainError
    with pytest.raises(ToolchainError) as error:
        _build(tmp_path, {"big.c": '#include <hsx_value.h>\nHSX_VALUE(1, 1, "v", 1e9);\n'
                                   "int main(void) { return 0; }\n"})
    assert [str(d) for d in error.value.diagnostics] == [
        f"{tmp_path / 'big.c'}: in an __asm__ statement: value 'init' must be a number "
        "-65504..65504 (values are f16), got 1000000000.0"]


def test_a_value_set_beyond_f16_is_refused_not_infinite(tmp_path):
    result, _ = _build(tmp_path, {"v.c": """
        #include <hsx_value.h>
        #include <stdio.h>
        HSX_VALUE(1, 1, "v", 1.5);
        int main(void) {
            unsigned oid = hsx_val_oid(1, 1);
            volatile float big = 1e9f, edge = 65519.0f, inf = 1.0f / 0.0f;
            float got;
            printf("%u ", hsx_val_set(oid, big)); hsx_val_get(oid, &got); printf("%g\\n", got);
            printf("%u ", hsx_val_set(oid, -big)); hsx_val_get(oid, &got); printf("%g\\n", got);
            printf("%u ", hsx_val_set(oid, edge)); hsx_val_get(oid, &got); printf("%g\\n", got);
            printf("%u ", hsx_val_set(oid, inf)); hsx_val_get(oid, &got); printf("%g\\n", got);
            return 0;
        }
    """})
    out, status = run_in_kernel(result.image, tmp_path)
    assert (out.decode(), status) == ("4 1.5\n4 1.5\n0 65504\n0 inf\n", 0)


def test_debug_build_maps_code_to_c_lines(tmp_path):
    result, units = _build(tmp_path, {"d.c": "int f(int x) {\n  return x * 3;\n}\n"
                                             "int main(void) {\n  return f(4);\n}\n"},
                           opt=0, debug=True)
    lines = {(e.file.rsplit("/", 1)[-1], e.line) for e in result.symbols.lines}
    assert ("d.c", 2) in lines and ("d.c", 5) in lines
    main = result.symbols.symbol("main")
    assert main.line == 4 and main.file.endswith("d.c")
    assert result.symbols.pcs_for_line("d.c", 2)


def test_unsupported_construct_names_the_c_line(tmp_path):
    from hsx.toolchain.diagnostics import ToolchainError
    with pytest.raises(ToolchainError) as info:
        _build(tmp_path, {"bad.c": "__int128 f(__int128 x) {\n  return x * x;\n}\n"},
               opt=0, debug=True)
    message = str(info.value)
    assert "bad.c:1" in message and "i128" in message


def test_clang_diagnostics_are_passed_through(tmp_path):
    from hsx.toolchain.diagnostics import ToolchainError
    with pytest.raises(ToolchainError) as info:
        _build(tmp_path, {"syntax.c": "int main(void) { return }\n"})
    assert "syntax.c:1" in str(info.value) and "error" in str(info.value)


def test_cli_compiles_links_and_emits(tmp_path, monkeypatch):
    from hsx.cli.main import cli
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.c").write_text('#include <stdio.h>\nint main(void) { puts("hi"); return 3; }\n')
    runner = CliRunner()
    result = runner.invoke(cli, ["cc", "p.c", "-o", "p.hxe", "-O2", "-g"])
    assert result.exit_code == 0, result.output
    sources = json.loads((tmp_path / "p.sym").read_text())["sources"]
    assert sources["p.c"] == str(tmp_path / "p.c")
    assert not (tmp_path / "sources.json").exists()          # the .sym has it all
    assert runner.invoke(cli, ["cc", "-S", "p.c"]).exit_code == 0
    assert "LCALL puts" in (tmp_path / "p.mvasm").read_text()
    assert runner.invoke(cli, ["cc", "-c", "p.c", "-o", "p.hxo"]).exit_code == 0
    from hsx.image.hxe import read_hxe_file
    assert run_image(read_hxe_file(tmp_path / "p.hxe")) == (b"hi\n", 3)


def test_build_c_file_entry_point(tmp_path):
    from hsx.toolchain.cc import build_c_file
    path = tmp_path / "e.c"
    path.write_text("int main(void) { return 9; }\n")
    assert run_image(build_c_file(path, opt=0)) == (b"", 9)
