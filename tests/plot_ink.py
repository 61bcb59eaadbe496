#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""plot_ink.py - checks rngaudit-plot.awk's text boxes against the pixels
gnuplot drew.

usage: plot_ink.py labels PNG TSV...   every dark pixel of PNG (a picture of
                                       the texts of TSV alone) lies in one
                                       of their boxes: the character-width
                                       and height estimates hold
       plot_ink.py edge PNG            nothing drawn within 2 pixels of the
                                       edge of PNG (no text or mark cut)
Reads the PNG with zlib only (8-bit RGB or RGBA, no interlace: what
pngcairo writes).  Prints what is wrong and exits 1, else exits 0.
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit(f"{path}: depth {depth}, colour type {ctype}, interlace {interlace}: not read here")
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev, o = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[o], bytearray(raw[o + 1:o + 1 + stride])
        o += 1 + stride
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def dark(rows, bpp, w, y, threshold=200):
    """x of the pixels of row y darker than threshold in some channel
    (antialiasing's faint fringe is not counted)."""
    r = rows[y]
    return [x for x in range(w) if min(r[x * bpp:x * bpp + 3]) < threshold]


def main(argv):
    if len(argv) >= 3 and argv[1] == "edge":
        w, h, bpp, rows = read_png(argv[2])
        bad = [(x, y) for y in range(h) for x in dark(rows, bpp, w, y)
               if x < 2 or y < 2 or x >= w - 2 or y >= h - 2]
        if bad:
            print(f"{argv[2]}: {len(bad)} pixels drawn at the edge, e.g. {bad[:3]}")
            return 1
        return 0
    if len(argv) >= 4 and argv[1] == "labels":
        w, h, bpp, rows = read_png(argv[2])
        boxes = []
        for path in argv[3:]:
            for line in open(path, encoding="utf-8", errors="replace"):
                f = line.rstrip("\n").split("\t")
                x0, y0, x1, y1 = (float(v) for v in f[4:8])
                # boxes are from the bottom; the PNG's rows from the top
                boxes.append((x0, h - y1, x1, h - y0, f[3]))
        outside = 0
        for y in range(h):
            for x in dark(rows, bpp, w, y):
                if not any(b[0] - 1 <= x <= b[2] + 1 and b[1] - 1 <= y <= b[3] + 1 for b in boxes):
                    if outside < 5:
                        print(f"{argv[2]}: ink at {x},{y} outside every text box")
                    outside += 1
        if outside:
            print(f"{argv[2]}: {outside} pixels of text outside their boxes")
            return 1
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
