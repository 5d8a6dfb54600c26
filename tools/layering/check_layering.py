#!/usr/bin/env python3
"""Fails when a lower layer depends on a higher one.

The layer of a target is given by the longest matching package prefix in
LAYERS (see README "Layers"). Edges come from `bazel query --output=graph`
(DOT: `"//a:b" -> "//c:d"`, possibly `"//a:b\\n//a:c"` when factored) or from
plain lines `//a:b //c:d`. External labels (`@...`) and packages outside the
table are ignored.

Usage:
  check_layering.py EDGES_FILE      # '-' for stdin
Exit status: 0 clean, 1 violations (each printed), 2 bad usage/input.
"""

import re
import sys

# (package prefix, layer number, layer name). Longest prefix wins.
LAYERS = [
    ("//metadef", 0, "metadef base types"),
    ("//graph", 1, "graph IR"),
    ("//metadef/register", 2, "metadef registries"),
    ("//ops", 3, "operator library"),
    ("//compiler", 4, "compiler"),
    ("//partition", 5, "partition"),
    ("//build", 6, "build"),
    ("//runtime", 7, "runtime"),
    ("//tools", 8, "tools"),
    ("//testing", 9, "testing"),
]

_EDGE_DOT = re.compile(r'^\s*"([^"]+)"\s*->\s*"([^"]+)"')
_EDGE_PLAIN = re.compile(r"^\s*(//\S+)\s+(//\S+)\s*$")


def layer_of(label):
    """Returns (layer, name) for a label, or None when it has no layer."""
    if not label.startswith("//"):
        return None
    package = label.split(":", 1)[0]
    best = None
    for prefix, number, name in LAYERS:
        if package == prefix or package.startswith(prefix + "/"):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, number, name)
    return None if best is None else (best[1], best[2])


def parse_edges(lines):
    edges = []
    for line in lines:
        m = _EDGE_DOT.match(line) or _EDGE_PLAIN.match(line)
        if not m:
            continue
        # Factored graph output joins several labels with "\n".
        for src in m.group(1).split("\\n"):
            for dst in m.group(2).split("\\n"):
                edges.append((src.strip(), dst.strip()))
    return edges


def violations(edges):
    found = []
    for src, dst in edges:
        a, b = layer_of(src), layer_of(dst)
        if a is None or b is None:
            continue
        if b[0] > a[0]:
            found.append(
                f"layering violation: {src} (layer {a[0]}, {a[1]}) depends on "
                f"{dst} (layer {b[0]}, {b[1]})")
    return sorted(set(found))


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        stream = sys.stdin if argv[1] == "-" else open(argv[1], encoding="utf-8")
    except OSError as e:
        print(f"check_layering: cannot read {argv[1]}: {e}", file=sys.stderr)
        return 2
    with stream:
        edges = parse_edges(stream)
    bad = violations(edges)
    for line in bad:
        print(line)
    if bad:
        print(f"check_layering: {len(bad)} upward dependencies", file=sys.stderr)
        return 1
    print(f"check_layering: OK ({len(edges)} edges checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
