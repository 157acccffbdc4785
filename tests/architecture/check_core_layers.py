#!/usr/bin/env python3
"""Checks that the core's folders form the layers runner/docs/architecture.md states.

The table under "## The rule: the core's folders are layers" gives each folder of
runner/src/core/ a layer number (1 = bottom). A file may include headers of its own folder and of
lower layers. A public header mlregress/X.h counts as the folder whose X.cc implements it, so
calling a public name implemented higher up is an upward arrow as an include is. Fails (exit 1),
naming file and line, on:
  - an #include of a folder in a higher layer, or of another folder in the same layer (or of a
    public header implemented there);
  - a folder-to-folder loop (reported as well, for the reader who wonders why);
  - a core folder the table does not name, or a table row naming a folder that does not exist;
  - a public header (runner/include/mlregress/) or a file of the LibTorch layer (src/torch/)
    including a core header: they see the core only through the public headers.
Exit 2 when the table cannot be read.

Usage: check_core_layers.py RUNNER_DIR [ARCHITECTURE_MD]
"""
import os
import re
import sys

RULE_HEADING = "## The rule: the core's folders are layers"
ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*`([a-z_]+)/`\s*\|")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_SUFFIXES = (".h", ".hpp", ".cc", ".cpp", ".cu")


def read_layers(doc_path):
    """{folder: layer} from the rule's table, with the line each row is on."""
    try:
        lines = open(doc_path, encoding="utf-8").read().splitlines()
    except OSError as e:
        sys.exit(f"{doc_path}: cannot read: {e.strerror}")
    try:
        start = lines.index(RULE_HEADING)
    except ValueError:
        print(f"{doc_path}: expected a section '{RULE_HEADING}' with the layer table",
              file=sys.stderr)
        sys.exit(2)
    layers, rows = {}, {}
    for number, line in enumerate(lines[start + 1:], start + 2):
        if line.startswith("## "):
            break
        m = ROW.match(line)
        if m:
            if m.group(2) in layers:
                print(f"{doc_path}:{number}: folder {m.group(2)}/ is listed twice", file=sys.stderr)
                sys.exit(2)
            layers[m.group(2)] = int(m.group(1))
            rows[m.group(2)] = number
    if not layers:
        print(f"{doc_path}:{start + 1}: expected rows '| <layer> | `<folder>/` | ... |' under "
              "the rule's heading", file=sys.stderr)
        sys.exit(2)
    return layers, rows


def source_files(folder):
    for directory, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(directory, name)


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def public_implementations(core, folders):
    """{"mlregress/X.h": folder} for each public header whose X.cc lies in a core folder."""
    found = {}
    for folder in folders:
        for path in source_files(os.path.join(core, folder)):
            stem, suffix = os.path.splitext(os.path.basename(path))
            if suffix in (".cc", ".cpp"):
                found.setdefault(f"mlregress/{stem}.h", folder)
    public = os.path.join(os.path.dirname(os.path.dirname(core)), "include", "mlregress")
    return {name: folder for name, folder in found.items()
            if os.path.isfile(os.path.join(public, name.split("/", 1)[1]))}


def knots(edges, nodes):
    """Strongly connected components of more than one folder (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    runner = sys.argv[1]
    doc = sys.argv[2] if len(sys.argv) == 3 else os.path.join(runner, "docs", "architecture.md")
    core = os.path.join(runner, "src", "core")
    layers, rows = read_layers(doc)
    folders = sorted(d for d in os.listdir(core) if os.path.isdir(os.path.join(core, d)))
    problems = []
    for folder in folders:
        if folder not in layers:
            problems.append(f"{os.path.join(core, folder)}/: a core folder the layer table of "
                            f"{doc} does not name: give it a layer")
    for folder in sorted(set(layers) - set(folders)):
        problems.append(f"{doc}:{rows[folder]}: names {folder}/, which runner/src/core/ "
                        "does not have")

    implemented_in = public_implementations(core, folders)
    edges = {}
    upward = 0
    for folder in folders:
        for path in source_files(os.path.join(core, folder)):
            for number, name in includes(path):
                target = implemented_in.get(name, name.split("/", 1)[0])
                if "/" not in name or target == folder or target not in folders:
                    continue
                if name in implemented_in:
                    name = f"{name} (implemented in {target}/)"
                edges.setdefault(folder, set()).add(target)
                if folder not in layers or target not in layers:
                    continue
                if layers[target] > layers[folder]:
                    upward += 1
                    problems.append(
                        f"{path}:{number}: includes {name}: {target}/ (layer {layers[target]}) "
                        f"is above {folder}/ (layer {layers[folder]})")
                elif layers[target] == layers[folder]:
                    upward += 1
                    problems.append(
                        f"{path}:{number}: includes {name}: {target}/ shares layer "
                        f"{layers[folder]} with {folder}/; folders of one layer include neither")
    loops = knots(edges, folders)
    for loop in loops:
        problems.append("folders that include each other around a loop: " + " ".join(loop))

    for outside in (os.path.join(runner, "include"), os.path.join(runner, "src", "torch")):
        if not os.path.isdir(outside):
            continue
        for path in source_files(outside):
            for number, name in includes(path):
                if name.split("/", 1)[0] in folders:
                    problems.append(f"{path}:{number}: includes the core's {name}: outside "
                                    "runner/src/core only the public headers (mlregress/...) "
                                    "may be included")

    pairs = sum(len(v) for v in edges.values())
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"core folders {len(folders)}, folder-to-folder include pairs {pairs}, "
          f"upward includes {upward}, loops {len(loops)}, problems {len(problems)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
