#!/usr/bin/env python3
"""List C and C++ functions longer than N lines.

How to use:
    python3 scripts/function-lengths.py            # functions over 80 lines
    python3 scripts/function-lengths.py -n 120     # over 120 lines
    python3 scripts/function-lengths.py --files 600  # also files over 600 lines
    python3 scripts/function-lengths.py rules vision # only these folders

A function's length counts from the line of its opening brace to the line of
its closing brace, both included (the header above the brace is not counted);
the line shown is the one holding the function's name.  The parser
is a plain brace matcher over the text with comments, string and character
literals and preprocessor lines blanked out, so it needs no compiler and no
include paths; it reads .c and .cpp files outside tests/ and build*/.  Scopes
that are not functions (namespace, extern "C", class and struct bodies) are
walked into; initialisers (`= {...}`) are skipped.

Exit status: 0 always (a listing, not a verdict).
"""

import argparse
import os
import re
import sys

SOURCE_ENDINGS = (".c", ".cpp", ".cc")
SKIPPED_DIRS = ("tests", ".git")


def blank_out(text):
    """Replace comments, literals and preprocessor lines by spaces, keeping
    every newline so that line numbers stay right."""
    out = []
    i = 0
    n = len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            # A preprocessor line, with its backslash continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            at_line_start = True
            out.append(c)
            i += 1
            continue
        if c in " \t":
            out.append(c)
            i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else " ")
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def matching_brace(code, open_at):
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


FUNCTION_HEADER = re.compile(
    r"([A-Za-z_~][\w:~]*)\s*\([^;{}]*\)\s*"
    r"(const|noexcept|override|final|\s|->\s*[\w:<>*& ]+)*"
    r"(:\s*[^;{}]*)?$",
    re.S,
)
NOT_FUNCTIONS = {"if", "for", "while", "switch", "return", "sizeof", "catch"}


def functions_in(code):
    """Yield (name, name_line, open_line, close_line) for every function body."""
    line_of = []
    line = 1
    for ch in code:
        line_of.append(line)
        if ch == "\n":
            line += 1
    header_start = 0
    i = 0
    n = len(code)
    while i < n:
        c = code[i]
        if c in ";}":
            header_start = i + 1
        elif c == "{":
            header = code[header_start:i]
            stripped = header.strip()
            match = FUNCTION_HEADER.search(stripped)
            if stripped.endswith("=") or re.search(r"=\s*$", stripped):
                i = matching_brace(code, i)
                header_start = i + 1
            elif match and match.group(1) not in NOT_FUNCTIONS:
                name = match.group(1)
                name_at = header_start + header.find(stripped) + match.start(1)
                close = matching_brace(code, i)
                yield name, line_of[name_at], line_of[i], line_of[close]
                i = close
                header_start = i + 1
            else:
                # namespace, extern "C", class or struct: walk into it.
                header_start = i + 1
        i += 1


def source_files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(
                d for d in dirs
                if d not in SKIPPED_DIRS and not d.startswith("build")
            )
            for name in sorted(files):
                if name.endswith(SOURCE_ENDINGS):
                    yield os.path.normpath(os.path.join(folder, name))


def main():
    parser = argparse.ArgumentParser(
        description="List C/C++ functions over N lines (tests/ and build*/ left out).")
    parser.add_argument("roots", nargs="*", default=["."],
                        help="folders or files to read (default: this folder)")
    parser.add_argument("-n", "--lines", type=int, default=80,
                        help="list functions longer than this (default 80)")
    parser.add_argument("--files", type=int, metavar="N",
                        help="also list files longer than N lines")
    args = parser.parse_args()

    long_functions = []
    long_files = []
    for path in source_files(args.roots):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if args.files is not None:
            file_lines = text.count("\n")
            if file_lines > args.files:
                long_files.append((file_lines, path))
        for name, name_line, first, last in functions_in(blank_out(text)):
            length = last - first + 1
            if length > args.lines:
                long_functions.append((length, path, name_line, name))

    long_functions.sort(key=lambda row: (-row[0], row[1], row[2]))
    for length, path, first, name in long_functions:
        print(f"{length:5d}  {path}:{first}  {name}")
    print(f"{len(long_functions)} functions over {args.lines} lines")
    if args.files is not None:
        for file_lines, path in sorted(long_files, reverse=True):
            print(f"{file_lines:5d}  {path}")
        print(f"{len(long_files)} files over {args.files} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
