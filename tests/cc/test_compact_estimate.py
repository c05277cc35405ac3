"""benchmarks/compact_bench.py's counting: which instructions its candidate compact form
covers and which of them pair, on small MVASM functions whose answer is known."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import compact_bench  # noqa: E402

from hsx.toolchain.build import assemble_source  # noqa: E402


def counted(body: str) -> compact_bench.Count:
    """The count of `body` with only its entry given as a label: the branch targets in
    it must be found by decoding."""
    module = assemble_source(".text\nf:\n" + body)
    return compact_bench.count(module.code, {0})


def test_adjacent_compact_instructions_share_a_word():
    c = counted("    MOV R1, R2\n    ADD R1, R1, R3\n    LDI R4, 5\n    CMPI R4, -3\n")
    assert (c.instructions, c.compact, c.words, c.pairs) == (4, 4, 4, 2)


def test_what_the_candidate_does_not_cover_stays_a_word():
    # three-address ADD, LDI out of 6 bits, a frame offset that is not a word, LDI32
    c = counted("    ADD R1, R2, R3\n    LDI R4, 100\n    LD R5, [R14+2]\n    LDI32 R6, 70000\n")
    assert (c.compact, c.words, c.pairs) == (0, 5, 5)


def test_a_three_address_operation_pairs_only_if_made_two_address():
    c = counted("    ADD R1, R2, R3\n    MOV R4, R5\n")
    assert (c.pairs, c.pairs_two_address) == (2, 1)


def test_a_branch_target_never_second_in_a_pair():
    c = counted("    MOV R1, R2\nloop:\n    ADDI R1, R1, 1\n    CMPI R1, 9\n    BNE loop\n")
    # MOV alone (ADDI is a target), then ADDI+CMPI, then BNE
    assert (c.compact, c.pairs) == (4, 3)


def test_a_control_transfer_never_first_in_a_pair():
    c = counted("    RET\n    MOV R1, R2\n    MOV R3, R4\n    MOV R5, R6\n")
    # RET cannot lead (what follows it in the word would not run), then MOV+MOV, MOV
    assert (c.compact, c.pairs) == (4, 3)
    assert c.halfwords == 4                      # every one 2 bytes in the 16/32 form
