// om_run: runs an OM model (like msame).
//
//   om_run --model=/tmp/m.om [--input=a.npy,b.pb] [--output_dir=DIR]
//          [--loop=N] [--threads=N] [--profile] [--top5] [--log=info]
//
// Inputs: ONNX TensorProto (.pb) or NumPy (.npy) files, one per model input
// in order, each checked against the model input (dtype, then shape by the
// runtime); without --input every input gets deterministic values
// (ge::tools::MakeDeterministicTensor, seed = input index). --output_dir
// writes output_K.pb (ONNX TensorProto). --loop N runs N times and prints
// the min and median latency (progress every ~2 s for long runs). --top5
// prints the top-5 indices and values of every output (the default for a
// single [1,N] / [N] float output). --threads sets the compute engine's
// intra-op threads (default: one per core). --profile times every task of
// a static model over the runs and prints the time per task and the op
// types by total time.
//
// Exit status: 0 success, 1 a load / run / file error, 2 a bad command line.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "runtime/inc/runtime/model.h"
#include "tools/common/tensor_io.h"
#include "tools/common/tool_log.h"

namespace ge {
namespace om_run {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr char kTool[] = "om_run";
constexpr int64_t kMaxLoop = 100000000;

constexpr char kUsage[] = R"(usage: om_run --model=m.om [--flag=value ...]

