"""The conformance suite's programs (MVASM): small, each showing one behaviour."""

LOOP = """
.data
counter: .word 0
.text
.entry start
start:
    LDI32 R2, counter
loop:
    LD R1, [R2+0]
    ADDI R1, R1, 1
    ST [R2+0], R1
    JMP loop
"""

ECHO = """
.bss
buf: .zero 32
.text
.entry start
start:
    LDI R1, 0
    LDI32 R2, buf
    LDI R3, 32
    SVC MOD=4, FN=1          ; read stdin (blocks) -> R0 bytes
    CMPI R0, 0
    JZ done                  ; end of input
    MOV R3, R0
    LDI R1, 1
    LDI32 R2, buf
    SVC MOD=4, FN=2          ; echo it to stdout
    JMP start
done:
    LDI R0, 9
    SVC MOD=1, FN=0
"""

CALLS = """
.data
counter: .word 0
.text
.entry start
start:
    CALL main
    LDI R0, 0
    SVC MOD=1, FN=0
main:
    PUSH R14
    MOV R14, R15
    CALL bump
    CALL bump
    POP R14
    RET
bump:
    LDI32 R2, counter
    LD R1, [R2+0]
    ADDI R1, R1, 1
    ST [R2+0], R1
    RET
"""

PRODUCER = """
.data
channel: .asciz "app:readings"
reading: .ascii "reading #0"
.text
.entry start
start:
    LDI32 R1, channel
    LDI R2, 0
    SVC MOD=5, FN=0                     ; OPEN -> R1 handle
    MOV R6, R1
    LDI R7, 0
next:
    LDI32 R2, reading
    ADDI R3, R7, 49                     ; '1' + count
    STB [R2+9], R3
    MOV R1, R6
    LDI R3, 10
    LDI R4, 0
    LDI R5, 0
    SVC MOD=5, FN=2                     ; SEND (waits while the mailbox is full)
    ADDI R7, R7, 1
    CMPI R7, 3
    BNE next
    LDI R0, 0
    SVC MOD=1, FN=0
"""

CONSUMER = """
.data
channel: .asciz "app:readings"
.bss
message: .zero 32
.text
.entry start
start:
    LDI32 R1, channel
    LDI R2, 0
    SVC MOD=5, FN=0                     ; OPEN -> R1 handle
    MOV R6, R1
    LDI R7, 3
again:
    MOV R1, R6
    LDI32 R2, message
    LDI R3, 32
    LDI32 R4, 0xFFFF                    ; wait for ever
    LDI R5, 0
    SVC MOD=5, FN=3                     ; RECV -> R1 length
    MOV R3, R1
    LDI R1, 1
    LDI32 R2, message
    SVC MOD=4, FN=2                     ; print what came
    ADDI R7, R7, -1
    BNE again
    LDI R0, 0
    SVC MOD=1, FN=0
"""
