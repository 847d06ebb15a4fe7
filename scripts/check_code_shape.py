#!/usr/bin/env python3
"""The shape of the model's code (issue 28): no file in model/ over 600 lines, no function over 80.

  scripts/check_code_shape.py [--max-file 600] [--max-function 80] [ROOT]

A function is a definition at indentation 0 or 2 (a free function, or a member defined in its
class) whose signature ends in '{' and whose body closes with '}' at the same indentation (the
house style, clang-format's); its lambdas count within it. Prints every breach and exits 1 if any.
"""
import argparse
import os
import re
import sys

KEYWORDS = ("if", "for", "while", "switch", "else", "do", "namespace", "struct", "class", "enum", "union", "return",
            "case", "default", "template", "extern", "using", "typedef")


def functions(lines):
    """(signature, first line, length) of each function definition at indentation 0 or 2."""
    i = 0
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip(" "))
        word = re.match(r"[\w~]+", line.strip())
        if (indent not in (0, 2) or not word or word.group(0) in KEYWORDS or line.strip().startswith(("//", "#", "}"))
                or line.rstrip().endswith("\\")):  # a macro's line
            i += 1
            continue
        # The signature may run over several lines (parameters, an initializer list).
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith("{") and ";" not in lines[j] and j - i < 12:
            j += 1
        if j >= len(lines) or not lines[j].rstrip().endswith("{") or "(" not in " ".join(lines[i:j + 1]) or "=" in lines[i].split("(")[0]:
            i += 1
            continue
        close = " " * indent + "}"
        k = j + 1
        while k < len(lines) and not (lines[k].startswith(close) and not lines[k].startswith(close + " ") or lines[k] == close):
            k += 1
        yield line.strip(), i + 1, k - i + 1
        i = k + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-file", type=int, default=600)
    ap.add_argument("--max-function", type=int, default=80)
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    a = ap.parse_args()
    breaches = 0
    files = 0
    for dirpath, _, names in os.walk(os.path.join(a.root, "model")):
        for n in sorted(names):
            if not n.endswith((".cpp", ".hpp", ".cuh", ".h")):
                continue
            path = os.path.join(dirpath, n)
            rel = os.path.relpath(path, a.root)
            lines = open(path, encoding="utf-8").read().split("\n")
            files += 1
            if len(lines) > a.max_file:
                print(f"{rel}: {len(lines)} lines (at most {a.max_file})")
                breaches += 1
            for sig, line, length in functions(lines):
                if length > a.max_function:
                    print(f"{rel}:{line}: a function of {length} lines (at most {a.max_function}): {sig[:90]}")
                    breaches += 1
    print(f"check_code_shape: {files} files, {breaches} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
