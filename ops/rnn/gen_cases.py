#!/usr/bin/python3
"""Test cases for the rnn, loss, signal, text, detection and training families.

Usage (from the workspace root):
  /usr/bin/python3 ops/rnn/gen_cases.py --family rnn \
      --out ops/rnn/testdata/onnx_cases.txt

Writes the text format of ops/common/gen_onnx_cases.py (read by
ops/common/onnx_case_runner) with one extension: string-list attributes as
  attr <name> strs <n> <x + hex of the UTF-8 bytes>...
which ops/rnn/case_loader.h strips before the common parser and adds back.

Sources:
  * the ONNX 1.12 node tests in /usr/share/libonnx-testdata/data/node for the
    family's op types (single-node models, "_expanded" variants skipped);
  * rnn: outputs the ONNX tests leave unconnected ("" names, e.g. Y) are
    computed by the numpy reference below, which is first checked against
    every output the test does provide; extra cases cover what the ONNX data
    does not (reverse / bidirectional, sequence_lens, initial states, clip,
    activations with alpha / beta, layout 1, linear_before_reset,
    input_forget, peepholes), all from the same reference.
"""
import argparse
import glob
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import gen_onnx_cases as common  # noqa: E402

DATA_DIR = common.DATA_DIR

FAMILY_OPS = {
    "rnn": {"RNN", "GRU", "LSTM"},
    "loss": {"NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"},
    "signal": {"DFT", "STFT", "BlackmanWindow", "HammingWindow", "HannWindow",
               "MelWeightMatrix"},
    "text": {"StringNormalizer", "TfIdfVectorizer"},
    "detection": {"NonMaxSuppression"},
    "training": {"Adagrad", "Adam", "Momentum"},
}

# ONNX tests whose expected values come from a formula with pi = 3.1415 (not
# math.pi): checked by hand in the C++ tests instead.
SKIP = {
    "test_blackmanwindow", "test_blackmanwindow_symmetric", "test_hammingwindow",
    "test_hammingwindow_symmetric", "test_hannwindow", "test_hannwindow_symmetric",
}


# Attributes added to ONNX tests whose node lacks an attribute its expected
# values were computed with: test_adam_multiple's reference uses epsilon 1e-2
# but the node keeps the default 1e-6 (a bug in the ONNX 1.12 test).
EXTRA_ATTRS = {
    "test_adam_multiple": [onnx.helper.make_attribute("epsilon", 0.01)],
}

# Cases with more tensor text than this are left out (the 5-D loss tests are
# ~0.5 MB each; the C++ tests cover high ranks with small shapes).
MAX_CASE_BYTES = 100000


def attr_line(op, a):
    if a.type == onnx.AttributeProto.STRINGS:
        return "attr %s strs %d %s" % (a.name, len(a.strings),
                                       " ".join("x" + s.hex() for s in a.strings))
    return common.attr_line(op, a)


def tensor(kind, arr):
    return common.tensor_line(kind, numpy_helper.from_array(np.asarray(arr)))


def record(lines, name, op, attrs, ins, outs):
    """attrs: list of "attr ..." lines; ins / outs: lines or None (absent)."""
    lines.append("case " + name)
    lines.append("op " + op)
    lines.extend(attrs)
    lines.extend(i if i is not None else "in absent" for i in ins)
    lines.extend(outs)
    lines.append("end")


# ---------------------------------------------------------------- rnn reference

ACT_DEFAULTS = {  # name: (uses alpha, uses beta, default alpha, default beta)
    "relu": (False, False, 0, 0), "tanh": (False, False, 0, 0),
    "sigmoid": (False, False, 0, 0), "affine": (True, True, 1.0, 0.0),
    "leakyrelu": (True, False, 0.01, 0), "thresholdedrelu": (True, False, 1.0, 0),
    "scaledtanh": (True, True, 1.0, 1.0), "hardsigmoid": (True, True, 0.2, 0.5),
    "elu": (True, False, 1.0, 0), "softsign": (False, False, 0, 0),
    "softplus": (False, False, 0, 0),
}


def make_act(name, alpha, beta):
    n = name.lower()
    if n == "relu":
        return lambda x: np.maximum(x, 0)
    if n == "tanh":
        return np.tanh
    if n == "sigmoid":
        return lambda x: 1 / (1 + np.exp(-x))
    if n == "affine":
        return lambda x: alpha * x + beta
    if n == "leakyrelu":
        return lambda x: np.where(x >= 0, x, alpha * x)
    if n == "thresholdedrelu":
        return lambda x: np.where(x > alpha, x, 0)
    if n == "scaledtanh":
        return lambda x: alpha * np.tanh(beta * x)
    if n == "hardsigmoid":
        return lambda x: np.clip(alpha * x + beta, 0, 1)
    if n == "elu":
        return lambda x: np.where(x >= 0, x, alpha * (np.exp(x) - 1))
    if n == "softsign":
        return lambda x: x / (1 + np.abs(x))
    if n == "softplus":
        return lambda x: np.log1p(np.exp(x))
    raise ValueError(name)


