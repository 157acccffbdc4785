#!/usr/bin/env python3
"""The expected values of tests/unit/random_search_test.cc, derived without the C++ code: a
re-implementation of std::mt19937_64 (C++ [rand.predef]; checked against the standard's 10000th
output) and of the draw rules in runner/src/core/registry/random_search.h. Run it to print them."""
import math

M64 = (1 << 64) - 1


class Mt19937_64:
    N, M = 312, 156

    def __init__(self, seed):
        self.mt = [seed & M64]
        for i in range(1, self.N):
            self.mt.append((6364136223846793005 * (self.mt[-1] ^ (self.mt[-1] >> 62)) + i) & M64)
        self.i = self.N

    def __call__(self):
        if self.i >= self.N:
            for k in range(self.N):
                y = (self.mt[k] & 0xFFFFFFFF80000000) | (self.mt[(k + 1) % self.N] & 0x7FFFFFFF)
                v = self.mt[(k + self.M) % self.N] ^ (y >> 1)
                self.mt[k] = v ^ 0xB5026F5AA96619E9 if y & 1 else v
            self.i = 0
        y = self.mt[self.i]
        self.i += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        return (y ^ (y >> 43)) & M64


def fnv1a_64(text):
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & M64
    return h


def six_digits(value, low, high):
    return min(max(float("%.6g" % value), low), high)


def draw(kind, args, u):
    if kind == "uniform":
        return six_digits(args[0] + u * (args[1] - args[0]), *args)
    if kind == "log_uniform":
        low, high = math.log(args[0]), math.log(args[1])
        return six_digits(math.exp(low + u * (high - low)), *args)
    if kind == "int_range":
        n = args[1] - args[0] + 1
        return args[0] + min(int(u * n), n - 1)
    return args[min(int(u * len(args)), len(args) - 1)]  # choice


def trials(test, method, params, count):
    engine = Mt19937_64(fnv1a_64(test + "/" + method))
    rows = []
    for _ in range(count):
        rows.append({name: draw(kind, args, (engine() >> 11) * 2.0**-53)
                     for name, kind, args in params})
    return rows


if __name__ == "__main__":
    engine = Mt19937_64(5489)
    for _ in range(9999):
        engine()
    assert engine() == 9981545732273789042, "not the standard's mt19937_64"
    print("seed Study/adam:", fnv1a_64("Study/adam"))
    engine = Mt19937_64(fnv1a_64("Study/adam"))
    print("first u:", [repr((engine() >> 11) * 2.0**-53) for _ in range(3)])
    four = [("lr", "log_uniform", (1e-4, 1e-1)), ("width", "int_range", (16, 64)),
            ("activation", "choice", ["relu", "gelu", "tanh"]), ("dropout", "uniform", (0.0, 0.5))]
    for row in trials("Study", "adam", four, 3):
        print("adam", row)
    for row in trials("Study", "sgd", [("lr", "log_uniform", (1e-3, 1.0))], 3):
        print("sgd", row)
