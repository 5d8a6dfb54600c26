#!/usr/bin/env python3
"""Inference latency, peak memory and accuracy of om_run against ONNX Runtime, in one run.

For every model: atc converts the ONNX file once per precision mode, then the
two runtimes take turns, round by round (the order flips every round), each in
a fresh process with the same .npy input files and the same thread count:
ORT through ort_run.js (intraOpNumThreads = threads, 3 untimed warm-ups, then
--runs timed runs) and om_run (--loop=--runs, its thread flag = threads).

  python3 tools/bench/om_vs_ort.py --zoo ZOO --ort_modules ORT/node_modules \\
      --atc bazel-out/k8-opt/bin/tools/atc/atc --om_run bazel-out/k8-opt/bin/tools/om_run/om_run \\
      --models resnet50,squeezenet1_1,mobilenet_v2,bert_base_s128 --threads 1,2 [--json OUT]

Models and references come from ../shared/bench/make_models.py (ZOO/manifest.json,
ZOO/<name>.onnx, ZOO/<name>.<case>.ref.f32); tools/bench/setup_bench.sh installs
what it and ORT need. This script needs only the Python standard library.

Figures (all per model, case and thread count, over all rounds):
  * latency: min / median over every timed run of every round, for ORT and
    for ours alike (om_run prints its per-run latencies); both sides make
    1 + --warmup untimed runs first (om_run --warmup).
  * RSS growth: peak resident set of the process minus its resident set
    before the model is loaded, median over rounds. ORT: VmHWM at the end
    minus VmRSS before the session is created (ort_run.js reads
    /proc/self/status; node and the ORT library are already loaded). Ours:
    the om_run process's peak RSS (ru_maxrss from wait4) minus the peak RSS
    of `om_run --help` (the same binary, loaded and exited before any model).
  * error: max |out - ref| (abs) and max |out - ref| / max |ref| (rel) of the
    first output against the torch reference, the worst over rounds.
"""

import argparse
import json
import os
import platform
import re
import shlex
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from array import array

RUNS_RE = re.compile(r"run latencies \(ms\):((?: [0-9.]+)+)")
LATENCY_RE = re.compile(r"latency over (\d+) run\(s\): min ([0-9.]+) ms, median ([0-9.]+) ms")
LOAD_RE = re.compile(r"\[om_run\] loaded .* in ([0-9.]+) ms")

METHOD = {
    "latency_ort": "min / median over all timed runs of all rounds (after 1 + warmup untimed runs)",
    "latency_ours": "min / median over all timed runs of all rounds (om_run --warmup: after "
                    "1 + warmup untimed runs)",
    "rss_ort": "VmHWM at exit minus VmRSS before InferenceSession.create (ort_run.js), "
               "median over rounds",
    "rss_ours": "om_run peak RSS (wait4 ru_maxrss) minus the peak RSS of `om_run --help`, "
                "median over rounds",
    "cpu_util": "ORT: CPU time / wall time of the timed runs (ort_run.js); ours: of the whole "
                "om_run process (wait4), per round",
    "error": "first output vs torch .ref.f32: abs = max|out-ref|, rel = max|out-ref| / max|ref|, "
             "worst over rounds",
}


# ---------------------------------------------------------------- inputs (make_models.py:make_array)
def make_values(dtype, shape, fill):
    n = 1
    for d in shape:
        n *= d
    if fill == "pattern":
        vals = [(i % 256) / 256.0 - 0.5 for i in range(n)]
    elif fill.startswith("ids:"):
        mod = int(fill[4:])
        vals = [(i * 7 + 1) % mod for i in range(n)]
    else:
        vals = [float(fill)] * n
    if dtype == "float32":
        return array("f", vals), "<f4"
    if dtype == "int64":
        return array("q", (int(v) for v in vals)), "<i8"
    if dtype == "int32":
        return array("i", (int(v) for v in vals)), "<i4"
    raise SystemExit(f"input dtype {dtype} is not supported")