def rnn_reference(op, inputs, attrs):
    """inputs: list of arrays or None (ONNX order); attrs: dict. Returns
    (Y, Y_h[, Y_c]) as float64 arrays."""
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
    nact = {"RNN": 1, "GRU": 2, "LSTM": 3}[op]
    inputs = list(inputs) + [None] * (8 - len(inputs))
    X, W, R, B, seq_lens, h0, c0, P = [None if v is None else np.asarray(v) for v in inputs]
    X, W, R = X.astype(np.float64), W.astype(np.float64), R.astype(np.float64)
    layout = attrs.get("layout", 0)
    direction = attrs.get("direction", "forward")
    dirs = 2 if direction == "bidirectional" else 1
    H = R.shape[2]
    if layout == 1:
        X = X.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    S, Bn, _ = X.shape
    clip = attrs.get("clip")
    cl = (lambda v: np.clip(v, -clip, clip)) if clip is not None else (lambda v: v)
    names = attrs.get("activations") or {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
                                         "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[op]
    alphas = list(attrs.get("activation_alpha", []))
    betas = list(attrs.get("activation_beta", []))
    acts = []
    for n in names:
        ua, ub, da, db = ACT_DEFAULTS[n.lower()]
        a = alphas.pop(0) if ua and alphas else da
        b = betas.pop(0) if ub and betas else db
        acts.append(make_act(n, a, b))
    if len(acts) == nact and dirs == 2:
        acts = acts + acts
    lens = np.full(Bn, S) if seq_lens is None else seq_lens
    Y = np.zeros((S, dirs, Bn, H))
    Yh = np.zeros((dirs, Bn, H))
    Yc = np.zeros((dirs, Bn, H))
    lbr = attrs.get("linear_before_reset", 0)
    input_forget = attrs.get("input_forget", 0)
    for d in range(dirs):
        f = acts[d * nact]
        g = acts[d * nact + 1] if nact > 1 else None
        hf = acts[d * nact + 2] if nact > 2 else None
        reverse = direction == "reverse" or d == 1
        w, r = W[d], R[d]
        wb = B[d][:G * H] if B is not None else np.zeros(G * H)
        rb = B[d][G * H:] if B is not None else np.zeros(G * H)
        p = P[d] if P is not None else np.zeros(3 * H)
        for b in range(Bn):
            h = h0[d, b].astype(np.float64) if h0 is not None else np.zeros(H)
            c = c0[d, b].astype(np.float64) if c0 is not None else np.zeros(H)
            L = int(lens[b])
            steps = range(L - 1, -1, -1) if reverse else range(L)
            for t in steps:
                x = X[t, b]
                if op == "RNN":
                    h = f(cl(w @ x + r @ h + wb + rb))
                elif op == "GRU":
                    z = f(cl(w[:H] @ x + r[:H] @ h + wb[:H] + rb[:H]))
                    rr = f(cl(w[H:2 * H] @ x + r[H:2 * H] @ h + wb[H:2 * H] + rb[H:2 * H]))
                    if lbr:
                        hh = g(cl(w[2 * H:] @ x + rr * (r[2 * H:] @ h + rb[2 * H:]) + wb[2 * H:]))
                    else:
                        hh = g(cl(w[2 * H:] @ x + r[2 * H:] @ (rr * h) + rb[2 * H:] + wb[2 * H:]))
                    h = (1 - z) * hh + z * h
                else:
                    gates = w @ x + r @ h + wb + rb
                    gi, go, gf, gc = gates[:H], gates[H:2 * H], gates[2 * H:3 * H], gates[3 * H:]
                    i = f(cl(gi + p[:H] * c))
                    fg = 1 - i if input_forget else f(cl(gf + p[2 * H:] * c))
                    ct = g(cl(gc))
                    c = fg * c + i * ct
                    o = f(cl(go + p[H:2 * H] * c))
                    h = o * hf(c)
                Y[t, d, b] = h
            Yh[d, b] = h if L > 0 else 0
            Yc[d, b] = c if L > 0 else 0
    if layout == 1:
        Y = Y.transpose(2, 0, 1, 3)
        Yh = Yh.transpose(1, 0, 2)
        Yc = Yc.transpose(1, 0, 2)
    return (Y, Yh, Yc) if op == "LSTM" else (Y, Yh)


def node_attrs(node):
    out = {}
    for a in node.attribute:
        v = onnx.helper.get_attribute_value(a)
        if isinstance(v, bytes):
            v = v.decode()
        elif isinstance(v, list) and v and isinstance(v[0], bytes):
            v = [s.decode() for s in v]
        out[a.name] = v
    return out


def attr_lines_from_dict(op, attrs):
    lines = []
    for k in sorted(attrs):
        lines.append(attr_line(op, onnx.helper.make_attribute(k, attrs[k])))
    return lines


def rnn_onnx_cases(lines):
    n = 0
    for d in sorted(os.listdir(DATA_DIR)):
        if d.endswith("_expanded"):
            continue
        m = onnx.load(os.path.join(DATA_DIR, d, "model.onnx"))
        if len(m.graph.node) != 1 or m.graph.node[0].op_type not in FAMILY_OPS["rnn"]:
            continue
        node = m.graph.node[0]
        attrs = node_attrs(node)
        for ds in sorted(glob.glob(os.path.join(DATA_DIR, d, "test_data_set_*"))):
            ins, k = [], 0
            for name in node.input:
                if name == "":
                    ins.append(None)
                    continue
                t = onnx.TensorProto()
                with open(os.path.join(ds, "input_%d.pb" % k), "rb") as f:
                    t.ParseFromString(f.read())
                ins.append(numpy_helper.to_array(t))
                k += 1
            ref = rnn_reference(node.op_type, ins, attrs)
            outs, k = [], 0
            for i, name in enumerate(node.output):
                if name == "":
                    continue
                t = onnx.TensorProto()
                with open(os.path.join(ds, "output_%d.pb" % k), "rb") as f:
                    t.ParseFromString(f.read())
                want = numpy_helper.to_array(t)
                if not np.allclose(ref[i], want, rtol=1e-4, atol=1e-6):
                    raise SystemExit("reference disagrees with %s output %s" % (d, name))
                k += 1
            # Every output of the op, from the checked reference.
            ref_outs = [tensor("out", v.astype(ins[0].dtype)) for v in ref]
            record(lines, d, node.op_type, attr_lines_from_dict(node.op_type, attrs),
                   [None if v is None else tensor("in", v) for v in ins], ref_outs)
            n += 1
    return n


def rnn_extra_cases(lines):
    rng = np.random.RandomState(1234)
    cases = [
        # name, op, attrs, (seq, batch, input, hidden), flags
        ("rnn_reverse_bias_h0", "RNN", {"direction": "reverse"}, (4, 2, 3, 3), "bh"),
        ("rnn_bidirectional_seqlens", "RNN", {"direction": "bidirectional"}, (4, 3, 2, 3), "bhs"),
        ("rnn_layout1_bidirectional", "RNN", {"direction": "bidirectional", "layout": 1},
         (3, 2, 2, 4), "bhs"),
        ("rnn_clip_relu", "RNN", {"clip": 0.5, "activations": ["Relu"]}, (3, 2, 3, 2), "b"),
        ("rnn_affine_alpha_beta", "RNN",
         {"activations": ["Affine", "LeakyRelu"], "activation_alpha": [0.5, 0.2],
          "activation_beta": [0.1], "direction": "bidirectional"}, (3, 2, 2, 3), "bh"),
        ("gru_reverse_seqlens", "GRU", {"direction": "reverse"}, (5, 3, 2, 3), "bhs"),
        ("gru_bidirectional_lbr", "GRU", {"direction": "bidirectional", "linear_before_reset": 1},
         (4, 2, 3, 2), "bhs"),
        ("gru_layout1_clip", "GRU", {"layout": 1, "clip": 0.3}, (3, 2, 2, 4), "bh"),
        ("gru_activations", "GRU",
         {"activations": ["HardSigmoid", "ScaledTanh"], "activation_alpha": [0.3, 0.7],
          "activation_beta": [0.4, 1.5]}, (3, 2, 2, 3), "bh"),
        ("lstm_bidirectional_all_inputs", "LSTM", {"direction": "bidirectional"},
         (4, 3, 2, 3), "bhcsp"),
        ("lstm_reverse_layout1", "LSTM", {"direction": "reverse", "layout": 1},
         (3, 2, 3, 2), "bhcs"),
        ("lstm_input_forget_clip", "LSTM", {"input_forget": 1, "clip": 0.4}, (3, 2, 2, 3), "bhcp"),
        ("lstm_activations", "LSTM",
         {"activations": ["Sigmoid", "Elu", "Softsign", "HardSigmoid", "Softplus", "ThresholdedRelu"],
          "activation_alpha": [0.5, 0.25, 0.1], "activation_beta": [0.6],
          "direction": "bidirectional"}, (3, 2, 2, 2), "bh"),
        ("lstm_seqlen_zero", "LSTM", {}, (3, 3, 2, 2), "bhcs0"),
    ]
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}
    for name, op, attrs, (S, Bn, I, H), flags in cases:
        dirs = 2 if attrs.get("direction") == "bidirectional" else 1
        layout = attrs.get("layout", 0)
        g = G[op]
        attrs = dict(attrs)
        attrs["hidden_size"] = H
        x = rng.uniform(-1, 1, (S, Bn, I) if layout == 0 else (Bn, S, I)).astype(np.float32)
        w = rng.uniform(-0.6, 0.6, (dirs, g * H, I)).astype(np.float32)
        r = rng.uniform(-0.6, 0.6, (dirs, g * H, H)).astype(np.float32)
        state = (dirs, Bn, H) if layout == 0 else (Bn, dirs, H)
        b = rng.uniform(-0.3, 0.3, (dirs, 2 * g * H)).astype(np.float32) if "b" in flags else None
        s = None
        if "s" in flags:
            s = rng.randint(1, S + 1, Bn).astype(np.int32)
            s[0] = S
            if "0" in flags:
                s[1] = 0
        h = rng.uniform(-0.5, 0.5, state).astype(np.float32) if "h" in flags else None
        ins = [x, w, r, b, s, h]
        if op == "LSTM":
            c = rng.uniform(-0.5, 0.5, state).astype(np.float32) if "c" in flags else None
            p = rng.uniform(-0.5, 0.5, (dirs, 3 * H)).astype(np.float32) if "p" in flags else None
            ins += [c, p]
        while ins and ins[-1] is None:
            ins.pop()
        ref = rnn_reference(op, ins, attrs)
        record(lines, name, op, attr_lines_from_dict(op, attrs),
               [None if v is None else tensor("in", v) for v in ins],
               [tensor("out", v.astype(np.float32)) for v in ref])
    return len(cases)


