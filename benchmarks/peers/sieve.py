"""Sieve of Eratosthenes, repeated, as sieve.c."""


def run(size, rounds):
    total = 0
    composite = bytearray(size + 1)
    for _ in range(rounds):
        count = 0
        for i in range(size + 1):
            composite[i] = 0
        for i in range(2, size + 1):
            if composite[i]:
                continue
            count += 1
            for j in range(i + i, size + 1, i):
                composite[j] = 1
        total += count
    return total & 0xFFFFFFFF
