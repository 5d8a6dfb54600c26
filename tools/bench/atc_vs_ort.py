#!/usr/bin/env python3
"""Compile time of `atc` vs ONNX Runtime session creation, measured in one run.

The compile-speed targets are relative to ONNX Runtime on the same machine:
atc on resnet50 no slower than ORT's session creation, atc on the
100k-node synthetic ladder at most 10% of ORT's creation, per-node compile cost
at 100k within 1.5x of 10k, and OM load time under 10% of compile time. These
machines are noisy, so every figure here is taken in the same run, with the
tools interleaved (atc, ORT, om_run load; repeated) and reported as medians and
ratios.

Usage (from the workspace root, after `bazel build -c opt //tools/atc:atc
//tools/om_run:om_run`; ORT from `npm install onnxruntime-node@1.30.0
--ignore-scripts` in a folder given by --ort_modules):
  python3 tools/bench/atc_vs_ort.py --zoo /tmp/zoo --ort_modules /tmp/ort/node_modules \
      --models resnet50,synth_ladder_10k,synth_ladder_100k --repeat 3

Models come from ../shared/bench/make_models.py and make_synth.py (their
manifest.json / synth.json give the inputs ORT needs). Without --ort_modules
only atc and load figures are printed.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

STAGE_RE = re.compile(r"^\[atc\] (\w+)\s+([0-9.]+) ms")
LOAD_RE = re.compile(r"^\[om_run\] loaded .* in ([0-9.]+) ms")
CHECK_RE = re.compile(r"^\[om_run\] body checksum passed \(waited ([0-9.]+) ms")


def model_inputs(zoo, name):
    """Input specs (name, dtype, shape, fill) for ort_bench.js."""
    manifest = os.path.join(zoo, "manifest.json")
    if os.path.exists(manifest):
        with open(manifest) as f:
            models = json.load(f).get("models", {})
        if name in models:
            return models[name]["cases"][0]["inputs"]
    synth = os.path.join(zoo, "synth.json")
    if os.path.exists(synth):
        with open(synth) as f:
            for entry in json.load(f):
                if entry["name"] == name:
                    return entry["inputs"]
    raise SystemExit(f"no input description for model '{name}' in {zoo}")


def run_atc(atc, model, out_prefix):
    proc = subprocess.run([atc, f"--model={model}", "--framework=5", f"--output={out_prefix}"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"atc failed on {model}:\n{proc.stderr}")
    stages = {}
    for line in proc.stderr.splitlines():
        m = STAGE_RE.match(line)
        if m:
            stages[m.group(1)] = float(m.group(2))
    if "total" not in stages:
        raise SystemExit(f"atc printed no total for {model}:\n{proc.stderr}")
    return stages


def run_load(om_run, om_file):
    proc = subprocess.run([om_run, f"--model={om_file}", "--loop=1"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"om_run failed on {om_file}:\n{proc.stderr}")
    load = wait = None
    for line in (proc.stderr + proc.stdout).splitlines():
        m = LOAD_RE.match(line)
        if m:
            load = float(m.group(1))
        m = CHECK_RE.match(line)
        if m:
            wait = float(m.group(1))
    if load is None or wait is None:
        raise SystemExit(f"om_run printed no load time or checksum wait for {om_file}")
    return load, wait


def run_ort(bench_js, modules, model, inputs):
    job = {"file": model, "inputs": inputs, "threads": 1, "minRuns": 0}
    env = dict(os.environ, NODE_PATH=modules)
    proc = subprocess.run(["node", bench_js, json.dumps(job)], capture_output=True, text=True, env=env)
    try:
        result = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise SystemExit(f"ort_bench.js failed on {model}:\n{proc.stdout}\n{proc.stderr}")
    if "create_ms" not in result:
        raise SystemExit(f"ort_bench.js failed on {model}: {result}")
    return result["create_ms"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", default=os.environ.get("ZOO_DIR", "/tmp/zoo"))
    parser.add_argument("--models", default="resnet50,synth_ladder_10k,synth_ladder_100k")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ort_modules", default="")
    parser.add_argument("--bench_js", default=os.path.join(root, "..", "shared", "bench", "ort_bench.js"))
    parser.add_argument("--atc", default=os.path.join(root, "bazel-bin", "tools", "atc", "atc"))
    parser.add_argument("--om_run", default=os.path.join(root, "bazel-bin", "tools", "om_run", "om_run"))
    args = parser.parse_args()
    if args.repeat < 1:
        raise SystemExit("--repeat must be >= 1")

    out_dir = tempfile.mkdtemp(prefix="atc_vs_ort_")
    rows = {}
    for name in args.models.split(","):
        model = os.path.join(args.zoo, f"{name}.onnx")
        if not os.path.exists(model):
            raise SystemExit(f"missing model {model} (see ../shared/bench/README.md)")
        inputs = model_inputs(args.zoo, name) if args.ort_modules else None
        atc, load, wait, ort = [], [], [], []
        prefix = os.path.join(out_dir, name)
        for _ in range(args.repeat):
            atc.append(run_atc(args.atc, model, prefix))
            load_ms, wait_ms = run_load(args.om_run, prefix + ".om")
            load.append(load_ms)
            wait.append(wait_ms)
            if args.ort_modules:
                ort.append(run_ort(args.bench_js, args.ort_modules, model, inputs))
        med = {k: statistics.median(s[k] for s in atc) for k in atc[0]}
        rows[name] = (med, statistics.median(load), statistics.median(wait),
                      statistics.median(ort) if ort else None, os.path.getsize(prefix + ".om"))
        os.remove(prefix + ".om")

    print(f"medians of {args.repeat} interleaved runs (ms)")
    # load: Model::LoadFromFile returned; check: om_run's wait, after its
    # inputs were made, for the rest of a large file's body checksum (what a
    # first run would wait for; 0 when the load checked it).
    print(f"{'model':<20} {'atc':>9} {'ORT create':>11} {'atc/ORT':>8} {'load':>8} {'load/atc':>9} "
          f"{'check':>7} {'(load+check)/atc':>17}  stages")
    for name, (med, load, wait, ort, size) in rows.items():
        ratio = f"{med['total'] / ort:8.2f}" if ort else f"{'-':>8}"
        ort_s = f"{ort:11.1f}" if ort else f"{'-':>11}"
        stages = " ".join(f"{k} {v:.0f}" for k, v in med.items() if k != "total")
        print(f"{name:<20} {med['total']:9.1f} {ort_s} {ratio} {load:8.1f} {load / med['total']:9.3f} "
              f"{wait:7.1f} {(load + wait) / med['total']:17.3f}  {stages}")
    ladders = {n: r for n, r in rows.items() if n.startswith("synth_ladder_")}
    if "synth_ladder_10k" in ladders and "synth_ladder_100k" in ladders:
        per10 = ladders["synth_ladder_10k"][0]["total"] / 10000
        per100 = ladders["synth_ladder_100k"][0]["total"] / 100000
        print(f"per-node compile cost: 10k {per10 * 1000:.2f} us, 100k {per100 * 1000:.2f} us, "
              f"ratio 100k/10k {per100 / per10:.2f}")
    os.rmdir(out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
