// ops/compute/eltwise/eltwise_loops.cc
#include "ops/compute/eltwise/eltwise_loops.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {
namespace {

constexpr int64_t kGrain = 1 << 15;
constexpr int64_t kScanBlock = 1024;

// Bits of a float / bf16 with the sign cleared, above the infinity: NaN.
constexpr uint32_t kF32Abs = 0x7fffffffu, kF32Inf = 0x7f800000u;
constexpr uint16_t kBf16Abs = 0x7fffu, kBf16Inf = 0x7f80u;
constexpr uint16_t kBf16Sign = 0x8000u, kBf16NegZero = 0x8000u;
constexpr uint16_t kBf16NegInf = 0xff80u, kBf16Nan = 0x7fc0u;

inline uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
// Exact for a float that is a bf16 value (bounds and the value 1).
inline uint16_t FloatToBf16Bits(float f) { return static_cast<uint16_t>(Bits(f) >> 16); }

// Whether [b, e) of `s` (float or bf16 bits) holds a NaN: a vectorised OR.
bool AnyNanF32(const uint32_t* s, int64_t b, int64_t e) {
  uint32_t any = 0;
  for (int64_t i = b; i < e; ++i) any |= (s[i] & kF32Abs) > kF32Inf;
  return any != 0;
}
bool AnyNanBf16(const uint16_t* s, int64_t b, int64_t e) {
  uint32_t any = 0;
  for (int64_t i = b; i < e; ++i) any |= (s[i] & kBf16Abs) > kBf16Inf;
  return any != 0;
}

// Calls fix(begin, end) for every scan block of [0, count) whose `scan`
// reports a NaN.
template <typename Scan, typename Fix>
void ForNanBlocks(int64_t count, Scan scan, Fix fix) {
  ParallelFor(count, kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; i += kScanBlock) {
      const int64_t j = i + kScanBlock < e ? i + kScanBlock : e;
      if (scan(i, j)) fix(i, j);
    }
  });
}

}  // namespace

float Bf16ToFloat(uint16_t bits) {
  const uint32_t u = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

void ReluLoop(ge::DataType dt, const void* src, void* dst, int64_t count) {
  if (dt == ge::DT_FLOAT) {
    const float* s = static_cast<const float*>(src);
    float* d = static_cast<float*>(dst);
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        // NaN fails the comparison and passes through: one maxps.
        const float v = s[i];
        d[i] = 0.0f > v ? 0.0f : v;
      }
    });
  } else if (dt == ge::DT_BF16) {
    const uint16_t* s = static_cast<const uint16_t*>(src);
    uint16_t* d = static_cast<uint16_t*>(dst);
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const uint16_t v = s[i];
        // Negative (sign set) and not NaN: 0.
        d[i] = (v & kBf16Sign) != 0 && (v & kBf16Abs) <= kBf16Inf ? uint16_t{0} : v;
      }
    });
  }
}

void ZeroSlopeLoop(ge::DataType dt, const void* src, void* dst, int64_t count) {
  if (dt == ge::DT_FLOAT) {
    const float* s = static_cast<const float*>(src);
    float* d = static_cast<float*>(dst);
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const float v = s[i];
        d[i] = v < 0.0f ? 0.0f * v : v;
      }
    });
  } else if (dt == ge::DT_BF16) {
    const uint16_t* s = static_cast<const uint16_t*>(src);
    uint16_t* d = static_cast<uint16_t*>(dst);
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const uint16_t v = s[i];
        const bool negative =
            (v & kBf16Sign) != 0 && (v & kBf16Abs) != 0 && (v & kBf16Abs) <= kBf16Inf;
        // 0 * v: -0 for a finite negative v, NaN for -inf.
        d[i] = !negative ? v : (v == kBf16NegInf ? kBf16Nan : kBf16NegZero);
      }
    });
  }
}