  --model       the OM file (written by atc)
  --input       comma-separated .pb (ONNX TensorProto) or .npy files, one per model input;
                default: deterministic generated values
  --output_dir  write output_K.pb (ONNX TensorProto) for every output K
  --loop        run N times (default 1) and print min / median latency
  --warmup      untimed runs before the timed ones (default 0)
  --threads     intra-op threads of the compute engine (default 0: one per core)
  --profile     time every task over the runs; print the slowest tasks and the op types
                by total time
  --top5        print the top-5 indices and values of every output (default for a single
                [1,N] float output)
  --log         debug, info (default), warning, error or null
  --help        this text
)";

struct Flags {
  std::string model;
  std::vector<std::string> inputs;
  std::string output_dir;
  int64_t loop = 1;
  int64_t threads = 0;
  int64_t warmup = 0;
  bool profile = false;
  bool top5 = false;
  bool help = false;
};

StatusOr<Flags> ParseFlags(int argc, char** argv) {
  static const std::vector<tools::FlagSpec> specs = {
      {"model", true},   {"input", true},    {"output_dir", true}, {"loop", true},
      {"threads", true}, {"profile", false}, {"top5", false},      {"log", true},
      {"help", false},   {"h", false},       {"warmup", true},
  };
  ASSIGN_OR_RETURN(auto pairs, tools::ParseFlagArgs(argc, argv, specs));
  Flags f;
  for (const auto& [name, value] : pairs) {
    if (name == "help" || name == "h") {
      f.help = true;
    } else if (name == "model") {
      f.model = value;
    } else if (name == "input") {
      f.inputs.clear();
      for (absl::string_view p : absl::StrSplit(value, ',')) {
        if (p.empty()) return ParamInvalid("--input '", value, "' has an empty file name");
        f.inputs.emplace_back(p);
      }
    } else if (name == "output_dir") {
      if (value.empty()) return ParamInvalid("--output_dir is empty");
      f.output_dir = value;
    } else if (name == "loop") {
      if (!absl::SimpleAtoi(value, &f.loop) || f.loop < 1 || f.loop > kMaxLoop) {
        return ParamInvalid("--loop value '", value, "' is not an integer in [1, ", kMaxLoop, "]");
      }
    } else if (name == "threads") {
      if (!absl::SimpleAtoi(value, &f.threads) || f.threads < 0 || f.threads > 1024) {
        return ParamInvalid("--threads value '", value, "' is not an integer in [0, 1024]");
      }
    } else if (name == "warmup") {
      if (!absl::SimpleAtoi(value, &f.warmup) || f.warmup < 0 || f.warmup > kMaxLoop) {
        return ParamInvalid("--warmup value '", value, "' is not an integer in [0, ", kMaxLoop,
                            "]");
      }
    } else if (name == "profile") {
      if (value != "true" && value != "1" && value != "false" && value != "0") {
        return ParamInvalid("--profile value '", value, "' is not true / false");
      }
      f.profile = value == "true" || value == "1";
    } else if (name == "top5") {
      if (value != "true" && value != "1" && value != "false" && value != "0") {
        return ParamInvalid("--top5 value '", value, "' is not true / false");
      }
      f.top5 = value == "true" || value == "1";
    } else if (name == "log") {
      ASSIGN_OR_RETURN(tools::LogLevel level, tools::ParseLogLevel(value));
      tools::SetLogLevel(level);
    }
  }
  if (!f.help && f.model.empty()) return ParamInvalid("--model is required");
  return f;
}

int Fail(const Status& st, int code) {
  tools::ToolLog(tools::LogLevel::kError, kTool, st.message());
  if (code == kExitUsage) std::fputs("run 'om_run --help' for the flags\n", stderr);
  return code;
}

std::string DimsText(const std::vector<int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

StatusOr<std::vector<gert::HostTensor>> MakeInputs(const Model& model, const Flags& f) {
  const std::vector<ModelIoDesc>& descs = model.inputs();
  std::vector<gert::HostTensor> inputs;
  if (!f.inputs.empty()) {
    if (f.inputs.size() != descs.size()) {
      return ParamInvalid("--input gives ", f.inputs.size(), " file(s), the model has ",
                          descs.size(), " input(s)");
    }
    for (size_t i = 0; i < descs.size(); ++i) {
      ASSIGN_OR_RETURN(gert::HostTensor t, tools::ReadTensorFile(f.inputs[i]));
      if (t.GetDataType() != descs[i].dtype) {
        return TypeMismatch("input ", i, " '", descs[i].name, "' from '", f.inputs[i],
                            "': data type ", TypeUtils::DataTypeToSerialString(t.GetDataType()),
                            ", the model expects ",
                            TypeUtils::DataTypeToSerialString(descs[i].dtype));
      }
      const std::vector<int64_t> dims = t.GetShape().ToVector();
      bool shape_ok = dims.size() == descs[i].dims.size();
      for (size_t d = 0; shape_ok && d < dims.size(); ++d) {
        shape_ok = descs[i].dims[d] < 0 || descs[i].dims[d] == dims[d];
      }
      if (!shape_ok) {
        return ParamInvalid("input ", i, " '", descs[i].name, "' from '", f.inputs[i],
                            "': shape is ", DimsText(dims), ", the model expects ",
                            DimsText(descs[i].dims));
      }
      tools::ToolLog(tools::LogLevel::kInfo, kTool, "input ", i, " '", descs[i].name, "' <- ",
                     f.inputs[i]);
      inputs.push_back(std::move(t));
    }
    return inputs;
  }
  for (size_t i = 0; i < descs.size(); ++i) {
    auto t = tools::MakeDeterministicTensor(descs[i].dtype, descs[i].dims, i);
    if (!t.ok()) return Annotate(t.status(), "input ", i, " '", descs[i].name, "': ");
    tools::ToolLog(tools::LogLevel::kInfo, kTool, "input ", i, " '", descs[i].name, "' ",
                   TypeUtils::DataTypeToSerialString(descs[i].dtype), " ", DimsText(descs[i].dims),
                   ": generated values");
    inputs.push_back(std::move(*t));
  }
  return inputs;
}

bool IsFloatType(DataType t) {
  return t == DT_FLOAT || t == DT_DOUBLE || t == DT_FLOAT16 || t == DT_BF16;
}

void PrintTop5(size_t index, const std::string& name, const gert::Tensor& t) {
  const int64_t n = t.GetShapeSize();
  std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(n, 0)));
  std::iota(order.begin(), order.end(), 0);
  const size_t k = std::min<size_t>(5, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&t](int64_t a, int64_t b) {
                      const double va = tools::ElementAsDouble(t, a);
                      const double vb = tools::ElementAsDouble(t, b);
                      return va > vb || (va == vb && a < b);
                    });
  std::printf("output %zu '%s' %s top-5:\n", index, name.c_str(), t.GetShape().ToString().c_str());
  for (size_t i = 0; i < k; ++i) {
    std::printf("  #%zu  index %lld  value %.6f\n", i + 1, static_cast<long long>(order[i]),
                tools::ElementAsDouble(t, order[i]));
  }
}

