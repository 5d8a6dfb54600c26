// Times one ONNX model with onnxruntime-node in this (fresh) process and prints one JSON line.
// The om_vs_ort.py side of a comparison: the same .npy input files om_run reads, the same
// thread count, every timed run's latency, and the first output written as raw float32 for
// the error check.
//
// usage: NODE_PATH=<ORT dir>/node_modules node ort_run.js '<job JSON>'
//   job: {"file": "m.onnx", "inputs": [{"name": "input", "npy": "in0.npy"}, ...],
//         "threads": 1, "warmup": 3, "runs": 20, "opt": "all", "out": "ort_out.f32"}
// prints: {"create_ms", "first_run_ms", "times_ms": [...], "rss_before_mb", "peak_rss_mb",
//          "peak_rss_delta_mb", "cpu_util", "output": {"name", "dtype", "shape"}}
// or {"error": "..."} (exit status 1).
//
// Peak RSS growth: VmHWM (this process's peak resident set) at the end minus VmRSS just
// before the session is created (node and the ORT library already loaded, inputs read).
const fs = require('fs');
const ort = require('onnxruntime-node');

const job = { threads: 1, warmup: 3, runs: 20, opt: 'all', ...JSON.parse(process.argv[2]) };
const now = () => Number(process.hrtime.bigint()) / 1e6; // ms
const statusKb = (key) => +fs.readFileSync('/proc/self/status', 'utf8').match(new RegExp(`${key}:\\s+(\\d+)`))[1];
const mb = (kb) => +(kb / 1024).toFixed(1);
const r3 = (x) => +x.toFixed(3);

// NumPy .npy (format 1.0 / 2.0 / 3.0, little-endian, C order) -> ort.Tensor.
const NPY_TYPES = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array], '|u1': ['uint8', Uint8Array], '|i1': ['int8', Int8Array], '|b1': ['bool', Uint8Array],
};
function readNpy(path) {
  const buf = fs.readFileSync(path);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${path}: not a .npy file`);
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12);
  const header = buf.toString('latin1', start, start + hlen);
  const descr = (header.match(/'descr':\s*'([^']+)'/) || [])[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${path}: fortran_order is not supported`);
  const shapeText = (header.match(/'shape':\s*\(([^)]*)\)/) || [])[1];
  if (!descr || shapeText === undefined) throw new Error(`${path}: bad .npy header ${header}`);
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  const type = NPY_TYPES[descr];
  if (!type) throw new Error(`${path}: dtype ${descr} is not supported`);
  const [dtype, Ctor] = type;
  const n = shape.reduce((a, b) => a * b, 1);
  const off = start + hlen;
  const copy = buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + n * Ctor.BYTES_PER_ELEMENT);
  return new ort.Tensor(dtype, new Ctor(copy), shape);
}

(async () => {
  const feeds = Object.fromEntries((job.inputs || []).map((s) => [s.name, readNpy(s.npy)]));
  const rssBefore = statusKb('VmRSS');
  let t = now();
  const session = await ort.InferenceSession.create(job.file, {
    intraOpNumThreads: job.threads, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: job.opt,
  });
  const res = { create_ms: r3(now() - t) };

  t = now();
  let out = await session.run(feeds);
  res.first_run_ms = r3(now() - t);
  for (let i = 0; i < job.warmup; i++) out = await session.run(feeds);
  const times = [];
  const start = now(), cpu0 = process.cpuUsage();
  for (let i = 0; i < job.runs; i++) {
    t = now();
    out = await session.run(feeds);
    times.push(r3(now() - t));
  }
  const cpu = process.cpuUsage(cpu0); // busy cores during the timed runs
  res.cpu_util = +(((cpu.user + cpu.system) / 1e3) / Math.max(now() - start, 1e-9)).toFixed(2);
  res.times_ms = times;

  const first = out[session.outputNames[0]];
  res.output = { name: session.outputNames[0], dtype: first.type, shape: first.dims };
  if (job.out) {
    const data = first.type === 'float32' ? first.data : Float32Array.from(first.data, Number);
    fs.writeFileSync(job.out, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }
  res.rss_before_mb = mb(rssBefore);
  res.peak_rss_mb = mb(statusKb('VmHWM'));
  res.peak_rss_delta_mb = mb(statusKb('VmHWM') - rssBefore);
  console.log(JSON.stringify(res));
})().catch((e) => { console.log(JSON.stringify({ error: String(e && e.message || e) })); process.exit(1); });
