// graph/src/topo_sort_algorithms.cc
//
// Iterative topological sorts, cycle finding and the const-chain delay on a
// CSR graph. See topo_sort_algorithms.h.
#include "graph/src/topo_sort_algorithms.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ge {
namespace topo {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// Per-thread work buffers (see the header). Each function takes the ones it
// needs; none of these functions calls another while holding them.
struct Buffers {
  std::vector<uint32_t> u32[6];
  std::vector<uint8_t> u8[2];
};
Buffers& ThreadBuffers() {
  static thread_local Buffers buffers;
  return buffers;
}

// Compares the names of a and b like std::string::compare (sign only).
int CompareNames(const SortInput& in, uint32_t a, uint32_t b) {
  if (!in.name_keys.empty()) {
    const uint64_t* ka = &in.name_keys[2 * static_cast<size_t>(a)];
    const uint64_t* kb = &in.name_keys[2 * static_cast<size_t>(b)];
    if (ka[0] != kb[0]) return ka[0] < kb[0] ? -1 : 1;
    if (ka[1] != kb[1]) return ka[1] < kb[1] ? -1 : 1;
  }
  return in.names[a]->compare(*in.names[b]);
}

// Seeds of Kahn's algorithm: in-degree 0, Data vertices first, by index.
void Seeds(const SortInput& in, const std::vector<uint32_t>& indeg, std::vector<uint32_t>* out,
           std::vector<uint32_t>* others) {
  std::vector<uint32_t>& seeds = *out;
  seeds.clear();
  others->clear();
  const uint32_t n = static_cast<uint32_t>(indeg.size());
  for (uint32_t v = 0; v < n; ++v) {
    if (indeg[v] != 0) continue;
    if (in.is_data && in.is_data(v)) {
      seeds.push_back(v);
    } else {
      others->push_back(v);
    }
  }
  seeds.insert(seeds.end(), others->begin(), others->end());
}

bool Kahn(const SortInput& in, Algo algo, bool memory_priority, std::vector<uint32_t>* order) {
  const Csr& succ = *in.succ;
  const uint32_t n = static_cast<uint32_t>(succ.num_vertices());
  Buffers& buf = ThreadBuffers();
  std::vector<uint32_t>& indeg = buf.u32[0];
  indeg.assign(n, 0);
  for (uint32_t t : succ.targets) ++indeg[t];
  std::vector<uint32_t>& ready = buf.u32[1];
  Seeds(in, indeg, &ready, &buf.u32[4]);  // [4] is free in Kahn

  if (memory_priority) {
    // std heap functions build a max-heap for `less`: less(a, b) means a has
    // lower priority than b.
    auto less = [&in](uint32_t a, uint32_t b) {
      if (in.out_bytes[a] != in.out_bytes[b]) return in.out_bytes[a] < in.out_bytes[b];
      if (in.out_data_nodes[a] != in.out_data_nodes[b]) {
        return in.out_data_nodes[a] < in.out_data_nodes[b];
      }
      const int c = CompareNames(in, a, b);
      if (c != 0) return c > 0;
      return a > b;
    };
    std::make_heap(ready.begin(), ready.end(), less);
    while (!ready.empty()) {
      std::pop_heap(ready.begin(), ready.end(), less);
      const uint32_t v = ready.back();
      ready.pop_back();
      order->push_back(v);
      for (uint32_t t : succ.Neighbors(v)) {
        if (--indeg[t] == 0) {
          ready.push_back(t);
          std::push_heap(ready.begin(), ready.end(), less);
        }
      }
    }
  } else if (algo == Algo::kBFS) {
    // The FIFO is the order itself: a vertex is appended when it becomes
    // ready and output when the head reaches it (raw pointers: the loop
    // runs once per edge).
    order->resize(n);
    uint32_t* out = order->data();
    std::copy(ready.begin(), ready.end(), out);
    size_t tail = ready.size();
    const uint32_t* offsets = succ.offsets.data();
    const uint32_t* targets = succ.targets.data();
    uint32_t* deg = indeg.data();
    for (size_t head = 0; head < tail; ++head) {
      const uint32_t v = out[head];
      for (uint32_t e = offsets[v]; e < offsets[v + 1]; ++e) {
        const uint32_t t = targets[e];
        if (--deg[t] == 0) out[tail++] = t;
      }
    }
    order->resize(tail);
  } else {
    // A stack of ready vertices; the ones a vertex makes ready are pushed
    // in reverse edge order, so the first successor is visited first.
    std::vector<uint32_t>& stack_buf = buf.u32[2];
    stack_buf.resize(n);
    uint32_t* stack = stack_buf.data();
    size_t top = 0;
    for (size_t i = ready.size(); i > 0; --i) stack[top++] = ready[i - 1];
    order->resize(n);
    uint32_t* out = order->data();
    size_t count = 0;
    const uint32_t* offsets = succ.offsets.data();
    const uint32_t* targets = succ.targets.data();
    uint32_t* deg = indeg.data();
    while (top > 0) {
      const uint32_t v = stack[--top];
      out[count++] = v;
      const size_t first = top;
      for (uint32_t e = offsets[v]; e < offsets[v + 1]; ++e) {
        const uint32_t t = targets[e];
        if (--deg[t] == 0) stack[top++] = t;
      }
      std::reverse(stack + first, stack + top);
    }
    order->resize(count);
  }
  return order->size() == n;
}

bool ReverseDfs(const SortInput& in, Algo algo, std::vector<uint32_t>* order) {
  const Csr& succ = *in.succ;
  const Csr& pred = *in.pred;
  const uint32_t n = static_cast<uint32_t>(succ.num_vertices());
  enum : uint8_t { kNotWalked = 0, kWalking = 1, kWalked = 2 };
  Buffers& buf = ThreadBuffers();
  std::vector<uint8_t>& state_buf = buf.u8[0];
  state_buf.assign(n, kNotWalked);
  std::vector<uint32_t>& mark_buf = buf.u32[0];
  mark_buf.assign(n, kNone);
  // A vertex is pushed once as a root or once per successor that finds it
  // not walked yet: at most n + edges entries.
  std::vector<uint32_t>& stack_buf = buf.u32[1];
  stack_buf.resize(size_t{n} + pred.targets.size());
  const bool stable = algo == Algo::kStableRDFS;
  auto input_less = [&in](uint32_t a, uint32_t b) {
    if (in.out_bytes[a] != in.out_bytes[b]) return in.out_bytes[a] < in.out_bytes[b];
    const int c = CompareNames(in, a, b);
    if (c != 0) return c < 0;
    return a < b;
  };
  uint8_t* state = state_buf.data();
  uint32_t* mark = mark_buf.data();
  uint32_t* stack = stack_buf.data();
  const uint32_t* pred_offsets = pred.offsets.data();
  const uint32_t* pred_targets = pred.targets.data();
  order->resize(n);
  uint32_t* out = order->data();
  size_t count = 0;
  for (uint32_t root = 0; root < n; ++root) {
    if (state[root] != kNotWalked) continue;
    if (!stable && !succ.Neighbors(root).empty()) continue;  // RDFS starts at sinks
    size_t top = 0;
    stack[top++] = root;
    while (top > 0) {
      const uint32_t v = stack[top - 1];
      if (state[v] == kNotWalked) {
        state[v] = kWalking;
        // v's inputs not walked yet, pushed so that the first to visit is
        // on top: in increasing index for the stable sort (each pred list is
        // in increasing index already), else in increasing input_less.
        const size_t first = top;
        for (uint32_t e = pred_offsets[v]; e < pred_offsets[v + 1]; ++e) {
          const uint32_t p = pred_targets[e];
          if (mark[p] == v) continue;
          mark[p] = v;
          if (state[p] == kWalking) {  // p is on the current path: cycle
            order->resize(count);
            return false;
          }
          if (state[p] == kNotWalked) stack[top++] = p;
        }
        if (!stable) std::sort(stack + first, stack + top, input_less);
        std::reverse(stack + first, stack + top);
        continue;
      }
      --top;
      if (state[v] == kWalking) {
        state[v] = kWalked;
        out[count++] = v;
      }
    }
  }
  order->resize(count);
  return count == n;
}

}  // namespace

