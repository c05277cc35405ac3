/* Generated from hsx.isa.opcodes by `python -m hsx.isa.cheader`; do not edit. */
#ifndef HSX_OPCODES_H
#define HSX_OPCODES_H

#define HSX_SP_REGISTER 15
#define HSX_ERR_ENOSYS 0xFFFFFF01u

/* Immediate encodings. */
enum hsx_imm_kind { HSX_IMM_NONE, HSX_IMM_S12, HSX_IMM_U12, HSX_IMM_BYTE,
                    HSX_IMM_REL24, HSX_IMM_LITERAL, HSX_IMM_S20, HSX_IMM_HIGH20 };

/* Operand forms: X(name, uses_rd, uses_rs1, uses_rs2, imm_kind) */
#define HSX_FORMS(X) \
    X(NONE, 0, 0, 0, HSX_IMM_NONE) \
    X(RD_IMM, 1, 0, 0, HSX_IMM_S12) \
    X(RD_IMM32, 1, 0, 0, HSX_IMM_LITERAL) \
    X(RD_IMM20, 1, 0, 0, HSX_IMM_S20) \
    X(RD_IMMH, 1, 0, 0, HSX_IMM_HIGH20) \
    X(RD_MEM, 1, 1, 0, HSX_IMM_S12) \
    X(MEM_RS, 0, 1, 1, HSX_IMM_S12) \
    X(RD_RS, 1, 1, 0, HSX_IMM_NONE) \
    X(RD_RS_RS, 1, 1, 1, HSX_IMM_NONE) \
    X(RD_RS_IMM, 1, 1, 0, HSX_IMM_S12) \
    X(RS_RS, 0, 1, 1, HSX_IMM_NONE) \
    X(RS_IMM, 0, 1, 0, HSX_IMM_S12) \
    X(RS, 0, 1, 0, HSX_IMM_NONE) \
    X(RD, 1, 0, 0, HSX_IMM_NONE) \
    X(ABS12, 0, 0, 0, HSX_IMM_U12) \
    X(CALL12, 0, 1, 0, HSX_IMM_S12) \
    X(REL24, 0, 0, 0, HSX_IMM_REL24) \
    X(SVC, 0, 0, 0, HSX_IMM_U12) \
    X(BRK, 0, 0, 0, HSX_IMM_BYTE) \

/* Opcodes: X(code, mnemonic, form, size_in_bytes, pairs); pairs: which register
 * fields name a pair Rn:Rn+1 (1 rd, 2 rs1, 4 rs2) */