// The slowest tasks and the op types (with engine) by total time, per run.
void PrintProfile(const Model& model) {
  uint64_t runs = 0;
  std::vector<TaskProfile> tasks = model.Profile(&runs);
  if (runs == 0) return;
  uint64_t total = 0;
  for (const TaskProfile& t : tasks) total += t.total_ns;
  const double per_run = 1e-6 / static_cast<double>(runs);
  std::vector<size_t> order(tasks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return tasks[a].total_ns > tasks[b].total_ns; });
  std::printf("profile over %llu run(s): %zu tasks, %.3f ms per run in tasks\n",
              static_cast<unsigned long long>(runs), tasks.size(),
              static_cast<double>(total) * per_run);
  std::printf("slowest tasks (ms per run, share):\n");
  for (size_t k = 0; k < std::min<size_t>(15, order.size()); ++k) {
    const TaskProfile& t = tasks[order[k]];
    std::printf(
        "  %4zu  %9.3f  %5.1f%%  %-20s %-16s %s\n", order[k],
        static_cast<double>(t.total_ns) * per_run,
        total == 0 ? 0.0 : 100.0 * static_cast<double>(t.total_ns) / static_cast<double>(total),
        t.op_type.c_str(), t.engine.c_str(), t.node_name.c_str());
  }
  struct TypeTotal {
    std::string key;
    uint64_t ns = 0;
    size_t count = 0;
  };
  std::vector<TypeTotal> types;
  for (const TaskProfile& t : tasks) {
    const std::string key = absl::StrCat(t.op_type, " (", t.engine, ")");
    auto it =
        std::find_if(types.begin(), types.end(), [&](const TypeTotal& x) { return x.key == key; });
    if (it == types.end()) it = types.insert(types.end(), TypeTotal{key});
    it->ns += t.total_ns;
    ++it->count;
  }
  std::stable_sort(types.begin(), types.end(),
                   [](const TypeTotal& a, const TypeTotal& b) { return a.ns > b.ns; });
  std::printf("op types by total time (ms per run, share, tasks):\n");
  for (const TypeTotal& t : types) {
    std::printf("  %9.3f  %5.1f%%  %5zu  %s\n", static_cast<double>(t.ns) * per_run,
                total == 0 ? 0.0 : 100.0 * static_cast<double>(t.ns) / static_cast<double>(total),
                t.count, t.key.c_str());
  }
}

