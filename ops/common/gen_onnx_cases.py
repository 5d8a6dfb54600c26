#!/usr/bin/python3
"""Converts ONNX node test cases into the text format read by onnx_case_runner.

Usage (from the workspace root):
  /usr/bin/python3 ops/common/gen_onnx_cases.py --ops Abs,Add,... \
      --out ops/elementwise/testdata/onnx_cases.txt

Reads /usr/share/libonnx-testdata/data/node/test_*/ (ONNX 1.12, opset <= 17):
every test whose model is a single node of one of the given op types (the
"_expanded" function-body variants are skipped). Output format, one record
per test data set:

  case <test name>[/<data set index>]
  op <OpType>
  attr <name> i <int> | f <float> | s <hex bytes, "x" prefix> | dt <DT_NAME>
       | ints <n> <int>... | floats <n> <float>...
  in <DT_NAME> <rank> <dims>... | <values>...      (or: in absent)
  out <DT_NAME> <rank> <dims>... | <values>...
  end

Values: integers in decimal, bool 0/1, floats as exact decimal ("%.9g" for
32-bit and narrower, "%.17g" for double; nan / inf / -inf), FLOAT16 / BF16
as their float values, strings as "x" + hex of the UTF-8 bytes.
The Cast "to" attribute (an ONNX TensorProto data type) is written as dt.
"""
import argparse
import glob
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

DATA_DIR = "/usr/share/libonnx-testdata/data/node"

ONNX_TO_GE = {
    1: "DT_FLOAT", 2: "DT_UINT8", 3: "DT_INT8", 4: "DT_UINT16", 5: "DT_INT16",
    6: "DT_INT32", 7: "DT_INT64", 8: "DT_STRING", 9: "DT_BOOL", 10: "DT_FLOAT16",
    11: "DT_DOUBLE", 12: "DT_UINT32", 13: "DT_UINT64", 14: "DT_COMPLEX64",
    15: "DT_COMPLEX128", 16: "DT_BF16",
}
# Attributes holding an ONNX data type.
DTYPE_ATTRS = {("Cast", "to")}


def fmt_float(v, double):
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return ("%.17g" if double else "%.9g") % float(v)


def bf16_to_float(raw_uint16):
    return (raw_uint16.astype(np.uint32) << 16).view(np.float32)


def tensor_line(kind, t, declared_type=None):
    # ONNX 1.12 stores some BFLOAT16 test tensors as UINT16 bits while the
    # model declares BFLOAT16: trust the model.
    if declared_type == 16 and t.data_type == 4:
        fixed = onnx.TensorProto()
        fixed.CopyFrom(t)
        bits = numpy_helper.to_array(t).astype(np.uint16)
        fixed.ClearField("int32_data")
        fixed.ClearField("raw_data")
        fixed.data_type = 16
        fixed.raw_data = bits.tobytes()
        t = fixed
    ge_type = ONNX_TO_GE.get(t.data_type)
    if ge_type is None:
        raise ValueError("unsupported tensor type %d" % t.data_type)
    if t.data_type == 16:  # bfloat16: numpy_helper gives uint16 bits in old onnx
        if t.raw_data:
            arr = np.frombuffer(t.raw_data, dtype=np.uint16).reshape(tuple(t.dims))
        else:
            arr = np.array(t.int32_data, dtype=np.uint16).reshape(tuple(t.dims))
        arr = bf16_to_float(arr)
        vals = [fmt_float(v, False) for v in arr.flatten()]
    else:
        arr = numpy_helper.to_array(t)
        if t.data_type == 8:
            vals = ["x" + (v if isinstance(v, bytes) else str(v).encode("utf-8")).hex()
                    for v in arr.flatten()]
        elif t.data_type == 9:
            vals = ["1" if v else "0" for v in arr.flatten()]
        elif t.data_type in (1, 10):
            vals = [fmt_float(v, False) for v in arr.flatten()]
        elif t.data_type == 11:
            vals = [fmt_float(v, True) for v in arr.flatten()]
        else:
            vals = [str(int(v)) for v in arr.flatten()]
    dims = [str(d) for d in t.dims]
    return "%s %s %d %s| %s" % (kind, ge_type, len(dims), " ".join(dims) + (" " if dims else ""),
                                " ".join(vals))


