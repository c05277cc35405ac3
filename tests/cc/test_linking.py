"""Archive-style linking of the C library: only what a program refers to is linked."""
from __future__ import annotations

from cckit import run_image

from hsx.image.hxe import write_hxe


def _build(tmp_path, source: str, opt: int = 2):
    from hsx.toolchain.cc.driver import Options, build_c
    path = tmp_path / "t.c"
    path.write_text(source)
    result, _ = build_c([str(path)], Options(opt=opt))
    return result


def _functions(result) -> set[str]:
    return {f.name for f in result.symbols.functions}


def test_a_program_without_stdio_links_almost_nothing(tmp_path):
    result = _build(tmp_path, "int main(void) { return 42; }\n")
    assert run_image(result.image) == (b"", 42)
    assert len(write_hxe(result.image)) < 1024
    assert not any(n.startswith(("printf", "__hsx_format", "__adddf3", "qsort", "malloc"))
                   for n in _functions(result))


def test_integer_printf_does_not_link_float_formatting(tmp_path):
    result = _build(tmp_path, '#include <stdio.h>\n'
                              'int main(void) { printf("hi %d\\n", 7); return 0; }\n')
    assert run_image(result.image) == (b"hi 7\n", 0)
    names = _functions(result)
    assert "__hsx_format" in names
    assert "__hsx_printf_float" not in names and "__muldf3" not in names
    assert len(write_hxe(result.image)) < 10 * 1024


def test_passing_a_double_to_printf_links_float_formatting(tmp_path):
    result = _build(tmp_path, '#include <stdio.h>\n'
                              'int main(void) { printf("%.3f %g\\n", 2.5, 1e10); return 0; }\n')
    assert run_image(result.image) == (b"2.500 1e+10\n", 0)
    assert "__hsx_printf_float" in _functions(result)


def test_a_variadic_wrapper_passes_the_float_reference_on(tmp_path):
    result = _build(tmp_path, """
        #include <stdarg.h>
        #include <stdio.h>
        static void say(const char *fmt, ...) {
            va_list ap;
            va_start(ap, fmt);
            vprintf(fmt, ap);
            va_end(ap);
        }
        int main(void) { say("%d %.1f\\n", 3, 0.25); return 0; }
    """, opt=0)
    assert run_image(result.image) == (b"3 0.2\n", 0)


def test_unresolved_weak_reference_is_null(tmp_path):
    result = _build(tmp_path, """
        extern int maybe(int) __attribute__((weak));
        extern int maybe_data __attribute__((weak));
        int main(void) { return (maybe ? 1 : 10) + (&maybe_data ? 100 : 20); }
    """)
    assert run_image(result.image) == (b"", 30)


def test_weak_reference_resolves_when_defined(tmp_path):
    from hsx.toolchain.cc.driver import Options, build_c
    (tmp_path / "a.c").write_text("extern int maybe(int) __attribute__((weak));\n"
                                  "int main(void) { return maybe ? maybe(4) : 1; }\n")
    (tmp_path / "b.c").write_text("int maybe(int x) { return x * 10; }\n")
    result, _ = build_c([str(tmp_path / "a.c"), str(tmp_path / "b.c")], Options(opt=2))
    assert run_image(result.image) == (b"", 40)


def test_library_statics_stay_distinct_and_output_is_deterministic(tmp_path):
    source = ('#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n'
              'int main(void) { char *p = malloc(8); strcpy(p, "ok"); '
              'printf("%s %ld\\n", p, strtol("123", 0, 10)); return 0; }\n')
    first = _build(tmp_path, source)
    second = _build(tmp_path, source)
    assert write_hxe(first.image) == write_hxe(second.image)
    assert run_image(first.image) == (b"ok 123\n", 0)
    assert any(n.startswith("__hsx.") for n in _functions(first))     # renamed statics


def test_first_library_build_shows_progress_on_a_terminal(tmp_path):
    """A library that is not cached yet is built with a progress line on stderr (here
    a three-file library tree, so the build is short), and used from the cache after."""
    import os
    import shutil
    import sys

    import pexpect

    from hsx.toolchain.cc.driver import lib_dir
    lib = tmp_path / "lib"
    (lib / "src").mkdir(parents=True)
    shutil.copytree(lib_dir() / "include", lib / "include")
    for name in ("crt0.mvasm", "crtend.mvasm", "src/string.c", "src/bits.mvasm"):
        shutil.copy(lib_dir() / name, lib / name)
    (lib / "src" / "exit.c").write_text(
        "#include <hsx_sys.h>\nvoid exit(int status) { hsx_exit(status); }\n")
    prog = tmp_path / "p.c"
    prog.write_text("#include <string.h>\nint main(void) { return (int)strlen(\"four\"); }\n")
    env = dict(os.environ, HSX_LIB_DIR=str(lib), HSX_CACHE_DIR=str(tmp_path / "cache"))
    outputs = []
    for _ in range(2):
        child = pexpect.spawn(sys.executable, ["-m", "hsx", "run", str(prog)], env=env,
                              encoding="utf-8", timeout=120)
        child.expect(pexpect.EOF)
        child.close()
        outputs.append((child.before, child.exitstatus))
    first, second = outputs
    assert "building the C library" in first[0] and "3/3 done" in first[0]
    assert first[1] == second[1] == 4
    assert "building the C library" not in second[0]
