// runtime/tools/load_phases_main.cc
//
// load_phases: times the phases of loading an OM file, each alone, best of
// N repetitions (a development tool for the OM load speed work):
//   checksum      the body checksum (XXH3-128 over the 4 MiB chunks' digests)
//   task_info     ModelTaskDef parse of the root's TASK_INFO (heap / Arena)
//   model_def     DecodeModelOpDescs (static path) and DeserializeModel (full)
//   load          Model::LoadFromFile (everything, threads included)
//
//   bazel build -c opt //runtime:load_phases
//   bazel-out/k8-opt/bin/runtime/load_phases /tmp/m.om [reps] [only-phases-containing]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "build/om/om_file.h"
#include "graph/serialization/inc/model_op_descs.h"
#include "graph/serialization/inc/model_serialize.h"
#include "metadef/inc/base/aligned_mapping.h"
#include "runtime/inc/runtime/model.h"

namespace {

// argv[3]: only phases whose name contains it.
const char* g_only = nullptr;

double BestMs(int reps, const std::function<void()>& fn) {
  double best = 1e30;
  if (g_only != nullptr) {
    static int index = 0;
    static const char* const kNames[] = {"checksum",      "task_info heap", "task_info arena",
                                         "op descs",      "full graph",     "runtime load",
                                         "LoadFromBytes", "LoadFromFile"};
    const char* name = kNames[index++ % 8];
    if (std::string(name).find(g_only) == std::string::npos) return 0;
  }
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

// Resident bytes of the process (/proc/self/statm).
double RssMb() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long size = 0, resident = 0;  // NOLINT(runtime/int)
  const int n = std::fscanf(f, "%ld %ld", &size, &resident);
  std::fclose(f);
  const double page = static_cast<double>(ge::SystemPageSize());
  return n == 2 ? static_cast<double>(resident) * page / (1 << 20) : 0;
}

// Runs `make` once, keeping its result alive, and prints the RSS growth.
template <typename F>
void PrintRssGrowth(const char* name, F make) {
  const double before = RssMb();
  auto kept = make();
  std::printf("%-18s +%7.1f MB resident\n", name, RssMb() - before);
}

int Main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: load_phases <model.om> [reps]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  if (argc > 3) g_only = argv[3];
  ge::StatusOr<std::string> bytes = ge::ReadFileToString(path);
  if (!bytes.ok()) {
    std::fprintf(stderr, "%s\n", std::string(bytes.status().message()).c_str());
    return 1;
  }
  const absl::Span<const uint8_t> span = ge::AsBytes(*bytes);
  ge::StatusOr<ge::OmFileView> view = ge::ParseOmFile(span);
  if (!view.ok()) {
    std::fprintf(stderr, "%s\n", std::string(view.status().message()).c_str());
    return 1;
  }
  const ge::OmModelView& root = view->models[0];
  const absl::string_view def(reinterpret_cast<const char*>(root.model_def.data()),
                              root.model_def.size());
  std::printf("%s: %zu bytes, MODEL_DEF %zu, TASK_INFO %zu, %d tasks\n", path.c_str(),
              bytes->size(), root.model_def.size(), root.task_info.size(),
              root.task_def.task_size());
  std::printf("checksum          %8.2f ms\n",
              BestMs(reps, [&] { (void)ge::OmChecksum(span.subspan(ge::kOmHeaderSize)); }));
  std::printf("task_info heap    %8.2f ms\n", BestMs(reps, [&] {
                ge::proto::ModelTaskDef td;
                (void)td.ParseFromArray(root.task_info.data(),
                                        static_cast<int>(root.task_info.size()));
              }));
  std::printf("task_info arena   %8.2f ms\n", BestMs(reps, [&] {
                google::protobuf::ArenaOptions opts;
                opts.start_block_size = std::min<size_t>(16 << 20, root.task_info.size() * 3);
                opts.max_block_size = 16 << 20;
                google::protobuf::Arena arena(opts);
                auto* td = google::protobuf::Arena::CreateMessage<ge::proto::ModelTaskDef>(&arena);
                (void)td->ParseFromArray(root.task_info.data(),
                                         static_cast<int>(root.task_info.size()));
              }));
  std::printf("op descs          %8.2f ms\n",
              BestMs(reps, [&] { (void)ge::DecodeModelOpDescs(def); }));
  std::printf("full graph        %8.2f ms\n",
              BestMs(reps, [&] { (void)ge::ModelSerialize::DeserializeModel(def); }));
  std::printf("runtime load      %8.2f ms\n", BestMs(reps, [&] {
                auto m = ge::LoadOmForRuntime(span, nullptr);
                if (!m.ok())
                  std::fprintf(stderr, "%s\n", std::string(m.status().message()).c_str());
              }));
  std::printf("Model::LoadFromBytes %5.2f ms\n", BestMs(reps, [&] {
                auto m = ge::Model::LoadFromBytes(*bytes);
                if (!m.ok())
                  std::fprintf(stderr, "%s\n", std::string(m.status().message()).c_str());
              }));
  // The default load returns before a large file's body checksum has
  // finished (ge::BodyCheck::kBeforeFirstRun); the next lines add the wait
  // for it, and load with the wait inside (kAtLoad).
  std::printf("Model::LoadFromFile %6.2f ms\n", BestMs(reps, [&] {
                auto m = ge::Model::LoadFromFile(path);
                if (!m.ok())
                  std::fprintf(stderr, "%s\n", std::string(m.status().message()).c_str());
              }));
  std::printf("  + VerifyBody      %6.2f ms\n", BestMs(reps, [&] {
                auto m = ge::Model::LoadFromFile(path);
                ge::Status st = m.ok() ? m->VerifyBody() : m.status();
                if (!st.ok()) std::fprintf(stderr, "%s\n", std::string(st.message()).c_str());
              }));
  std::printf("  kAtLoad           %6.2f ms\n", BestMs(reps, [&] {
                ge::ModelLoadOptions options;
                options.body_check = ge::BodyCheck::kAtLoad;
                auto m = ge::Model::LoadFromFile(path, options);
                if (!m.ok())
                  std::fprintf(stderr, "%s\n", std::string(m.status().message()).c_str());
              }));
  if (g_only == nullptr || std::string("rss").find(g_only) != std::string::npos) {
    // Each on a fresh heap would be exact; growth after the runs above
    // under-counts memory the allocator reuses, so these come first when
    // run as `load_phases m.om 1 rss`.
    PrintRssGrowth("rss op descs", [&] { return ge::DecodeModelOpDescs(def); });
    PrintRssGrowth("rss task_info arena", [&] {
      google::protobuf::ArenaOptions opts;
      opts.start_block_size = std::min<size_t>(16 << 20, root.task_info.size() * 3);
      opts.max_block_size = 16 << 20;
      auto arena = std::make_unique<google::protobuf::Arena>(opts);
      auto* td = google::protobuf::Arena::CreateMessage<ge::proto::ModelTaskDef>(arena.get());
      (void)td->ParseFromArray(root.task_info.data(), static_cast<int>(root.task_info.size()));
      return arena;
    });
    PrintRssGrowth("rss model", [&] { return ge::Model::LoadFromFile(path); });
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }
