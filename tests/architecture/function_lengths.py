#!/usr/bin/env python3
"""Lengths of the functions in C++ sources: every function defined at namespace scope (free
functions and out-of-class member definitions), from the line of its signature to its closing
brace, lambdas and local classes counted with the function that holds them.

Prints the functions over --list lines (default 60), longest first, and the counts over 60 and
over 100. With --max-100 N / --max-60 N, exits 1 when more functions than N exceed 100 / 60
lines (a limit the house keeps; ctest function_lengths_hold).

A light lexer, not a parser: comments, strings, character and raw string literals are skipped;
a brace opened at namespace scope after a ')' (and not after 'class', 'struct', 'enum', 'union',
'namespace' or an '=') starts a function body. Written for this repository's clang-format style.

Usage: function_lengths.py [--list N] [--max-100 N] [--max-60 N] PATH...
"""
import argparse
import os
import re
import sys

SUFFIXES = (".cc", ".cpp", ".h", ".hpp")
NOT_A_FUNCTION = re.compile(r"\b(class|struct|enum|union|namespace)\b")
NAME = re.compile(r"([A-Za-z_][A-Za-z_0-9:~<>,\s]*?)\s*\(")


def code_characters(text):
    """(index, character, line) of the text outside comments and literals."""
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        if c == "#" and text[text.rfind("\n", 0, i) + 1:i].strip() == "":
            end = i  # a preprocessor line, with its continuations
            while True:
                end = text.find("\n", end)
                if end < 0 or text[end - 1] != "\\":
                    break
                end += 1
            end = n if end < 0 else end
            line += text.count("\n", i, end)
            i = end
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
            continue
        raw = re.match(r'R"([^(\s]*)\(', text[i:i + 20]) if c == "R" else None
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            closing = ")" + raw.group(1) + '"'
            end = text.find(closing, i + raw.end())
            end = n if end < 0 else end + len(closing)
            line += text.count("\n", i, end)
            i = end
            continue
        if c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        yield i, c, line
        i += 1


def functions(path):
    """(name, first line, last line) of each function defined at namespace scope in the file."""
    text = open(path, encoding="utf-8", errors="replace").read()
    found = []
    scopes = []  # for each open brace: "namespace", "type", "function" or "block"
    header = []  # code since the last ';', '{' or '}' at namespace scope
    header_line = None
    start = None
    for _, c, line in code_characters(text):
        in_namespace_scope = all(s == "namespace" for s in scopes)
        if c == "{":
            if in_namespace_scope:
                signature = "".join(header).strip()
                if re.match(r"(inline\s+)?namespace\b", signature) or signature.startswith(
                        'extern "C"'):
                    scopes.append("namespace")
                elif (")" in signature and not NOT_A_FUNCTION.match(signature)
                      and "=" not in signature.split("(", 1)[0]):
                    scopes.append("function")
                    name = NAME.search(signature)
                    start = (name.group(1).split()[-1] if name else "?", header_line or line)
                else:
                    scopes.append("type")
                header, header_line = [], None
            else:
                scopes.append("block")
            continue
        if c == "}":
            if scopes:
                kind = scopes.pop()
                if kind == "function" and start is not None:
                    found.append((start[0], start[1], line))
                    start = None
            header, header_line = [], None
            continue
        if in_namespace_scope:
            if c == ";":
                header, header_line = [], None
            else:
                if header_line is None and not c.isspace():
                    header_line = line
                header.append(c)
    return found


def source_files(paths):
    for top in paths:
        if os.path.isfile(top):
            yield top
            continue
        for directory, _, names in os.walk(top):
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    yield os.path.join(directory, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--list", type=int, default=60)
    parser.add_argument("--max-100", type=int)
    parser.add_argument("--max-60", type=int)
    args = parser.parse_args()
    lengths = []
    for path in source_files(args.paths):
        for name, first, last in functions(path):
            lengths.append((last - first + 1, path, first, name))
    lengths.sort(key=lambda x: (-x[0], x[1], x[2]))
    for length, path, first, name in lengths:
        if length > args.list:
            print(f"{length:5}  {path}:{first}  {name}")
    over_100 = sum(1 for x in lengths if x[0] > 100)
    over_60 = sum(1 for x in lengths if x[0] > 60)
    print(f"functions {len(lengths)}, over 60 lines {over_60}, over 100 lines {over_100}")
    failed = False
    if args.max_100 is not None and over_100 > args.max_100:
        print(f"FAIL: {over_100} functions over 100 lines (at most {args.max_100})",
              file=sys.stderr)
        failed = True
    if args.max_60 is not None and over_60 > args.max_60:
        print(f"FAIL: {over_60} functions over 60 lines (at most {args.max_60})", file=sys.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
