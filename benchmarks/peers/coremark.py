"""The CoreMark-like mix of coremark.c, in plain Python."""
M = 0xFFFFFFFF
TEXT = "123 45.6 -7e3 abc 0x1F 99 , 8.5e-1 +4 5e "


def crc16(crc, byte):
    crc ^= byte & 0xFF
    for _ in range(8):
        crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def scan(s):
    state = count = 0
    for ch in s:
        digit = "0" <= ch <= "9"
        if state == 0:
            state = 1 if digit or ch in "-+" else 0 if ch == " " else 4
        elif state == 1:
            if ch == " ":
                count += 1
                state = 0
            elif ch == ".":
                state = 2
            elif ch in "eE":
                state = 3
            elif not digit:
                state = 4
        elif state == 2:
            if ch == " ":
                count += 1
                state = 0
            elif ch in "eE":
                state = 3
            elif not digit:
                state = 4
        elif state == 3:
            if ch == " ":
                count += 1
                state = 0
            elif not digit and ch != "-":
                state = 4
        elif ch == " ":
            state = 0
    return count


class Node:
    __slots__ = ("value", "next")


def run(iterations, list_size):
    crc, seed = 0xFFFF, 12345
    pool = [Node() for _ in range(list_size)]
    for _ in range(iterations):
        head = prev = None
        for node in pool:
            seed = (seed * 1103515245 + 12345) & M
            node.value = (seed >> 16) & 0x7FFF
            node.next = head
            head = node
        while head is not None:
            nxt = head.next
            head.next = prev
            prev = head
            head = nxt
        biggest, total = -1, 0
        p = prev
        while p is not None:
            if p.value > biggest:
                biggest = p.value
            total += p.value
            p = p.next
        crc = crc16(crc, biggest)
        crc = crc16(crc, total)
        a = [[((seed >> ((i + j) & 15)) & 0xFF) - 64 for j in range(8)] for i in range(8)]
        b = [[((seed >> ((i * j) & 15)) & 0x7F) + i - j for j in range(8)] for i in range(8)]
        c = [[sum(a[i][k] * b[k][j] for k in range(8)) for j in range(8)] for i in range(8)]
        for i in range(8):
            crc = crc16(crc, c[i][i])
        crc = crc16(crc, scan(TEXT))
    return crc
