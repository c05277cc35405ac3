"""Generate the native engine's opcode header from the opcode table:
`python -m hsx.isa.cheader > port/c/hsx_opcodes.h`.

The C core (port/c/) takes its opcode numbers, operand forms and field layouts from this
header only; a test regenerates it and compares, so the C engine cannot drift from the
table the assembler, disassembler and Python VM use.
"""
from __future__ import annotations

from .compact import COMPACT, FRAME_REGISTER, Layout
from .encoding import FORM_FIELDS
from .opcodes import HSX_ERR_ENOSYS, OPCODES, SP_REGISTER, Form

# How the immediate of each form is decoded (mirrors encoding.decode).
IMM_KIND = {
    Form.REL24: "REL24", Form.RD_IMM32: "LITERAL", Form.BRK: "BYTE",
    Form.ABS12: "U12", Form.SVC: "U12", Form.RD_IMM20: "S20", Form.RD_IMMH: "HIGH20",
}


def _imm_kind(form: Form) -> str:
    if "imm" not in FORM_FIELDS[form]:
        return "NONE"
    return IMM_KIND.get(form, "S12")


def render() -> str:
    forms = list(Form)
    lines = [
        "/* Generated from hsx.isa.opcodes by `python -m hsx.isa.cheader`; do not edit. */",
        "#ifndef HSX_OPCODES_H",
        "#define HSX_OPCODES_H",
        "",
        f"#define HSX_SP_REGISTER {SP_REGISTER}",
        f"#define HSX_ERR_ENOSYS 0x{HSX_ERR_ENOSYS:08X}u",
        "",
        "/* Immediate encodings. */",
        "enum hsx_imm_kind { HSX_IMM_NONE, HSX_IMM_S12, HSX_IMM_U12, HSX_IMM_BYTE,",
        "                    HSX_IMM_REL24, HSX_IMM_LITERAL, HSX_IMM_S20, HSX_IMM_HIGH20 };",
        "",
        "/* Operand forms: X(name, uses_rd, uses_rs1, uses_rs2, imm_kind) */",
        "#define HSX_FORMS(X) \\",
    ]
    for form in forms:
        used = FORM_FIELDS[form]
        lines.append(f"    X({form.name}, {int('rd' in used)}, {int('rs1' in used)}, "
                     f"{int('rs2' in used)}, HSX_IMM_{_imm_kind(form)}) \\")
    lines += ["", "/* Opcodes: X(code, mnemonic, form, size_in_bytes, pairs); pairs: which register",
              " * fields name a pair Rn:Rn+1 (1 rd, 2 rs1, 4 rs2) */", "#define HSX_OPCODES(X) \\"]
    for op in OPCODES:
        pairs = sum(bit for field, bit in (("rd", 1), ("rs1", 2), ("rs2", 4))
                    if field in op.pairs)
        lines.append(f"    X(0x{op.code:02X}, {op.mnemonic}, {op.form.name}, {op.size}, {pairs}) \\")
    lines += ["", "/* Compact pairs (hsx.isa.compact): a word with bits 31..30 = 11 holds two 15-bit",
              " * operations, bits 29..15 then 14..0, each a 5-bit code and 10 operand bits. */",
              f"#define HSX_COMPACT_FRAME_REGISTER {FRAME_REGISTER}",
              "enum hsx_compact_layout { " + ", ".join(f"HSX_CL_{l.name}" for l in Layout) + " };",
              "/* X(code, mnemonic, layout, two_address, scale, frame): the instruction a compact",
              " * operation stands for; register a = bits 9..6, b = bits 5..2 */",
              "#define HSX_COMPACT(X) \\"]
    for c in COMPACT:
        lines.append(f"    X({c.code}, {c.mnemonic}, {c.layout.name}, {int(c.two_address)}, "
                     f"{c.scale}, {int(c.frame)}) \\")
    lines += ["", "#endif", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(), end="")
