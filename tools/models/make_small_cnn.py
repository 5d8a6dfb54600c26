#!/usr/bin/env python3
"""Writes tools/models/small_cnn.onnx: a small CNN for the README main job.

input "input" float[1,3,32,32]
  Conv(3->8, 3x3, pad 1) - Relu - MaxPool(2x2, stride 2)
  Conv(8->16, 3x3, pad 1) - Relu - GlobalAveragePool - Flatten
  Gemm(16->10, transB=1) - Softmax(axis=1)
output "probs" float[1,10]

Weights come from a fixed NumPy seed, so the files are byte-identical on
every run (opset 17, IR version 8). Next to the model it writes test data
computed by a plain NumPy forward pass (an oracle independent of our
compiler): small_cnn_input.npy, small_cnn_input.pb (the same values as an
ONNX TensorProto) and small_cnn_output.pb (the expected "probs"); and
unknown_ops.onnx, a model with two op types nobody implements (FooOp, BarOp)
for the tools' failure tests.
Usage:
  python3 tools/models/make_small_cnn.py [output_dir]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SEED = 20260601


def make_model():
    rng = np.random.RandomState(SEED)

    def weight(name, shape, fan_in):
        data = rng.standard_normal(shape).astype(np.float32) * np.float32(np.sqrt(2.0 / fan_in))
        return numpy_helper.from_array(data, name)

    inits = [
        weight("conv1_w", (8, 3, 3, 3), 27),
        numpy_helper.from_array(rng.uniform(-0.1, 0.1, 8).astype(np.float32), "conv1_b"),
        weight("conv2_w", (16, 8, 3, 3), 72),
        numpy_helper.from_array(rng.uniform(-0.1, 0.1, 16).astype(np.float32), "conv2_b"),
        weight("fc_w", (10, 16), 16),
        numpy_helper.from_array(rng.uniform(-0.1, 0.1, 10).astype(np.float32), "fc_b"),
    ]
    nodes = [
        helper.make_node("Conv", ["input", "conv1_w", "conv1_b"], ["c1"], name="conv1",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("Conv", ["p1", "conv2_w", "conv2_b"], ["c2"], name="conv2",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten", axis=1),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", transB=1),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=1),
    ]
    graph = helper.make_graph(
        nodes, "small_cnn",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 10])],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="ge-tools-make_small_cnn")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def make_unknown_ops_model():
    """x -> Relu -> FooOp -> BarOp -> y: two unsupported ops (no checker)."""
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="relu"),
        helper.make_node("FooOp", ["a"], ["b"], name="foo"),
        helper.make_node("BarOp", ["b"], ["y"], name="bar"),
    ]
    graph = helper.make_graph(
        nodes, "unknown_ops",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="ge-tools-make_small_cnn")
    model.ir_version = 8
    return model


def conv2d(x, w, b):
    """NCHW 3x3 convolution, stride 1, pad 1."""
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd), dtype=np.float64)
    for i in range(3):
        for j in range(3):
            patch = xp[:, :, i:i + h, j:j + wd]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return out + b.reshape(1, -1, 1, 1)


def forward(model, x):
    w = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in model.graph.initializer}
    y = np.maximum(conv2d(x.astype(np.float64), w["conv1_w"], w["conv1_b"]), 0)
    n, c, h, wd = y.shape
    y = y.reshape(n, c, h // 2, 2, wd // 2, 2).max(axis=(3, 5))
    y = np.maximum(conv2d(y, w["conv2_w"], w["conv2_b"]), 0)
    y = y.mean(axis=(2, 3))
    y = y @ w["fc_w"].T + w["fc_b"]
    y = np.exp(y - y.max(axis=1, keepdims=True))
    return (y / y.sum(axis=1, keepdims=True)).astype(np.float32)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    model = make_model()
    path = os.path.join(out_dir, "small_cnn.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    print("wrote %s (%d bytes)" % (path, os.path.getsize(path)))
    x = np.random.RandomState(SEED + 1).uniform(-1, 1, (1, 3, 32, 32)).astype(np.float32)
    np.save(os.path.join(out_dir, "small_cnn_input.npy"), x)
    with open(os.path.join(out_dir, "small_cnn_input.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "input").SerializeToString())
    with open(os.path.join(out_dir, "small_cnn_output.pb"), "wb") as f:
        f.write(numpy_helper.from_array(forward(model, x), "probs").SerializeToString())
    with open(os.path.join(out_dir, "unknown_ops.onnx"), "wb") as f:
        f.write(make_unknown_ops_model().SerializeToString())
    print("wrote test data to %s" % out_dir)


if __name__ == "__main__":
    main()