def write_npy(path, dtype, shape, fill):
    """NumPy .npy v1.0, little-endian, C order (what om_run and ort_run.js read)."""
    data, descr = make_values(dtype, shape, fill)
    if sys.byteorder != "little":
        data.byteswap()
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {tuple(shape)}, }}"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"  # 64-byte aligned data
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(data.tobytes())


# ---------------------------------------------------------------- outputs
def _varint(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def read_tensor_proto(path):
    """ONNX TensorProto file (om_run --output_dir) -> (dims, list of floats)."""
    with open(path, "rb") as f:
        buf = f.read()
    pos, dims, dtype, raw = 0, [], 1, None
    float_data, int64_data, double_data = [], [], []
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            v, pos = _varint(buf, pos)
            if field == 1:
                dims.append(v)
            elif field == 2:
                dtype = v
            elif field == 7:
                int64_data.append(v - (1 << 64) if v >= 1 << 63 else v)
        elif wire == 2:
            ln, pos = _varint(buf, pos)
            chunk = buf[pos:pos + ln]
            pos += ln
            if field == 9:
                raw = chunk
            elif field == 1:  # packed dims
                p = 0
                while p < len(chunk):
                    v, p = _varint(chunk, p)
                    dims.append(v)
            elif field == 4:
                float_data.extend(struct.unpack(f"<{len(chunk) // 4}f", chunk))
            elif field == 10:
                double_data.extend(struct.unpack(f"<{len(chunk) // 8}d", chunk))
            elif field == 7:
                p = 0
                while p < len(chunk):
                    v, p = _varint(chunk, p)
                    int64_data.append(v - (1 << 64) if v >= 1 << 63 else v)
        elif wire == 5:
            if field == 4:
                float_data.append(struct.unpack_from("<f", buf, pos)[0])
            pos += 4
        elif wire == 1:
            pos += 8
        else:
            raise ValueError(f"{path}: unsupported protobuf wire type {wire}")
    fmt = {1: "f", 10: "e", 11: "d", 7: "q", 6: "i"}.get(dtype)
    if raw is not None:
        if fmt is None:
            raise ValueError(f"{path}: output data type {dtype} is not supported")
        size = struct.calcsize(fmt)
        return dims, list(struct.unpack(f"<{len(raw) // size}{fmt}", raw))
    return dims, float_data or double_data or [float(v) for v in int64_data]


def read_f32(path):
    data = array("f")
    with open(path, "rb") as f:
        data.frombytes(f.read())
    if sys.byteorder != "little":
        data.byteswap()
    return data


def compare(out, ref):
    if len(out) != len(ref):
        return {"error": f"{len(out)} output elements, the reference has {len(ref)}"}
    err = amax = 0.0
    for o, r in zip(out, ref):
        d = abs(o - r)
        if d > err or d != d:  # NaN counts as the worst
            err = d if d == d else float("inf")
        if abs(r) > amax:
            amax = abs(r)
    return {"abs": err, "rel": err / max(amax, 1e-12)}


def worst(a, b):
    if a is None or "error" in a:
        return a if a is not None else b
    if b is None or "error" in b:
        return b if b is not None else a
    return {"abs": max(a["abs"], b["abs"]), "rel": max(a["rel"], b["rel"])}


# ---------------------------------------------------------------- processes
def run_measured(cmd, env=None):
    """Runs cmd to its end; returns (exit status, stdout, stderr, peak RSS in MB, busy cores).

    Busy cores: the process's user + system CPU time over its wall time (whole
    process, load included); well under the thread count means it was starved."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here; keep Popen consistent
        out.seek(0)
        err.seek(0)
        return (proc.returncode, out.read().decode(errors="replace"),
                err.read().decode(errors="replace"), usage.ru_maxrss / 1024.0,
                round((usage.ru_utime + usage.ru_stime) / max(wall, 1e-9), 2))


class Failed(Exception):
    pass


def run_atc(args, onnx_path, out_prefix, mode, input_shape):
    cmd = [args.atc, f"--model={onnx_path}", "--framework=5", f"--output={out_prefix}"]
    if input_shape:
        cmd.append(f"--input_shape={input_shape}")
    if mode:
        cmd.append(f"--precision_mode={mode}")
    t0 = time.monotonic()
    rc, out, err, _, _ = run_measured(cmd)
    ms = (time.monotonic() - t0) * 1000
    if rc != 0:
        raise Failed(f"atc exit {rc}: {shlex.join(cmd)}\n{tail(err + out)}")
    return cmd, ms


def tail(text, lines=8):
    return "\n".join(text.strip().splitlines()[-lines:])


def run_ours(args, om_file, npys, threads, out_dir, base_rss):
    cmd = [args.om_run, f"--model={om_file}", f"--input={','.join(npys)}",
           f"--output_dir={out_dir}", f"--loop={args.runs}", f"--warmup={1 + args.warmup}"]
    if args.om_threads_flag:
        cmd.append(f"{args.om_threads_flag}={threads}")
    for f in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, f))
    rc, out, err, peak, cpu = run_measured(cmd)
    if rc != 0:
        hint = ""
        if args.om_threads_flag and "unknown flag" in err:
            hint = f"\n(om_run lacks {args.om_threads_flag}: pass --om_threads_flag='' to run it without)"
        raise Failed(f"om_run exit {rc}: {shlex.join(cmd)}\n{tail(err + out)}{hint}")
    m = LATENCY_RE.search(out)
    if not m:
        raise Failed(f"om_run printed no latency line: {shlex.join(cmd)}\n{tail(out + err)}")
    load = LOAD_RE.search(err + out)
    runs = RUNS_RE.search(out)
    res = {"runs": int(m.group(1)), "min_ms": float(m.group(2)), "median_ms": float(m.group(3)),
           "times": [float(x) for x in runs.group(1).split()] if runs else [float(m.group(3))],
           "load_ms": float(load.group(1)) if load else None,
           "peak_rss_mb": round(peak, 1), "rss_growth_mb": round(peak - base_rss, 1), "cpu_util": cpu}
    out_file = os.path.join(out_dir, "output_0.pb")
    res["output"] = read_tensor_proto(out_file) if os.path.exists(out_file) else None
    return res


def run_ort(args, onnx_path, input_names, npys, threads, out_file):
    job = {"file": onnx_path, "inputs": [{"name": n, "npy": p} for n, p in zip(input_names, npys)],
           "threads": threads, "warmup": args.warmup, "runs": args.runs, "out": out_file}
    env = dict(os.environ, NODE_PATH=args.ort_modules)
    cmd = [args.node, args.ort_js, json.dumps(job)]
    rc, out, err, peak, _ = run_measured(cmd, env=env)
    try:
        res = json.loads(out.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise Failed(f"ort_run.js exit {rc} on {onnx_path}:\n{tail(out + err)}")
    if rc != 0 or "error" in res:
        raise Failed(f"ort_run.js exit {rc} on {onnx_path}: {res.get('error')}\n{tail(err)}")
    res["wait4_peak_rss_mb"] = round(peak, 1)
    return res


# ---------------------------------------------------------------- driver
def load_manifest(zoo):
    path = os.path.join(zoo, "manifest.json")
    if not os.path.exists(path):
        raise SystemExit(f"no {path}: export the models with make_models.py (ZOO_DIR={zoo})")
    with open(path) as f:
        return json.load(f)["models"]


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, spec=".1f"):
    width = int(spec.split(".")[0] or 0)
    return "-".rjust(width) if x is None else format(x, spec)


def fmt_err(e, key):
    if e is None:
        return "-"
    if "error" in e:
        return "size!"
    return f"{e[key]:.1e}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.splitlines()[1:]))
    p.add_argument("--zoo", default=os.environ.get("ZOO_DIR", ""), help="make_models.py's output folder")
    p.add_argument("--models", default="resnet50,squeezenet1_1,mobilenet_v2,bert_base_s128",
                   help="comma-separated names; NAME:CASE picks one case of a model (default: all)")
    p.add_argument("--atc", default=os.path.join(root, "bazel-out", "k8-opt", "bin", "tools", "atc", "atc"))
    p.add_argument("--om_run", default=os.path.join(root, "bazel-out", "k8-opt", "bin", "tools", "om_run",
                                                    "om_run"))
    p.add_argument("--ort_modules", required=True, help="the node_modules folder holding onnxruntime-node")
    p.add_argument("--ort_js", default=os.path.join(here, "ort_run.js"))
    p.add_argument("--node", default="node")
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts (default 1,2)")
    p.add_argument("--runs", type=int, default=20, help="timed runs per process (default 20)")
    p.add_argument("--rounds", type=int, default=3, help="processes per runtime (default 3)")
    p.add_argument("--warmup", type=int, default=3, help="ORT's untimed runs after the first (default 3)")
    p.add_argument("--precision_mode", default="",
                   help="passed to atc as --precision_mode when given; comma-separated for several")
    p.add_argument("--om_threads_flag", default="--threads",
                   help="om_run's thread-count flag, given as FLAG=N (default --threads; '' = none)")
    p.add_argument("--static_shapes", action="store_true",
                   help="dynamic models: one OM per case with atc --input_shape (default: one dynamic OM)")
    p.add_argument("--work", default="", help="folder for OM, input and output files (default: a temp dir)")
    p.add_argument("--json", default="", help="also write the figures to this JSON file")
    args = p.parse_args()
    if not args.zoo:
        p.error("--zoo is required (or ZOO_DIR)")
    if args.runs < 1 or args.rounds < 1 or args.warmup < 0:
        p.error("--runs and --rounds must be >= 1, --warmup >= 0")
    threads = [int(t) for t in args.threads.split(",") if t]
    modes = [m for m in args.precision_mode.split(",") if m] or [""]
    for tool in (args.atc, args.om_run):
        if not os.access(tool, os.X_OK):
            raise SystemExit(f"{tool} is not executable (bazel build -c opt //tools/atc //tools/om_run)")
    manifest = load_manifest(args.zoo)
    load_start = os.getloadavg()
    work = args.work or tempfile.mkdtemp(prefix="om_vs_ort_")
    os.makedirs(work, exist_ok=True)
    out_dir = os.path.join(work, "om_out")
    os.makedirs(out_dir, exist_ok=True)

    rc, help_text, err, base_rss, _ = run_measured([args.om_run, "--help"])
    if rc != 0:
        raise SystemExit(f"{args.om_run} --help failed:\n{err}")
    if args.om_threads_flag and args.om_threads_flag + " " not in help_text:
        print(f"warning: om_run --help lists no {args.om_threads_flag}; om_run will likely reject it "
              f"(--om_threads_flag='' runs om_run at its default thread count)", file=sys.stderr)

    # Jobs: (model, case) with inputs, reference and the OM file per precision mode.
    jobs = []
    for spec in args.models.split(","):
        name, _, only_case = spec.partition(":")
        if name not in manifest:
            raise SystemExit(f"model '{name}' is not in {args.zoo}/manifest.json "
                             f"(has: {', '.join(sorted(manifest))})")
        entry = manifest[name]
        onnx_path = os.path.join(args.zoo, f"{name}.onnx")
        cases = [c for c in entry["cases"] if not only_case or c["id"] == only_case]
        if not cases:
            raise SystemExit(f"model '{name}' has no case '{only_case}'")
        for case in cases:
            npys = []
            for k, inp in enumerate(case["inputs"]):
                path = os.path.join(work, f"{name}.{case['id']}.in{k}.npy")
                write_npy(path, inp["dtype"], inp["shape"], inp["fill"])
                npys.append(path)
            label = name if len(entry["cases"]) == 1 else f"{name}/{case['id']}"
            shape = ""
            if entry.get("dynamic") and args.static_shapes:
                shape = ";".join(f"{i['name']}:{','.join(map(str, i['shape']))}" for i in case["inputs"])
            jobs.append({"label": label, "name": name, "case": case["id"], "onnx": onnx_path,
                         "input_names": [i["name"] for i in case["inputs"]], "npys": npys,
                         "ref": os.path.join(args.zoo, os.path.basename(case["ref"])),
                         "gflops": case.get("gflops"), "input_shape": shape, "om": {}, "atc": {}})

    # atc once per model (per case when shapes are fixed per case) and mode.
    compiled = {}
    for job in jobs:
        for mode in modes:
            suffix = (f".{job['case']}" if job["input_shape"] else "") + (f".{mode}" if mode else "")
            key = (job["name"], job["input_shape"], mode)
            if key not in compiled:
                prefix = os.path.join(work, job["name"] + suffix)
                try:
                    cmd, ms = run_atc(args, job["onnx"], prefix, mode, job["input_shape"])
                    compiled[key] = {"om": prefix + ".om", "cmd": shlex.join(cmd), "ms": round(ms, 1)}
                    print(f"atc {job['name']}{suffix}: {ms:.0f} ms", file=sys.stderr, flush=True)
                except Failed as e:
                    compiled[key] = {"error": str(e)}
                    print(f"atc {job['name']}{suffix} FAILED:\n{e}", file=sys.stderr, flush=True)
            job["atc"][mode] = compiled[key]

    rows = []
    for job in jobs:
        ref = read_f32(job["ref"])
        for t in threads:
            ort_times, ort_rss, ort_err, ort_create, ort_fail, ort_cpu = [], [], None, [], None, []
            ours = {m: {"mins": [], "medians": [], "rss": [], "load": [], "cpu": [], "err": None,
                        "fail": job["atc"][m].get("error")} for m in modes}
            for r in range(args.rounds):
                steps = ["ort"] + modes
                if r % 2:
                    steps.reverse()
                for step in steps:
                    if step == "ort":
                        if ort_fail:
                            continue
                        out_f32 = os.path.join(work, "ort_out.f32")
                        try:
                            res = run_ort(args, job["onnx"], job["input_names"], job["npys"], t, out_f32)
                        except Failed as e:
                            ort_fail = str(e)
                            print(f"ORT {job['label']} t{t} FAILED:\n{e}", file=sys.stderr, flush=True)
                            continue
                        ort_times += res["times_ms"]
                        ort_rss.append(res["peak_rss_delta_mb"])
                        ort_create.append(res["create_ms"])
                        ort_cpu.append(res["cpu_util"])
                        ort_err = worst(ort_err, compare(read_f32(out_f32), ref))
                        continue
                    o = ours[step]
                    if o["fail"]:
                        continue
                    try:
                        res = run_ours(args, job["atc"][step]["om"], job["npys"], t, out_dir, base_rss)
                    except Failed as e:
                        o["fail"] = str(e)
                        print(f"om_run {job['label']} t{t} FAILED:\n{e}", file=sys.stderr, flush=True)
                        continue
                    o["mins"].append(res["min_ms"])
                    o["medians"].append(res["median_ms"])
                    o.setdefault("times", []).extend(res["times"])
                    o["rss"].append(res["rss_growth_mb"])
                    o["load"].append(res["load_ms"])
                    o["cpu"].append(res["cpu_util"])
                    if res["output"] is not None:
                        o["err"] = worst(o["err"], compare(res["output"][1], ref))
                print(f"{job['label']} t{t} round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
            ort_min = min(ort_times) if ort_times else None
            ort_med = statistics.median(ort_times) if ort_times else None
            for m in modes:
                o = ours[m]
                our_min = min(o["mins"]) if o["mins"] else None
                our_med = statistics.median(o["times"]) if o.get("times") else median(o["medians"])
                rows.append({
                    "model": job["label"], "precision_mode": m or None, "threads": t,
                    "gflops": job["gflops"],
                    "ours_min_ms": our_min, "ours_median_ms": our_med,
                    "ours_round_medians_ms": o["medians"],
                    "ort_min_ms": ort_min, "ort_median_ms": ort_med,
                    "ort_runs": len(ort_times),
                    "ratio_median": round(our_med / ort_med, 3) if our_med and ort_med else None,
                    "ratio_min": round(our_min / ort_min, 3) if our_min and ort_min else None,
                    "ours_rss_growth_mb": median(o["rss"]), "ort_rss_growth_mb": median(ort_rss),
                    "ours_err": o["err"], "ort_err": ort_err,
                    "atc_ms": job["atc"][m].get("ms"), "atc_cmd": job["atc"][m].get("cmd"),
                    "ours_load_ms": median(o["load"]), "ort_create_ms": median(ort_create),
                    "ours_cpu_util": o["cpu"], "ort_cpu_util": ort_cpu,
                    "ours_error": o["fail"], "ort_error": ort_fail,
                })

    print(f"\n{args.rounds} rounds x {args.runs} runs per runtime and thread count; "
          f"om_run thread flag: {args.om_threads_flag or '(none: ours run at its default thread count)'}")
    head = (f"{'model':<22} {'thr':>3} {'ours min':>9} {'ours med':>9} {'ORT min':>8} {'ORT med':>8} "
            f"{'x med':>6} {'x min':>6} {'RSS ours':>8} {'RSS ORT':>8} "
            f"{'abs ours':>8} {'rel ours':>8} {'abs ORT':>8} {'rel ORT':>8}")
    print(head)
    print("-" * len(head))
    for row in rows:
        label = row["model"] + (f" [{row['precision_mode']}]" if row["precision_mode"] else "")
        print(f"{label:<22} {row['threads']:>3} {fmt(row['ours_min_ms'], '9.2f')} "
              f"{fmt(row['ours_median_ms'], '9.2f')} {fmt(row['ort_min_ms'], '8.2f')} "
              f"{fmt(row['ort_median_ms'], '8.2f')} {fmt(row['ratio_median'], '6.2f')} "
              f"{fmt(row['ratio_min'], '6.2f')} {fmt(row['ours_rss_growth_mb'], '8.1f')} "
              f"{fmt(row['ort_rss_growth_mb'], '8.1f')} {fmt_err(row['ours_err'], 'abs'):>8} "
              f"{fmt_err(row['ours_err'], 'rel'):>8} {fmt_err(row['ort_err'], 'abs'):>8} "
              f"{fmt_err(row['ort_err'], 'rel'):>8}")
    print("ms = latency; x = ours / ORT; RSS = peak RSS growth over the model load, MB; "
          "abs / rel = max|out-ref|, max|out-ref| / max|ref| vs the torch reference")
    end_load = os.getloadavg()
    print(f"load average (1 min) at start {load_start[0]:.2f}, at end {end_load[0]:.2f} "
          f"on {os.cpu_count()} CPUs: figures from a busy machine are noisy")
    for row in rows:
        for who in ("ours_error", "ort_error"):
            if row[who]:
                lines = row[who].splitlines()
                print(f"{row['model']} t{row['threads']} {who.split('_')[0]}: {lines[0]}"
                      + "".join(f"\n    {line}" for line in lines[1:4]))

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": shlex.join(sys.argv), "runs": args.runs, "rounds": args.rounds,
                       "warmup_ort": args.warmup, "om_threads_flag": args.om_threads_flag,
                       "om_run_base_rss_mb": round(base_rss, 1),
                       "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                                   "loadavg_start": load_start,
                                   "loadavg_end": end_load},
                       "method": METHOD, "rows": rows}, f, indent=1)
        print(f"wrote {args.json}")
    if not args.work:
        for name in os.listdir(out_dir):
            os.remove(os.path.join(out_dir, name))
        os.rmdir(out_dir)
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
