"""The IR reader: clang's text into the back end's IR, checked by LLVM first."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import llvmlite.binding as llvm
import pytest

from hsx.toolchain.cc.ir import CompileError
from hsx.toolchain.cc.reader import read_module

DATA_LAYOUT = "e-m:e-p:32:32-p10:8:8-p20:8:8-i64:64-i128:128-n32:64-S128-ni:1:10:20"

STRUCTS = {
    "a": "{ i8, i32, i8 }",
    "b": "{ i8, i64, i16 }",
    "c": "<{ i8, i32, i16 }>",
    "d": "{ double, i8, [3 x i16] }",
    "e": "{ %a, i8, %c, float }",
    "f": "{ [2 x %b], i1, ptr, half }",
    "g": "{ i24, i48, i8 }",
}


def _module(structs: dict[str, str]) -> str:
    lines = [f'target datalayout = "{DATA_LAYOUT}"', 'target triple = "wasm32-unknown-unknown"']
    lines += [f"%{name} = type {body}" for name, body in structs.items()]
    lines += [f"@v{name} = global %{name} zeroinitializer" for name in structs]
    return "\n".join(lines) + "\n"


def test_struct_layouts_match_llvm_target_data():
    """The reader lays out named structs by the C rules; LLVM agrees on every offset,
    size and alignment."""
    text = _module(STRUCTS)
    module = read_module(text)
    context = llvm.create_context()
    ref = llvm.parse_assembly(text, context=context)
    try:
        target = llvm.create_target_data(DATA_LAYOUT)
        by_name = {t.name: t for t in ref.struct_types}
        for g in module.globals:
            ty = g.ty
            llvm_ty = by_name[ty.name]
            count = len(list(llvm_ty.elements))
            assert module.layout.offsets(ty) == [target.get_element_offset(llvm_ty, k)
                                                 for k in range(count)], ty.name
            assert module.layout.size(ty) == target.get_abi_size(llvm_ty), ty.name
            assert module.layout.align(ty) == target.get_abi_alignment(llvm_ty), ty.name
    finally:
        ref.close()
        context.close()


BROKEN = {
    "syntax": "define i32 @f( {\n",
    "undefined value": "define i32 @f() {\n  ret i32 %x\n}\n",
    "type mismatch": "define i32 @f() {\n  ret i64 0\n}\n",
    "no terminator": "define i32 @f(i32 %a) {\n  %b = add i32 %a, 1\n}\n",
    "not IR at all": "this is not LLVM IR \xff",
    "a NUL character": "define void @f() {\n  ret void\n}\n\x00 garbage",
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_malformed_ir_is_an_error(name):
    with pytest.raises(CompileError) as info:
        read_module(BROKEN[name], "bad.ll")
    assert info.value.where == "bad.ll" and "LLVM IR" in info.value.message


@pytest.mark.parametrize("name, header", [("syntax", True), ("not IR at all", False),
                                          ("a NUL character", True)])
def test_clangs_ir_is_checked_by_llvm_when_the_back_end_cannot_read_it(name, header):
    """IR from clang is not checked first (start-up: LLVM is not loaded); text the back
    end cannot read, without clang's first line or with a NUL still fails with LLVM's
    message."""
    text = ("; ModuleID = 'bad.c'\n" if header else "") + BROKEN[name]
    with pytest.raises(CompileError) as info:
        read_module(text, "bad.ll", from_clang=True)
    assert info.value.where == "bad.ll" and "LLVM IR" in info.value.message


def test_malformed_ir_never_crashes_the_process():
    """Many failed parses in a row, with the garbage collector running in between (a
    module freed after its context used to crash llvmlite), end in a clean exit."""
    script = textwrap.dedent("""
        import gc
        from hsx.toolchain.cc.ir import CompileError
        from hsx.toolchain.cc.reader import read_module
        for k in range(200):
            try:
                read_module("define i32 @f( {" if k % 2 else "define i32 @f() { ret i64 0 }")
            except CompileError:
                pass
            gc.collect()
        print("survived")
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert (run.returncode, run.stdout) == (0, "survived\n"), run.stderr


def test_forward_references_phis_and_unnamed_values():
    module = read_module(textwrap.dedent("""
        define i32 @sum(i32 noundef %0) {
          br label %2
        2:
          %3 = phi i32 [ 0, %1 ], [ %6, %5 ]
          %4 = phi i32 [ 0, %1 ], [ %7, %5 ]
          %c = icmp slt i32 %4, %0
          br i1 %c, label %5, label %8
        5:
          %6 = add nsw i32 %3, %4
          %7 = add nuw nsw i32 %4, 1
          br label %2
        8:
          ret i32 %3
        }
    """))
    f = module.function("sum")
    entry, loop, body, done = f.blocks
    assert [b.name for b in f.blocks] == ["1", "2", "5", "8"]
    phi = loop.instrs[0]
    assert [(v.name if hasattr(v, "name") else v.c.value, b.name) for v, b in phi.incoming] \
        == [(0, "1"), ("6", "5")]
    assert phi.incoming[1][0] is body.instrs[0]            # a forward reference
    assert loop.instrs[2].pred == "slt" and loop.instrs[2].ops[1] is f.params[0]
    assert loop.instrs[3].targets == [body, done] and loop.preds == [entry, body]


def test_result_types_of_forward_references_come_from_the_written_types():
    """clang -O1 puts a block after its users: an operand defined later is an empty
    shell when its user is read, so result types come from the text."""
    module = read_module(textwrap.dedent("""
        define double @late(double %0, ptr %p) {
          br label %3
        2:
          %n = fneg double %x
          %e = extractvalue { i64, float } %agg, 1
          %r = atomicrmw add ptr %p, i16 %h seq_cst
          %c = cmpxchg ptr %p, i64 %w, i64 0 seq_cst seq_cst
          %q = getelementptr i8, <2 x ptr> %vp, i32 1
          %k = call i32 (ptr, ...) @f(ptr %p, double %x, i16 %h)
          ret double %n
        3:
          %x = fadd double %0, 1.0
          %agg = insertvalue { i64, float } undef, float 2.0, 1
          %h = trunc i32 7 to i16
          %w = zext i32 9 to i64
          %vp = insertelement <2 x ptr> undef, ptr %p, i32 0
          br label %2
        }
        declare i32 @f(ptr, ...)
    """))
    late = module.function("late").blocks[1].instrs
    assert [str(i.ty) for i in late[:5]] == ["double", "float", "i16", "{ i64, i1 }", "<2 x ptr>"]


def test_statics_renamed_for_library_members():
    module = read_module(textwrap.dedent("""
        @count = internal global i32 0
        @table = global [1 x ptr] [ptr @helper]
        define internal i32 @helper() {
          %1 = load i32, ptr @count
          ret i32 %1
        }
        declare extern_weak void @hook()
    """), local_prefix="__hsx.u.")
    names = {g.name: g.local for g in module.globals}
    assert names == {"__hsx.u.count": False, "table": False}
    helper = module.functions[0]
    assert helper.name == "__hsx.u.helper" and not helper.local
    assert module.globals[1].init.elems[0][1].name == "__hsx.u.helper"
    assert helper.blocks[0].instrs[0].ops[0].c.name == "__hsx.u.count"
    assert module.weak == frozenset({"hook"})
