"""MVASM programs that more than one suite runs, kept once (tests/ is importable from
every suite: tests/conftest.py).  A suite's own programs stay with it, as do those that
only look alike: a program a test reads line numbers, exit codes or data from is that
test's business."""

# writes "hello\n", then exits with 3
HELLO = """
.data
msg: .ascii "hello\\n"
.text
.entry start
start:
    LDI R1, 1
    LDI32 R2, msg
    LDI R3, 6
    SVC MOD=4, FN=2
    LDI R0, 3
    SVC MOD=1, FN=0
"""

# divides by zero at its third instruction
FAULTER = """
.text
.entry start
start:
    LDI R1, 1
    LDI R2, 0
    DIV R3, R1, R2
"""

# R1 = 7, BRK 9 (a stop at pc 4), then R1 = 8 and exits with 0
BREAKER = """
.text
.entry start
start:
    LDI R1, 7
    BRK 9
    LDI R1, 8
    LDI R0, 0
    SVC MOD=1, FN=0
"""

# a value `rpm` (persisted under key 5) and a command `boost` (its handler returns 42);
# stays alive
MOTOR = """
.value {"group": 1, "id": 2, "name": "rpm", "unit": "rpm", "init": 1.0, "max": 100.0, "persist_key": 5}
.cmd {"group": 1, "id": 3, "name": "boost", "help": "Add one to the base", "handler": "boost"}
.text
.entry start
start:
    LDI R0, 1000
    SVC MOD=6, FN=0          ; stay alive
    JMP start
boost:
    LDI R0, 41
    ADDI R0, R0, 1
    RET
"""

# calls command 0x0103 (`boost`, group 1 id 3) once its owner has had 5 ms to load, and
# exits with the call's status + result
CALLER = """
.text
.entry start
start:
    LDI R0, 5
    SVC MOD=6, FN=0          ; let the command's owner load and register
    LDI32 R1, 0x0103
    LDI R2, 0
    SVC MOD=8, FN=2          ; CALL -> R0 status, R1 result
    ADD R0, R0, R1
    SVC MOD=1, FN=0
"""

# writes "ok" every millisecond for ever: a bystander whose output shows it still runs
CANARY = """
.data
msg: .ascii "ok"
.text
.entry start
start:
    LDI R1, 1
    LDI32 R2, msg
    LDI R3, 2
    SVC MOD=4, FN=2
    LDI R0, 1
    SVC MOD=6, FN=0          ; sleep 1 ms
    JMP start
"""

# writes "tick\n" for ever
CHATTY = """
.data
msg: .ascii "tick\\n"
.text
.entry start
start:
    LDI R1, 1
    LDI32 R2, msg
    LDI R3, 5
    SVC MOD=4, FN=2
    JMP start
"""


def _pairs() -> tuple[int, int, str]:
    from hsx.isa import make
    from hsx.isa.compact import pack
    count = pack(make("ADDI", rd=1, rs1=1, imm=1), make("CMPI", rs1=1, imm=3))
    branch = pack(make("MOV", rd=0, rs1=1), make("BNE", imm=-1))
    return count, branch, f"""\
; count to 3 in compact pairs and exit with it
.text
.entry start
start:
    LDI R1, 0
loop:
    .word 0x{count:08X}
    .word 0x{branch:08X}
    SVC MOD=1, FN=0
"""


# two compact pairs written as words (the assembler does not pack MVASM): the loop's
# count (ADDI R1, R1, 1 | CMPI R1, 3) and its branch (MOV R0, R1 | BNE loop)
PAIR_COUNT, PAIR_BRANCH, PAIRS = _pairs()

