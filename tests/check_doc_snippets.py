#!/usr/bin/env python3
"""Every code snippet a document quotes from the source still appears there.

  tests/check_doc_snippets.py DOC.md [ROOT]

A snippet is a fenced code block right after a line `<!-- from: PATH -->`; each of its non-empty
lines (stripped) must occur, in order, among PATH's lines. Exit 1 naming the first that does not.
"""
import os
import re
import sys


def main():
    doc = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    lines = open(doc, encoding="utf-8").read().split("\n")
    checked = 0
    for i, line in enumerate(lines):
        m = re.match(r"<!-- from: (\S+) -->", line.strip())
        if not m:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            sys.exit(f"{doc}:{i + 1}: '<!-- from: -->' must be followed by a fenced code block")
        j = i + 2
        snippet = []
        while j < len(lines) and not lines[j].startswith("```"):
            if lines[j].strip():
                snippet.append(lines[j].strip())
            j += 1
        source = [l.strip() for l in open(os.path.join(root, m.group(1)), encoding="utf-8").read().split("\n")]
        pos = 0
        for s in snippet:
            try:
                pos = source.index(s, pos) + 1
            except ValueError:
                sys.exit(f"{doc}:{i + 1}: '{s}' is not (or not in this order) in {m.group(1)}")
        checked += 1
    if checked == 0:
        sys.exit(f"{doc}: no snippets to check")
    print(f"{doc}: {checked} snippets hold")


if __name__ == "__main__":
    main()