void NameKey(const std::string& name, uint64_t* hi, uint64_t* lo) {
  uint64_t k[2] = {0, 0};
  const size_t len = std::min<size_t>(name.size(), 16);
  for (size_t i = 0; i < len; ++i) {
    k[i / 8] |= static_cast<uint64_t>(static_cast<uint8_t>(name[i])) << (56 - 8 * (i % 8));
  }
  *hi = k[0];
  *lo = k[1];
}

Csr Csr::FromEdges(size_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  Csr csr;
  csr.offsets.assign(n + 1, 0);
  for (const auto& e : edges) ++csr.offsets[e.first + 1];
  for (size_t v = 0; v < n; ++v) csr.offsets[v + 1] += csr.offsets[v];
  csr.targets.resize(edges.size());
  std::vector<uint32_t> fill(csr.offsets.begin(), csr.offsets.end() - 1);
  for (const auto& e : edges) csr.targets[fill[e.first]++] = e.second;
  return csr;
}

Csr Csr::Transpose() const {
  Csr t;
  TransposeInto(&t);
  return t;
}

void Csr::TransposeInto(Csr* out) const {
  const size_t n = num_vertices();
  Csr& t = *out;
  t.offsets.assign(n + 1, 0);
  for (uint32_t target : targets) ++t.offsets[target + 1];
  for (size_t v = 0; v < n; ++v) t.offsets[v + 1] += t.offsets[v];
  t.targets.resize(targets.size());
  std::vector<uint32_t>& fill = ThreadBuffers().u32[5];
  fill.assign(t.offsets.begin(), t.offsets.end() - (n == 0 ? 0 : 1));
  for (uint32_t v = 0; v < n; ++v) {
    for (uint32_t target : Neighbors(v)) t.targets[fill[target]++] = v;
  }
}