#define HSX_OPCODES(X) \
    X(0x01, LDI, RD_IMM, 4, 0) \
    X(0x02, LD, RD_MEM, 4, 0) \
    X(0x03, ST, MEM_RS, 4, 0) \
    X(0x04, MOV, RD_RS, 4, 0) \
    X(0x06, LDB, RD_MEM, 4, 0) \
    X(0x07, LDH, RD_MEM, 4, 0) \
    X(0x08, STB, MEM_RS, 4, 0) \
    X(0x09, STH, MEM_RS, 4, 0) \
    X(0x0A, LDBS, RD_MEM, 4, 0) \
    X(0x0B, LDHS, RD_MEM, 4, 0) \
    X(0x10, ADD, RD_RS_RS, 4, 0) \
    X(0x11, SUB, RD_RS_RS, 4, 0) \
    X(0x12, MUL, RD_RS_RS, 4, 0) \
    X(0x13, DIV, RD_RS_RS, 4, 0) \
    X(0x14, AND, RD_RS_RS, 4, 0) \
    X(0x15, OR, RD_RS_RS, 4, 0) \
    X(0x16, XOR, RD_RS_RS, 4, 0) \
    X(0x17, NOT, RD_RS, 4, 0) \
    X(0x18, DIVU, RD_RS_RS, 4, 0) \
    X(0x19, REM, RD_RS_RS, 4, 0) \
    X(0x1A, REMU, RD_RS_RS, 4, 0) \
    X(0x1B, MULHU, RD_RS_RS, 4, 0) \
    X(0x1C, MULHS, RD_RS_RS, 4, 0) \
    X(0x20, CMP, RS_RS, 4, 0) \
    X(0x21, JMP, ABS12, 4, 0) \
    X(0x22, JZ, ABS12, 4, 0) \
    X(0x23, JNZ, ABS12, 4, 0) \
    X(0x24, CALL, CALL12, 4, 0) \
    X(0x25, RET, NONE, 4, 0) \
    X(0x26, JMPR, RS, 4, 0) \
    X(0x27, CALLR, RS, 4, 0) \
    X(0x28, BR, REL24, 4, 0) \
    X(0x29, LCALL, REL24, 4, 0) \
    X(0x30, SVC, SVC, 4, 0) \
    X(0x31, LSL, RD_RS_RS, 4, 0) \
    X(0x32, LSR, RD_RS_RS, 4, 0) \
    X(0x33, ASR, RD_RS_RS, 4, 0) \
    X(0x34, ADC, RD_RS_RS, 4, 0) \
    X(0x35, SBC, RD_RS_RS, 4, 0) \
    X(0x36, ADDI, RD_RS_IMM, 4, 0) \
    X(0x37, ANDI, RD_RS_IMM, 4, 0) \
    X(0x38, ORI, RD_RS_IMM, 4, 0) \
    X(0x39, XORI, RD_RS_IMM, 4, 0) \
    X(0x3A, LSLI, RD_RS_IMM, 4, 0) \
    X(0x3B, LSRI, RD_RS_IMM, 4, 0) \
    X(0x3C, ASRI, RD_RS_IMM, 4, 0) \
    X(0x3D, CMPI, RS_IMM, 4, 0) \
    X(0x3E, MULI, RD_RS_IMM, 4, 0) \
    X(0x40, PUSH, RS, 4, 0) \
    X(0x41, POP, RD, 4, 0) \
    X(0x50, FADD, RD_RS_RS, 4, 0) \
    X(0x51, FSUB, RD_RS_RS, 4, 0) \
    X(0x52, FMUL, RD_RS_RS, 4, 0) \
    X(0x53, FDIV, RD_RS_RS, 4, 0) \
    X(0x54, I2F, RD_RS, 4, 0) \
    X(0x55, F2I, RD_RS, 4, 0) \
    X(0x60, LDI32, RD_IMM32, 8, 0) \
    X(0x61, LDI20, RD_IMM20, 4, 0) \
    X(0x62, LDIH, RD_IMMH, 4, 0) \
    X(0x70, BEQ, REL24, 4, 0) \
    X(0x71, BNE, REL24, 4, 0) \
    X(0x72, BLT, REL24, 4, 0) \
    X(0x73, BGE, REL24, 4, 0) \
    X(0x74, BGT, REL24, 4, 0) \
    X(0x75, BLE, REL24, 4, 0) \
    X(0x76, BLTU, REL24, 4, 0) \
    X(0x77, BGEU, REL24, 4, 0) \
    X(0x78, BGTU, REL24, 4, 0) \
    X(0x79, BLEU, REL24, 4, 0) \
    X(0x7F, BRK, BRK, 4, 0) \
    X(0x80, FADDS, RD_RS_RS, 4, 0) \
    X(0x81, FSUBS, RD_RS_RS, 4, 0) \
    X(0x82, FMULS, RD_RS_RS, 4, 0) \
    X(0x83, FDIVS, RD_RS_RS, 4, 0) \
    X(0x84, FCMPS, RS_RS, 4, 0) \
    X(0x88, DADD, RD_RS_RS, 4, 7) \
    X(0x89, DSUB, RD_RS_RS, 4, 7) \
    X(0x8A, DMUL, RD_RS_RS, 4, 7) \
    X(0x8B, DDIV, RD_RS_RS, 4, 7) \
    X(0x8C, DCMP, RS_RS, 4, 6) \
    X(0x90, S2D, RD_RS, 4, 1) \
    X(0x91, D2S, RD_RS, 4, 2) \
    X(0x92, I2S, RD_RS, 4, 0) \
    X(0x93, U2S, RD_RS, 4, 0) \
    X(0x94, S2I, RD_RS, 4, 0) \
    X(0x95, S2U, RD_RS, 4, 0) \
    X(0x96, I2D, RD_RS, 4, 1) \
    X(0x97, U2D, RD_RS, 4, 1) \
    X(0x98, D2I, RD_RS, 4, 2) \
    X(0x99, D2U, RD_RS, 4, 2) \
    X(0x9A, L2D, RD_RS, 4, 3) \
    X(0x9B, UL2D, RD_RS, 4, 3) \
    X(0x9C, D2L, RD_RS, 4, 3) \
    X(0x9D, D2UL, RD_RS, 4, 3) \
    X(0x9E, L2S, RD_RS, 4, 2) \
    X(0x9F, UL2S, RD_RS, 4, 2) \
    X(0xA0, S2L, RD_RS, 4, 1) \
    X(0xA1, S2UL, RD_RS, 4, 1) \
    X(0xA8, MUL64, RD_RS_RS, 4, 7) \
    X(0xA9, DIV64, RD_RS_RS, 4, 7) \
    X(0xAA, DIVU64, RD_RS_RS, 4, 7) \
    X(0xAB, REM64, RD_RS_RS, 4, 7) \
    X(0xAC, REMU64, RD_RS_RS, 4, 7) \

