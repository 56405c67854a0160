#!/usr/bin/env python3
"""Functions longer than a limit (100 lines) in Sources/.

Reads every Swift file under Sources/ (comments and string literals left out,
so braces in them do not count), finds each `func`, `init`, `deinit`,
`subscript` and computed `var` with a body, and measures it from its
declaration's line to its closing brace. A body of nested functions counts
whole: split it into functions of its own type instead.

`make lint` runs it (`--max 100`): a function over the limit fails it, named
with its file, line and length. --list prints the longest ones, whatever
their length. --allow FILE:NAME lets one function be longer for now (printed
as allowed; an allowance that matches nothing is printed so that it goes).

Usage: function_length.py [--max N] [--list K] [--allow FILE:NAME ...] [paths...]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from swift_source import code_only  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DECLARATION = re.compile(
    r"\b(func\s+[^\s(<]+|init[?!]?|deinit|subscript)\s*(<[^>{]*>)?\s*(\([^{]*?\))?[^{};=]*?(\{)", re.S)
# A computed property: `var name: Type {` on one line.
COMPUTED = re.compile(r"\b(var\s+\w+)\s*:[^={}\n]*(\{)")


def functions(path):
    """(name, first line, length in lines) of each function with a body in `path`."""
    with open(path, encoding="utf-8") as f:
        code = code_only(f.read())
    found = []
    matches = [(m, m.start(4)) for m in DECLARATION.finditer(code)]
    matches += [(m, m.start(2)) for m in COMPUTED.finditer(code)]
    for m, open_brace in matches:
        depth, j = 0, open_brace
        while j < len(code):
            if code[j] == "{":
                depth += 1
            elif code[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, j) + 1
        name = re.sub(r"\s+", " ", m.group(1)).strip()
        found.append((name, first, last - first + 1))
    return found


def swift_files(paths, excluded):
    for top in paths:
        for folder, dirs, files in os.walk(top):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, ROOT)
                if name.endswith(".swift") and not any(rel.startswith(e) for e in excluded):
                    yield path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=[os.path.join(ROOT, "Sources")])
    parser.add_argument("--max", type=int, default=100, help="the longest a function may be, in lines")
    parser.add_argument("--list", type=int, default=0, help="print the K longest functions")
    parser.add_argument("--exclude", nargs="*", default=[], help="paths (relative to the root) left out")
    parser.add_argument("--allow", action="append", default=[], help="FILE:NAME, a function allowed to be longer")
    options = parser.parse_args()
    every = []
    for path in swift_files(options.paths, options.exclude):
        rel = os.path.relpath(path, ROOT)
        every += [(length, rel, line, name) for name, line, length in functions(path)]
    every.sort(reverse=True)
    for length, rel, line, name in every[:options.list]:
        print(f"{length:5d}  {rel}:{line}  {name}")
    long = [f for f in every if f[0] > options.max]
    allowed = [f for f in long if f"{f[1]}:{f[3].split()[-1]}" in options.allow]
    long = [f for f in long if f not in allowed]
    for length, rel, line, name in allowed:
        print(f"{rel}:{line}: allowed for now: {name} is {length} lines long (--allow)")
    used = {f"{f[1]}:{f[3].split()[-1]}" for f in allowed}
    for entry in options.allow:
        if entry not in used:
            print(f"function_length: note: --allow {entry} matches no function over {options.max} lines: remove it")
    for length, rel, line, name in long:
        print(f"{rel}:{line}: error: {name} is {length} lines long (at most {options.max}): split it",
              file=sys.stderr)
    if long:
        print(f"function_length: {len(long)} functions over {options.max} lines", file=sys.stderr)
        return 1
    print(f"function_length: {len(every)} functions, none over {options.max} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