int Main(int argc, char** argv) {
  auto flags = ParseFlags(argc, argv);
  if (!flags.ok()) return Fail(flags.status(), kExitUsage);
  if (flags->help) {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  const Flags& f = *flags;
  // Page faults are most of a load's cost on memory the host has not backed
  // yet (first touches), so the load line reports them with the time.
  struct rusage ru0 {};
  getrusage(RUSAGE_SELF, &ru0);
  auto t0 = std::chrono::steady_clock::now();
  ModelLoadOptions load_options;
  load_options.intra_op_threads = static_cast<int>(f.threads);
  auto model = Model::LoadFromFile(f.model, load_options);
  if (!model.ok()) return Fail(Annotate(model.status(), "loading '", f.model, "': "), kExitFailed);
  const double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  struct rusage ru1 {};
  getrusage(RUSAGE_SELF, &ru1);
  tools::ToolLog(tools::LogLevel::kInfo, kTool,
                 absl::StrFormat("loaded %s (%s on %s, %zu input(s), %zu output(s), arena %llu "
                                 "bytes) in %.1f ms (%ld page faults)",
                                 f.model, model->is_dynamic() ? "dynamic" : "static",
                                 absl::StrJoin(model->engines(), ", "), model->inputs().size(),
                                 model->outputs().size(),
                                 static_cast<unsigned long long>(model->arena_bytes()), load_ms,
                                 ru1.ru_minflt + ru1.ru_majflt - ru0.ru_minflt - ru0.ru_majflt));
  auto inputs = MakeInputs(*model, f);
  if (!inputs.ok()) return Fail(inputs.status(), kExitFailed);
  // A large file's body checksum runs beside the load and the input
  // preparation; its wait is reported on its own, not in the first run.
  const auto v0 = std::chrono::steady_clock::now();
  if (Status st = model->VerifyBody(); !st.ok()) return Fail(st, kExitFailed);
  tools::ToolLog(tools::LogLevel::kInfo, kTool,
                 absl::StrFormat("body checksum passed (waited %.1f ms after the inputs)",
                                 std::chrono::duration<double, std::milli>(
                                     std::chrono::steady_clock::now() - v0)
                                     .count()));

  for (int64_t i = 0; i < f.warmup; ++i) {
    auto out = model->Run(*inputs);
    if (!out.ok()) return Fail(Annotate(out.status(), "warm-up run ", i + 1, ": "), kExitFailed);
  }
  if (f.profile) {
    if (Status st = model->SetProfiling(true); !st.ok()) return Fail(st, kExitFailed);
  }
  std::vector<double> times;
  times.reserve(static_cast<size_t>(f.loop));
  std::vector<gert::HostTensor> outputs;
  auto last_progress = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < f.loop; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto out = model->Run(*inputs);
    auto end = std::chrono::steady_clock::now();
    if (!out.ok()) return Fail(Annotate(out.status(), "run ", i + 1, ": "), kExitFailed);
    times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    if (i + 1 == f.loop) outputs = std::move(*out);
    if (end - last_progress > std::chrono::seconds(2) && i + 1 < f.loop) {
      tools::ToolLog(tools::LogLevel::kInfo, kTool, "run ", i + 1, " / ", f.loop, " ...");
      last_progress = end;
    }
  }

  const std::vector<ModelIoDesc>& out_descs = model->outputs();
  if (!f.output_dir.empty()) {
    for (size_t k = 0; k < outputs.size(); ++k) {
      const std::string path = absl::StrCat(f.output_dir, "/output_", k, ".pb");
      const std::string name = k < out_descs.size() ? out_descs[k].name : absl::StrCat(k);
      auto bytes = tools::TensorToOnnxBytes(outputs[k].tensor(), name);
      if (!bytes.ok()) return Fail(Annotate(bytes.status(), "output ", k, ": "), kExitFailed);
      Status st = tools::WriteFile(path, *bytes);
      if (!st.ok()) return Fail(st, kExitFailed);
      tools::ToolLog(tools::LogLevel::kInfo, kTool, "output ", k, " ",
                     outputs[k].GetShape().ToString(), " -> ", path);
    }
  }

  bool top5 = f.top5;
  if (!top5 && outputs.size() == 1 && IsFloatType(outputs[0].GetDataType())) {
    const gert::Shape& s = outputs[0].GetShape();
    top5 = s.GetDimNum() == 1 || (s.GetDimNum() == 2 && s.GetDim(0) == 1);
  }
  if (top5) {
    for (size_t k = 0; k < outputs.size(); ++k) {
      PrintTop5(k, k < out_descs.size() ? out_descs[k].name : "", outputs[k].tensor());
    }
  }

  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted.size() % 2 == 1
                            ? sorted[sorted.size() / 2]
                            : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
  std::printf("latency over %lld run(s): min %.3f ms, median %.3f ms\n",
              static_cast<long long>(f.loop), sorted.front(), median);
  if (f.loop > 1) {
    std::string all;
    for (double t : times) absl::StrAppendFormat(&all, " %.3f", t);
    std::printf("run latencies (ms):%s\n", all.c_str());
  }
  if (f.profile) PrintProfile(*model);
  return kExitOk;
}

}  // namespace
}  // namespace om_run
}  // namespace ge

int main(int argc, char** argv) { return ge::om_run::Main(argc, argv); }