def attr_line(op, a):
    if (op, a.name) in DTYPE_ATTRS:
        return "attr %s dt %s" % (a.name, ONNX_TO_GE[a.i])
    if a.type == onnx.AttributeProto.INT:
        return "attr %s i %d" % (a.name, a.i)
    if a.type == onnx.AttributeProto.FLOAT:
        return "attr %s f %s" % (a.name, fmt_float(np.float32(a.f), False))
    if a.type == onnx.AttributeProto.STRING:
        return "attr %s s x%s" % (a.name, a.s.hex())
    if a.type == onnx.AttributeProto.INTS:
        return "attr %s ints %d %s" % (a.name, len(a.ints), " ".join(str(i) for i in a.ints))
    if a.type == onnx.AttributeProto.FLOATS:
        return "attr %s floats %d %s" % (a.name, len(a.floats),
                                         " ".join(fmt_float(np.float32(f), False) for f in a.floats))
    raise ValueError("unsupported attribute %s type %d" % (a.name, a.type))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ops", required=True, help="comma separated op types")
    p.add_argument("--out", required=True)
    p.add_argument("--skip", default="", help="comma separated test names to skip")
    args = p.parse_args()
    ops = set(args.ops.split(","))
    skip = set(s for s in args.skip.split(",") if s)
    lines = []
    count = 0
    for d in sorted(os.listdir(DATA_DIR)):
        if d in skip or d.endswith("_expanded"):
            continue
        m = onnx.load(os.path.join(DATA_DIR, d, "model.onnx"))
        if len(m.graph.node) != 1 or m.graph.node[0].op_type not in ops:
            continue
        node = m.graph.node[0]
        declared = {}
        for vi in list(m.graph.input) + list(m.graph.output):
            declared[vi.name] = vi.type.tensor_type.elem_type
        try:
            attrs = [attr_line(node.op_type, a) for a in node.attribute]
        except ValueError as e:
            print("skipping %s: %s" % (d, e), file=sys.stderr)
            continue
        for ds in sorted(glob.glob(os.path.join(DATA_DIR, d, "test_data_set_*"))):
            idx = ds.rsplit("_", 1)[1]
            ins, outs = [], []
            ok = True
            for i, name in enumerate(node.input):
                if name == "":
                    ins.append("in absent")
                    continue
                t = onnx.TensorProto()
                with open(os.path.join(ds, "input_%d.pb" % len([x for x in ins if x != "in absent"])), "rb") as f:
                    t.ParseFromString(f.read())
                try:
                    ins.append(tensor_line("in", t, declared.get(name)))
                except ValueError as e:
                    print("skipping %s: %s" % (d, e), file=sys.stderr)
                    ok = False
            for i in range(len(node.output)):
                t = onnx.TensorProto()
                with open(os.path.join(ds, "output_%d.pb" % i), "rb") as f:
                    t.ParseFromString(f.read())
                try:
                    outs.append(tensor_line("out", t, declared.get(node.output[i])))
                except ValueError as e:
                    print("skipping %s: %s" % (d, e), file=sys.stderr)
                    ok = False
            if not ok:
                continue
            name = d if idx == "0" else "%s/%s" % (d, idx)
            lines.append("case " + name)
            lines.append("op " + node.op_type)
            lines.extend(attrs)
            lines.extend(ins)
            lines.extend(outs)
            lines.append("end")
            count += 1
    with open(args.out, "w") as f:
        f.write("# Generated by ops/common/gen_onnx_cases.py from the ONNX 1.12 node tests.\n")
        f.write("# ops: %s\n" % ",".join(sorted(ops)))
        f.write("\n".join(lines) + "\n")
    print("%d cases -> %s" % (count, args.out))


if __name__ == "__main__":
    main()