/* Compact pairs (hsx.isa.compact): a word with bits 31..30 = 11 holds two 15-bit
 * operations, bits 29..15 then 14..0, each a 5-bit code and 10 operand bits. */
#define HSX_COMPACT_FRAME_REGISTER 14
enum hsx_compact_layout { HSX_CL_RR, HSX_CL_RI6, HSX_CL_RI5, HSX_CL_RRO, HSX_CL_F6, HSX_CL_R, HSX_CL_NONE, HSX_CL_B10 };
/* X(code, mnemonic, layout, two_address, scale, frame): the instruction a compact
 * operation stands for; register a = bits 9..6, b = bits 5..2 */
#define HSX_COMPACT(X) \
    X(1, MOV, RR, 0, 1, 0) \
    X(2, ADD, RR, 1, 1, 0) \
    X(3, SUB, RR, 1, 1, 0) \
    X(4, AND, RR, 1, 1, 0) \
    X(5, OR, RR, 1, 1, 0) \
    X(6, XOR, RR, 1, 1, 0) \
    X(7, CMP, RR, 0, 1, 0) \
    X(8, LDI, RI6, 0, 1, 0) \
    X(9, ADDI, RI6, 1, 1, 0) \
    X(10, CMPI, RI6, 0, 1, 0) \
    X(11, LSLI, RI5, 1, 1, 0) \
    X(12, LSRI, RI5, 1, 1, 0) \
    X(13, LD, F6, 0, 4, 1) \
    X(14, ST, F6, 0, 4, 1) \
    X(15, ADDI, F6, 0, 4, 1) \
    X(16, LD, RRO, 0, 4, 0) \
    X(17, ST, RRO, 0, 4, 0) \
    X(18, LDB, RRO, 0, 1, 0) \
    X(19, STB, RRO, 0, 1, 0) \
    X(20, PUSH, R, 0, 1, 0) \
    X(21, POP, R, 0, 1, 0) \
    X(22, RET, NONE, 0, 1, 0) \
    X(23, BR, B10, 0, 1, 0) \
    X(24, BEQ, B10, 0, 1, 0) \
    X(25, BNE, B10, 0, 1, 0) \
    X(26, BLT, B10, 0, 1, 0) \
    X(27, BGE, B10, 0, 1, 0) \
    X(28, BLTU, B10, 0, 1, 0) \
    X(29, BGEU, B10, 0, 1, 0) \
    X(30, BGTU, B10, 0, 1, 0) \
    X(31, BLE, B10, 0, 1, 0) \

#endif