# ---------------------------------------------------------------- generic

def onnx_cases(lines, ops):
    n = 0
    for d in sorted(os.listdir(DATA_DIR)):
        if d in SKIP or d.endswith("_expanded"):
            continue
        m = onnx.load(os.path.join(DATA_DIR, d, "model.onnx"))
        if len(m.graph.node) != 1 or m.graph.node[0].op_type not in ops:
            continue
        node = m.graph.node[0]
        declared = {}
        for vi in list(m.graph.input) + list(m.graph.output):
            declared[vi.name] = vi.type.tensor_type.elem_type
        attrs = [attr_line(node.op_type, a)
                 for a in list(node.attribute) + EXTRA_ATTRS.get(d, [])]
        for ds in sorted(glob.glob(os.path.join(DATA_DIR, d, "test_data_set_*"))):
            idx = ds.rsplit("_", 1)[1]
            ins, outs, k = [], [], 0
            for name in node.input:
                if name == "":
                    ins.append(None)
                    continue
                t = onnx.TensorProto()
                with open(os.path.join(ds, "input_%d.pb" % k), "rb") as f:
                    t.ParseFromString(f.read())
                ins.append(common.tensor_line("in", t, declared.get(name)))
                k += 1
            for i, name in enumerate(node.output):
                if name == "":
                    raise SystemExit("%s: unconnected output %d" % (d, i))
                t = onnx.TensorProto()
                with open(os.path.join(ds, "output_%d.pb" % i), "rb") as f:
                    t.ParseFromString(f.read())
                outs.append(common.tensor_line("out", t, declared.get(name)))
            size = sum(len(x) for x in ins + outs if x is not None)
            if size > MAX_CASE_BYTES:
                print("skipping %s: %d bytes of tensor text" % (d, size), file=sys.stderr)
                continue
            record(lines, d if idx == "0" else "%s/%s" % (d, idx), node.op_type, attrs, ins, outs)
            n += 1
    return n


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--family", required=True, choices=sorted(FAMILY_OPS))
    p.add_argument("--out", required=True)
    args = p.parse_args()
    lines = []
    if args.family == "rnn":
        count = rnn_onnx_cases(lines) + rnn_extra_cases(lines)
    else:
        count = onnx_cases(lines, FAMILY_OPS[args.family])
    with open(args.out, "w") as f:
        f.write("# Generated by ops/rnn/gen_cases.py --family %s (ONNX 1.12 node tests%s).\n" %
                (args.family, " + numpy reference cases" if args.family == "rnn" else ""))
        f.write("\n".join(lines) + "\n")
    print("%d cases -> %s" % (count, args.out))


if __name__ == "__main__":
    main()
