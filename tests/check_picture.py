#!/usr/bin/env python3
"""Reads back the pictures tmasim draws, as a viewer would.

  check_picture.py layout CSV SVG PNG   explain's picture: both files valid and the same size,
                                        every 16-byte chunk of the CSV labelled with its source
                                        row,col and its shared-memory offset
  check_picture.py heatmap SVG PNG N    a bank heat map with N lanes outlined in red (conflicts)

Prints 'N passed, M failed'."""
import collections
import csv
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

RED = "rgb(220,30,30)"
checks = {"passed": 0, "failed": 0}


def check(ok, what):
    checks["passed" if ok else "failed"] += 1
    if not ok:
        print("FAIL", what)


def read_png(path):
    """Width, height and the number of distinct colours; every chunk's CRC verified."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: PNG signature")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        check(zlib.crc32(kind + body) == crc, f"{path}: CRC of {kind}")
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            check((depth, colour) == (8, 2), f"{path}: 8-bit RGB")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = 1 + 3 * width
    check(len(raw) == stride * height, f"{path}: {len(raw)} bytes of pixels for {width}x{height}")
    colours = set()
    for y in range(0, height, 3):
        row = raw[y * stride + 1:(y + 1) * stride]
        colours.update(row[i:i + 3] for i in range(0, len(row), 9))
    return width, height, len(colours)


def read_svg(path):
    root = ET.parse(path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text or "" for t in root.iter(ns + "text")]
    strokes = collections.Counter(r.get("stroke") for r in root.iter(ns + "rect"))
    return int(root.get("width")), int(root.get("height")), texts, strokes


def same_picture(svg, png):
    sw, sh, texts, strokes = read_svg(svg)
    pw, ph, colours = read_png(png)
    check((sw, sh) == (pw, ph), f"SVG {sw}x{sh} and PNG {pw}x{ph} differ in size")
    check(colours >= 9, f"{png}: only {colours} colours")
    return texts, strokes


def layout(csv_path, svg, png):
    texts, _ = same_picture(svg, png)
    labels = collections.Counter(texts)
    first = {}
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            chunk = int(row["smem_offset"]) // 16 * 16
            first.setdefault(chunk, row)
    for chunk, row in first.items():
        label = f"{row['dim1']},{row['dim0']}" if "dim1" in row else row["dim0"]
        check(labels[label] >= 1, f"chunk at {chunk}: no label '{label}'")
        check(labels[str(chunk)] >= 1, f"chunk at {chunk}: its offset is not drawn")
    check(len(first) > 0, "no chunks in the CSV")


def heatmap(svg, png, red_lanes):
    _, strokes = same_picture(svg, png)
    outlined = strokes[RED] - 1  # the legend's swatch
    check(outlined == red_lanes, f"{outlined} lanes outlined in red, expected {red_lanes}")


def main():
    kind = sys.argv[1]
    if kind == "layout":
        layout(*sys.argv[2:5])
    elif kind == "heatmap":
        heatmap(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit(__doc__)
    print(f"{checks['passed']} passed, {checks['failed']} failed")
    sys.exit(1 if checks["failed"] else 0)


if __name__ == "__main__":
    main()
