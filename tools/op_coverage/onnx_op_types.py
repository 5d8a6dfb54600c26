#!/usr/bin/env python3
"""Lists the op types used by ONNX test models (subgraphs included).

Usage: /usr/bin/python3 onnx_op_types.py [DATA_DIR] > ops.txt
Non-default domains print as "domain:Type".
"""
import glob
import sys

import onnx

root = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/libonnx-testdata/data/node"
ops = set()


def walk(graph):
    for node in graph.node:
        domain = node.domain if node.domain not in ("", "ai.onnx") else ""
        ops.add(f"{domain}:{node.op_type}" if domain else node.op_type)
        for attr in node.attribute:
            if attr.HasField("g"):
                walk(attr.g)
            for g in attr.graphs:
                walk(g)


for path in sorted(glob.glob(f"{root}/*/model.onnx")):
    walk(onnx.load(path).graph)
print("\n".join(sorted(ops)))
