"""Recursive Fibonacci, as fib.c."""


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def run(size):
    return fib(size) & 0xFFFFFFFF
