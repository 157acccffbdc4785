#!/usr/bin/env python3
"""Plants what function_lengths.py must measure and catch, in a temporary source file: a
function of 101 lines among namespaces (reported at 101 and failing --max-100 0), braces inside
strings, characters, raw strings and comments (not counted as scopes), a lambda and a local
struct (counted with the function that holds them), a class body and an initialiser (not
functions), and an out-of-class member definition (counted).

Usage: function_lengths_test.py"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "function_lengths.py")

SOURCE = '''#include "x.h"

namespace outer {
namespace {

constexpr int kTable[] = {1, 2, 3};

struct Holder {
  int value() const { return 1; }
};

}  // namespace

int long_function(int x) {
  const char* text = "{ not a scope";
  const char brace = '}';
  const char* raw = R"raw(} } {)raw";
  /* { */ // }
  auto lambda = [](int y) {
    return y + 1;
  };
  struct Local {
    int z;
  };
''' + "  x = lambda(x);\n" * 88 + '''  return x;
}

int Holder2::member(int x) {
  return x;
}

}  // namespace outer
'''


def run(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "planted.cc")
        with open(path, "w", encoding="utf-8") as f:
            f.write(SOURCE)
        listed = run("--list", "0", path)
        lines = listed.stdout.splitlines()
        if not any(line.split()[0] == "101" and line.endswith("long_function") for line in lines):
            failures.append(f"long_function not measured at 101 lines:\n{listed.stdout}")
        if not any(line.endswith("Holder2::member") and line.split()[0] == "3" for line in lines):
            failures.append(f"the out-of-class member not measured at 3 lines:\n{listed.stdout}")
        if "functions 2," not in listed.stdout:
            failures.append(f"expected exactly 2 functions:\n{listed.stdout}")
        strict = run("--max-100", "0", path)
        if strict.returncode != 1 or "1 functions over 100 lines" not in strict.stderr:
            failures.append(f"--max-100 0 did not fail: exit {strict.returncode}\n{strict.stderr}")
        loose = run("--max-100", "1", "--max-60", "1", path)
        if loose.returncode != 0:
            failures.append(f"limits that hold failed: exit {loose.returncode}\n{loose.stderr}")
    for failure in failures:
        print("FAIL " + failure, file=sys.stderr)
    print("function_lengths: " + ("failed" if failures else "measures and catches the planted function"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