void ClampLoop(ge::DataType dt, const void* src, void* dst, int64_t count, bool has_lo, float lo,
               bool has_hi, float hi) {
  if (dt == ge::DT_FLOAT) {
    const float lo_eff = has_lo ? lo : -std::numeric_limits<float>::infinity();
    const float hi_eff = has_hi ? hi : std::numeric_limits<float>::infinity();
    const float* s = static_cast<const float*>(src);
    float* d = static_cast<float*>(dst);
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        // Branch-free (NaN fails both comparisons and passes through).
        float v = s[i];
        v = lo_eff > v ? lo_eff : v;
        v = v > hi_eff ? hi_eff : v;
        d[i] = v;
      }
    });
  } else if (dt == ge::DT_BF16) {
    const uint16_t* s = static_cast<const uint16_t*>(src);
    uint16_t* d = static_cast<uint16_t*>(dst);
    // In blocks through FLOAT: widen (exact), clamp as the FLOAT loop does,
    // narrow by dropping the low half (exact: every result is an input or a
    // bound, both BF16 values; NaN keeps its bits). Three simple loops the
    // compiler vectorises, where one mixed 16 / 32-bit loop stayed scalar
    // (1.1 ns per element).
    const float lo_eff = has_lo ? lo : -std::numeric_limits<float>::infinity();
    const float hi_eff = has_hi ? hi : std::numeric_limits<float>::infinity();
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      constexpr int64_t kBlock = 256;
      uint32_t w[kBlock];
      for (int64_t i0 = b; i0 < e; i0 += kBlock) {
        const int64_t n = std::min(kBlock, e - i0);
        for (int64_t j = 0; j < n; ++j) w[j] = static_cast<uint32_t>(s[i0 + j]) << 16;
        float f[kBlock];
        std::memcpy(f, w, static_cast<size_t>(n) * sizeof(float));
        for (int64_t j = 0; j < n; ++j) {
          float v = f[j];
          v = lo_eff > v ? lo_eff : v;
          v = v > hi_eff ? hi_eff : v;
          f[j] = v;
        }
        std::memcpy(w, f, static_cast<size_t>(n) * sizeof(float));
        for (int64_t j = 0; j < n; ++j) d[i0 + j] = static_cast<uint16_t>(w[j] >> 16);
      }
    });
  }
}

void PropagateNan(ge::DataType dt, const void* src, void* dst, int64_t count) {
  if (dt == ge::DT_FLOAT) {
    const uint32_t* s = static_cast<const uint32_t*>(src);
    uint32_t* d = static_cast<uint32_t*>(dst);
    ForNanBlocks(
        count, [s](int64_t b, int64_t e) { return AnyNanF32(s, b, e); },
        [s, d](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) {
            if ((s[i] & kF32Abs) > kF32Inf) d[i] = s[i];
          }
        });
  } else if (dt == ge::DT_BF16) {
    const uint16_t* s = static_cast<const uint16_t*>(src);
    uint16_t* d = static_cast<uint16_t*>(dst);
    ForNanBlocks(
        count, [s](int64_t b, int64_t e) { return AnyNanBf16(s, b, e); },
        [s, d](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) {
            if ((s[i] & kBf16Abs) > kBf16Inf) d[i] = s[i];
          }
        });
  }
}

void ReplaceNan(ge::DataType dt, void* dst, int64_t count, float value) {
  if (dt == ge::DT_FLOAT) {
    uint32_t* d = static_cast<uint32_t*>(dst);
    const uint32_t v = Bits(value);
    ForNanBlocks(
        count, [d](int64_t b, int64_t e) { return AnyNanF32(d, b, e); },
        [d, v](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) {
            if ((d[i] & kF32Abs) > kF32Inf) d[i] = v;
          }
        });
  } else if (dt == ge::DT_BF16) {
    uint16_t* d = static_cast<uint16_t*>(dst);
    const uint16_t v = FloatToBf16Bits(value);
    ForNanBlocks(
        count, [d](int64_t b, int64_t e) { return AnyNanBf16(d, b, e); },
        [d, v](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) {
            if ((d[i] & kBf16Abs) > kBf16Inf) d[i] = v;
          }
        });
  }
}

void ZeroChannelTail(void* data, int64_t elem_bytes, int64_t n, int64_t c, int64_t hw, int64_t c0) {
  const int64_t used = c % c0;
  if (used == 0) return;
  const int64_t c1 = (c + c0 - 1) / c0;
  uint8_t* base = static_cast<uint8_t*>(data);
  for (int64_t b = 0; b < n; ++b) {
    uint8_t* block = base + ((b * c1 + (c1 - 1)) * hw * c0) * elem_bytes;
    for (int64_t p = 0; p < hw; ++p) {
      std::memset(block + (p * c0 + used) * elem_bytes, 0,
                  static_cast<size_t>((c0 - used) * elem_bytes));
    }
  }
}

}  // namespace compute
}  // namespace ops
