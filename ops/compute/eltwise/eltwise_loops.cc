// ops/compute/eltwise/eltwise_loops.cc
#include "ops/compute/eltwise/eltwise_loops.h"

#include <cstring>
#include <limits>

#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {
namespace {

constexpr int64_t kGrain = 1 << 15;

inline bool IsNanBf16(uint16_t b) { return (b & 0x7fffu) > 0x7f80u; }
inline float Bf16ToFloat(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}
// Exact for a float that is a bf16 value (bounds and the value 1).
inline uint16_t FloatToBf16Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return static_cast<uint16_t>(u >> 16);
}

}  // namespace

void PropagateNan(ge::DataType dt, const void* src, void* dst, int64_t count, bool neg_inf_too) {
  if (dt == ge::DT_FLOAT) {
    const float* s = static_cast<const float*>(src);
    float* d = static_cast<float*>(dst);
    constexpr float kNegInf = -std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if (s[i] != s[i]) d[i] = s[i];
        if (neg_inf_too && s[i] == kNegInf) d[i] = nan;
      }
    });
  } else if (dt == ge::DT_BF16) {
    const uint16_t* s = static_cast<const uint16_t*>(src);
    uint16_t* d = static_cast<uint16_t*>(dst);
    constexpr uint16_t kNegInfBits = 0xff80u;
    constexpr uint16_t kNanBits = 0x7fc0u;
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if (IsNanBf16(s[i])) d[i] = s[i];
        if (neg_inf_too && s[i] == kNegInfBits) d[i] = kNanBits;
      }
    });
  }
}

void ReplaceNan(ge::DataType dt, void* dst, int64_t count, float value) {
  if (dt == ge::DT_FLOAT) {
    float* d = static_cast<float*>(dst);
    ParallelFor(count, kGrain, [d, value](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if (d[i] != d[i]) d[i] = value;
      }
    });
  } else if (dt == ge::DT_BF16) {
    uint16_t* d = static_cast<uint16_t*>(dst);
    const uint16_t v = FloatToBf16Bits(value);
    ParallelFor(count, kGrain, [d, v](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if (IsNanBf16(d[i])) d[i] = v;
      }
    });
  }
}

void ClampLoop(ge::DataType dt, const void* src, void* dst, int64_t count, bool has_lo, float lo,
               bool has_hi, float hi) {
  if (dt == ge::DT_FLOAT) {
    const float* s = static_cast<const float*>(src);
    float* d = static_cast<float*>(dst);
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        float v = s[i];
        if (has_lo && v < lo) v = lo;
        if (has_hi && v > hi) v = hi;
        d[i] = v;
      }
    });
  } else if (dt == ge::DT_BF16) {
    const uint16_t* s = static_cast<const uint16_t*>(src);
    uint16_t* d = static_cast<uint16_t*>(dst);
    const uint16_t lo_bits = FloatToBf16Bits(lo);
    const uint16_t hi_bits = FloatToBf16Bits(hi);
    ParallelFor(count, kGrain, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        uint16_t out = s[i];
        float v = Bf16ToFloat(out);
        if (has_lo && v < lo) {
          out = lo_bits;
          v = lo;
        }
        if (has_hi && v > hi) out = hi_bits;
        d[i] = out;
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
