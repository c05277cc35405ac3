"""The 64-bit integer and double workload of mix.c, in plain Python."""
M64 = (1 << 64) - 1


def run(n):
    h, x, acc = 1469598103934665603, 0.5, 0.0
    for i in range(1, n + 1):
        h = ((h ^ i) * 1099511628211) & M64
        q = h // (i | 1)
        acc += (q % 65521) / i + x * x
        x = x * 0.999 + 0.001
    return ((h ^ (h >> 32)) & 0xFFFFFFFF) ^ (int(acc) & 0xFFFFFFFF)
