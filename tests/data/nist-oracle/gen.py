#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generate the deterministic inputs of tests/data/nist-oracle/ (see README.md there).

Every input is one sample per byte (NIST's format). All randomness comes from splitmix64
(Steele, Lea, Flood 2014), implemented below, so the same bytes can be regenerated in any
language: state += 0x9E3779B97F4A7C15; z = state; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
z = (z ^ (z >> 27)) * 0x94D049BB133111EB; return z ^ (z >> 31)   (all mod 2^64).
A uniform double u in [0,1) is (next() >> 11) * 2^-53; a draw from a discrete distribution
with weights w[0..k-1] (integers) picks the first i with u*sum(w) < w[0]+...+w[i].

Usage: gen.py OUTDIR        (writes the .bin files; restart matrices also as .bin.gz)
"""
import gzip
import os
import sys

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)

    def choice(self, weights, values=None):
        """Index (or values[index]) drawn with probability weights[i]/sum(weights)."""
        total = sum(weights)
        x = self.unit() * total
        acc = 0
        for i, w in enumerate(weights):
            acc += w
            if x < acc:
                return values[i] if values else i
        return values[-1] if values else len(weights) - 1


def iid(seed, n, weights, values=None):
    g = SplitMix64(seed)
    return bytes(g.choice(weights, values) for _ in range(n))


def markov1(seed, n, p_stay_num, p_stay_den):
    """1-bit Markov chain: keep the previous bit with probability p_stay_num/p_stay_den."""
    g = SplitMix64(seed)
    out = bytearray(n)
    b = 0
    for i in range(n):
        if g.unit() * p_stay_den >= p_stay_num:
            b ^= 1
        out[i] = b
    return bytes(out)


def repeated_block(seed, n, block_len, copies_at):
    """Uniform 8-bit samples; the block [0, block_len) is copied again at each offset in copies_at."""
    g = SplitMix64(seed)
    out = bytearray(g.next() & 0xFF for _ in range(n))
    for off in copies_at:
        out[off:off + block_len] = out[0:block_len]
    return bytes(out)


def period2(seed, n, a, b, flips):
    """a,b,a,b,... with `flips` positions (chosen by splitmix64) replaced by the other symbol."""
    out = bytearray(a if i % 2 == 0 else b for i in range(n))
    g = SplitMix64(seed)
    for _ in range(flips):
        i = g.next() % n
        out[i] = b if out[i] == a else a
    return bytes(out)


def restart_matrix(seed, weights, constant_prefix=0):
    """1000 restarts x 1000 samples, row-major (row i = restart i), iid from weights.
    With constant_prefix > 0 every restart starts with the same constant_prefix samples
    (taken from restart 0), which makes the column counts explode (sanity check failure)."""
    rows = [bytearray(iid(seed + r, 1000, weights)) for r in range(1000)]
    for r in range(1, 1000):
        rows[r][0:constant_prefix] = rows[0][0:constant_prefix]
    return b"".join(bytes(r) for r in rows)


def restart_rotations(seed, period):
    """1000 restarts x 1000 samples: restart i is (phase_i + j) mod period, j = 0..999, with
    phase_i drawn uniformly by splitmix64. Rows are perfectly predictable, columns look random:
    passes the sanity check but fails validation (min(H_r, H_c) < H_I/2)."""
    g = SplitMix64(seed)
    out = bytearray()
    for r in range(1000):
        phase = g.next() % period
        out += bytes((phase + j) % period for j in range(1000))
    return bytes(out)


def inputs():
    """name -> bytes. Seeds are arbitrary fixed constants."""
    d = {}
    # Non-IID track (ea_non_iid)
    d["bias4_100k.bin"] = iid(4004, 100000, [30, 12, 10, 8, 6, 6, 5, 5, 4, 3, 3, 2, 2, 2, 1, 1])
    d["bias2_100k.bin"] = iid(2002, 100000, [50, 25, 15, 10])
    d["bias3_100k.bin"] = iid(3003, 100000, [40, 20, 12, 10, 8, 5, 3, 2])
    d["bias8_150k.bin"] = iid(8008, 150000, [64 if v < 16 else (8 if v < 128 else 1) for v in range(256)])
    d["markov1_100k.bin"] = markov1(1001, 100000, 80, 100)
    d["trans6_100k.bin"] = iid(6006, 100000, [35, 25, 20, 12, 8], [3, 17, 42, 63, 8])
    d["repeat8_20k.bin"] = repeated_block(7007, 20000, 2000, [9000, 15000])
    d["period2_1bit_20k.bin"] = period2(9009, 20000, 0, 1, 200)
    d["period2_4bit_20k.bin"] = period2(9010, 20000, 5, 10, 400)
    # Long exact repeats: NIST's t-Tuple/LRS and predictor code get slow (about quadratic) here
    d["period2_pure_1bit_20k.bin"] = period2(0, 20000, 0, 1, 0)
    d["cycle100_8bit_50k.bin"] = repeated_block(7100, 50000, 100, range(100, 50000, 100))
    # IID track (ea_iid)
    d["iid3_100k.bin"] = iid(3103, 100000, [40, 20, 12, 10, 8, 5, 3, 2])
    # Restart tests (ea_restart), 1000 x 1000 row-major
    d["restart2_ok.bin"] = restart_matrix(20000, [50, 25, 15, 10])
    d["restart1_ok.bin"] = restart_matrix(30000, [60, 40])
    d["restart2_fail.bin"] = restart_matrix(40000, [50, 25, 15, 10], constant_prefix=100)
    d["restart2_periodic.bin"] = restart_rotations(50000, 4)
    return d


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    for name, data in inputs().items():
        if name.startswith("restart"):
            # gzip without a timestamp or name so the .gz bytes are reproducible too
            with open(os.path.join(out, name + ".gz"), "wb") as f:
                with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=9) as z:
                    z.write(data)
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