bool Sort(const SortInput& in, Algo algo, bool memory_priority, std::vector<uint32_t>* order) {
  order->clear();
  order->reserve(in.succ->num_vertices());
  if (algo == Algo::kBFS || algo == Algo::kDFS) return Kahn(in, algo, memory_priority, order);
  return ReverseDfs(in, algo, order);
}

std::vector<uint32_t> FindCycle(const Csr& succ) {
  const uint32_t n = static_cast<uint32_t>(succ.num_vertices());
  enum : uint8_t { kWhite = 0, kGray = 1, kBlack = 2 };
  std::vector<uint8_t> color(n, kWhite);
  std::vector<uint32_t> stack_pos(n, 0);
  std::vector<std::pair<uint32_t, uint32_t>> stack;  // (vertex, next edge)
  for (uint32_t s = 0; s < n; ++s) {
    if (color[s] != kWhite) continue;
    color[s] = kGray;
    stack_pos[s] = 0;
    stack.emplace_back(s, succ.offsets[s]);
    while (!stack.empty()) {
      auto& top = stack.back();
      const uint32_t v = top.first;
      if (top.second < succ.offsets[v + 1]) {
        const uint32_t t = succ.targets[top.second++];
        if (color[t] == kWhite) {
          color[t] = kGray;
          stack_pos[t] = static_cast<uint32_t>(stack.size());
          stack.emplace_back(t, succ.offsets[t]);
        } else if (color[t] == kGray) {
          std::vector<uint32_t> cycle;
          for (size_t i = stack_pos[t]; i < stack.size(); ++i) cycle.push_back(stack[i].first);
          return cycle;
        }
      } else {
        color[v] = kBlack;
        stack.pop_back();
      }
    }
  }
  return {};
}

void DelayConstChains(const DelayInput& in, std::vector<uint32_t>* order) {
  const Csr& succ = *in.succ;
  const Csr& data_pred = *in.data_pred;
  const uint32_t n = static_cast<uint32_t>(order->size());
  const uint32_t nv = static_cast<uint32_t>(succ.num_vertices());
  Buffers& buf = ThreadBuffers();
  std::vector<uint32_t>& pos = buf.u32[0];
  pos.assign(nv, kNone);
  for (uint32_t i = 0; i < n; ++i) pos[(*order)[i]] = i;

  // Slot i holds a chain of vertices (linked through `next`) ending with
  // order[i]; a moved chain is prepended to its consumer's slot.
  std::vector<uint32_t>& next = buf.u32[1];
  next.assign(nv, kNone);
  std::vector<uint32_t>& head = buf.u32[2];
  head.assign(order->begin(), order->end());
  std::vector<uint32_t>& tail = buf.u32[3];
  tail.assign(order->begin(), order->end());
  std::vector<uint32_t>& size = buf.u32[4];
  size.assign(n, 1);
  std::vector<uint8_t>& movable = buf.u8[0];
  movable.assign(n, 1);
  std::vector<uint32_t>& mark = buf.u32[5];
  mark.assign(nv, kNone);
  bool moved = false;

  auto inputs_all_const = [&](uint32_t v) {
    auto preds = data_pred.Neighbors(v);
    if (preds.empty()) return false;
    for (uint32_t p : preds) {
      if (in.is_const_like[p] == 0) return false;
    }
    return true;
  };

  for (uint32_t i = 0; i < n; ++i) {
    if (movable[i] == 0 || head[i] == kNone) continue;
    const uint32_t v = (*order)[i];
    if (size[i] == 1) {
      if (!inputs_all_const(v)) continue;
    } else if (in.num_in_data_anchors[v] != 1) {
      continue;
    }
    uint32_t min_pos = kNone;
    uint32_t consumers = 0;
    for (uint32_t t : succ.Neighbors(v)) {
      if (mark[t] == v) continue;
      mark[t] = v;
      ++consumers;
      min_pos = std::min(min_pos, pos[t]);
    }
    if (min_pos == kNone || min_pos <= i + 1) continue;
    const uint32_t j = min_pos;
    next[tail[i]] = head[j];
    head[j] = head[i];
    size[j] += size[i];
    head[i] = kNone;
    if (consumers > 1) movable[j] = 0;
    moved = true;
  }
  if (!moved) return;
  order->clear();
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t v = head[i]; v != kNone; v = next[v]) {
      order->push_back(v);
      if (v == tail[i]) break;
    }
  }
}

}  // namespace topo
}  // namespace ge
