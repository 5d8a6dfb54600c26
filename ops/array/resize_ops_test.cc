// ops/array/resize_ops_test.cc
// Resize and Upsample: every ONNX 1.12 test_resize_* / test_upsample_* case
// (inputs and expected outputs transcribed from the .pb files of
// /usr/share/libonnx-testdata/data/node), plus shape inference, dtypes and
// errors.
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/array/array_test_util.h"

namespace ops {
namespace test {
namespace {

using ::testing::ElementsAre;

struct ResizeCase {
  const char* name;
  const char* op;
  std::vector<std::pair<std::string, std::string>> str_attrs;
  std::vector<std::pair<std::string, int64_t>> int_attrs;
  std::vector<std::pair<std::string, float>> float_attrs;
  std::vector<int64_t> x_dims;
  std::vector<float> x;
  std::vector<float> roi;      // empty: absent
  std::vector<float> scales;   // empty: absent
  std::vector<int64_t> sizes;  // empty: absent
  std::vector<int64_t> y_dims;
  std::vector<float> y;
};

gert::Shape ToShape(const std::vector<int64_t>& d) {
  gert::Shape s;
  for (int64_t v : d) s.AppendDim(v);
  return s;
}

const std::vector<ResizeCase>& OnnxCases() {
  static const std::vector<ResizeCase> kCases = {
      {"test_resize_downsample_scales_cubic",
       "Resize",
       {{"mode", "cubic"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {1, 1, 0.800000012, 0.800000012},
       {},
       {1, 1, 3, 3},
       {1.47119141, 2.78125, 4.08251953, 6.71142578, 8.02148438, 9.32275391, 11.9165039, 13.2265625,
        14.527832}},
      {"test_resize_downsample_scales_cubic_A_n0p5_exclude_outside",
       "Resize",
       {{"mode", "cubic"}},
       {{"exclude_outside", 1}},
       {{"cubic_coeff_a", -0.5f}},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {1, 1, 0.800000012, 0.800000012},
       {},
       {1, 1, 3, 3},
       {1.36812675, 2.6695013, 4.01333666, 6.57362509, 7.875, 9.21883488, 11.948966, 13.2503414,
        14.5941763}},
      {"test_resize_downsample_scales_cubic_align_corners",
       "Resize",
       {{"coordinate_transformation_mode", "align_corners"}, {"mode", "cubic"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {1, 1, 0.800000012, 0.800000012},
       {},
       {1, 1, 3, 3},
       {1, 2.39519167, 3.7903831, 6.5807662, 7.97595787, 9.37114906, 12.1615324, 13.5567236,
        14.9519157}},
      {"test_resize_downsample_scales_linear",
       "Resize",
       {{"mode", "linear"}},
       {},
       {},
       {1, 1, 2, 4},
       {1, 2, 3, 4, 5, 6, 7, 8},
       {},
       {1, 1, 0.600000024, 0.600000024},
       {},
       {1, 1, 1, 2},
       {2.66666651, 4.33333302}},
      {"test_resize_downsample_scales_linear_align_corners",
       "Resize",
       {{"coordinate_transformation_mode", "align_corners"}, {"mode", "linear"}},
       {},
       {},
       {1, 1, 2, 4},
       {1, 2, 3, 4, 5, 6, 7, 8},
       {},
       {1, 1, 0.600000024, 0.600000024},
       {},
       {1, 1, 1, 2},
       {1, 3.14285707}},
      {"test_resize_downsample_scales_nearest",
       "Resize",
       {{"mode", "nearest"}},
       {},
       {},
       {1, 1, 2, 4},
       {1, 2, 3, 4, 5, 6, 7, 8},
       {},
       {1, 1, 0.600000024, 0.600000024},
       {},
       {1, 1, 1, 2},
       {1, 3}},
      {"test_resize_downsample_sizes_cubic",
       "Resize",
       {{"mode", "cubic"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {},
       {1, 1, 3, 3},
       {1, 1, 3, 3},
       {1.63078701, 3.00462961, 4.37847233, 7.12615728, 8.5, 9.87384224, 12.6215277, 13.9953699,
        15.3692131}},
      {"test_resize_downsample_sizes_linear_pytorch_half_pixel",
       "Resize",
       {{"coordinate_transformation_mode", "pytorch_half_pixel"}, {"mode", "linear"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {},
       {1, 1, 3, 1},
       {1, 1, 3, 1},
       {1.66666663, 7, 12.333333}},
      {"test_resize_downsample_sizes_nearest",
       "Resize",
       {{"mode", "nearest"}},
       {},
       {},
       {1, 1, 2, 4},
       {1, 2, 3, 4, 5, 6, 7, 8},
       {},
       {},
       {1, 1, 1, 3},
       {1, 1, 1, 3},
       {1, 2, 4}},
      {"test_resize_downsample_sizes_nearest_tf_half_pixel_for_nn",
       "Resize",
       {{"coordinate_transformation_mode", "tf_half_pixel_for_nn"}, {"mode", "nearest"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {},
       {1, 1, 3, 2},
       {1, 1, 3, 2},
       {6, 8, 10, 12, 14, 16}},
      {"test_resize_tf_crop_and_resize",
       "Resize",
       {{"coordinate_transformation_mode", "tf_crop_and_resize"}, {"mode", "linear"}},
       {},
       {{"extrapolation_value", 10.0f}},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {0, 0, 0.400000006, 0.600000024, 1, 1, 1.20000005, 1.70000005},
       {},
       {1, 1, 3, 3},
       {1, 1, 3, 3},
       {7.60000038, 10, 10, 12.4000006, 10, 10, 10, 10, 10}},
      {"test_resize_upsample_scales_cubic",
       "Resize",
       {{"mode", "cubic"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {1, 1, 2, 2},
       {},
       {1, 1, 8, 8},
       {0.47265625, 0.76953125, 1.24609375, 1.875,      2.28125,    2.91015625, 3.38671875,
        3.68359375, 1.66015625, 1.95703125, 2.43359375, 3.0625,     3.46875,    4.09765625,
        4.57421875, 4.87109375, 3.56640625, 3.86328125, 4.33984375, 4.96875,    5.375,
        6.00390625, 6.48046875, 6.77734375, 6.08203125, 6.37890625, 6.85546875, 7.484375,
        7.890625,   8.51953125, 8.99609375, 9.29296875, 7.70703125, 8.00390625, 8.48046875,
        9.109375,   9.515625,   10.1445312, 10.6210938, 10.9179688, 10.2226562, 10.5195312,
        10.9960938, 11.625,     12.03125,   12.6601562, 13.1367188, 13.4335938, 12.1289062,
        12.4257812, 12.9023438, 13.53125,   13.9375,    14.5664062, 15.0429688, 15.3398438,
        13.3164062, 13.6132812, 14.0898438, 14.71875,   15.125,     15.7539062, 16.2304688,
        16.5273438}},
      {"test_resize_upsample_scales_cubic_A_n0p5_exclude_outside",
       "Resize",
       {{"mode", "cubic"}},
       {{"exclude_outside", 1}},
       {{"cubic_coeff_a", -0.5f}},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {1, 1, 2, 2},
       {},
       {1, 1, 8, 8},
       {0.558823526, 0.814942062, 1.35698247, 1.89705884, 2.39705873, 2.93713522, 3.47917557,
        3.7352941,   1.58329761,  1.83941603, 2.38145661, 2.92153287, 3.42153287, 3.96160913,
        4.50364971,  4.75976801,  3.75145936, 4.0075779,  4.54961824, 5.0896945,  5.5896945,
        6.12977076,  6.67181158,  6.92792988, 5.91176462, 6.1678834,  6.70992374, 7.25,
        7.75,        8.29007626,  8.83211708, 9.0882349,  7.91176462, 8.16788292, 8.70992374,
        9.25,        9.75,        10.2900763, 10.8321171, 11.0882349, 10.0720701, 10.3281889,
        10.8702288,  11.410305,   11.910305,  12.4503813, 12.9924221, 13.2485409, 12.2402315,
        12.4963503,  13.0383911,  13.5784674, 14.0784674, 14.6185436, 15.1605835, 15.4167023,
        13.2647057,  13.5208244,  14.0628653, 14.6029415, 15.1029415, 15.6430178, 16.1850586,
        16.4411774}},
      {"test_resize_upsample_scales_cubic_align_corners",
       "Resize",
       {{"coordinate_transformation_mode", "align_corners"}, {"mode", "cubic"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {1, 1, 2, 2},
       {},
       {1, 1, 8, 8},
       {1,          1.34110785, 1.80029154, 2.32944608, 2.67055392, 3.19970846, 3.65889215,
        4,          2.36443138, 2.70553946, 3.16472292, 3.69387746, 4.03498554, 4.56413984,
        5.02332354, 5.36443138, 4.20116615, 4.542274,   5.00145769, 5.53061247, 5.87172031,
        6.40087461, 6.86005831, 7.20116615, 6.31778431, 6.65889215, 7.11807585, 7.64723015,
        7.98833799, 8.51749229, 8.97667599, 9.31778431, 7.68221569, 8.02332401, 8.48250771,
        9.01166153, 9.35276985, 9.88192463, 10.3411083, 10.6822157, 9.79883385, 10.1399412,
        10.5991249, 11.1282797, 11.469388,  11.9985418, 12.4577255, 12.7988338, 11.6355686,
        11.976676,  12.4358597, 12.9650145, 13.3061228, 13.8352766, 14.2944603, 14.6355686,
        13,         13.3411083, 13.800292,  14.3294458, 14.6705542, 15.199708,  15.6588917,
        16}},
      {"test_resize_upsample_scales_cubic_asymmetric",
       "Resize",
       {{"coordinate_transformation_mode", "asymmetric"}, {"mode", "cubic"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {1, 1, 2, 2},
       {},
       {1, 1, 8, 8},
       {1,      1.40625,  2,      2.5,      3,      3.59375,  4,      4.09375,  2.625,  3.03125,
        3.625,  4.125,    4.625,  5.21875,  5.625,  5.71875,  5,      5.40625,  6,      6.5,
        7,      7.59375,  8,      8.09375,  7,      7.40625,  8,      8.5,      9,      9.59375,
        10,     10.09375, 9,      9.40625,  10,     10.5,     11,     11.59375, 12,     12.09375,
        11.375, 11.78125, 12.375, 12.875,   13.375, 13.96875, 14.375, 14.46875, 13,     13.40625,
        14,     14.5,     15,     15.59375, 16,     16.09375, 13.375, 13.78125, 14.375, 14.875,
        15.375, 15.96875, 16.375, 16.46875}},
      {"test_resize_upsample_scales_linear",
       "Resize",
       {{"mode", "linear"}},
       {},
       {},
       {1, 1, 2, 2},
       {1, 2, 3, 4},
       {},
       {1, 1, 2, 2},
       {},
       {1, 1, 4, 4},
       {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4}},
      {"test_resize_upsample_scales_linear_align_corners",
       "Resize",
       {{"coordinate_transformation_mode", "align_corners"}, {"mode", "linear"}},
       {},
       {},
       {1, 1, 2, 2},
       {1, 2, 3, 4},
       {},
       {1, 1, 2, 2},
       {},
       {1, 1, 4, 4},
       {1, 1.33333337, 1.66666663, 2, 1.66666663, 2, 2.33333325, 2.66666675, 2.33333325, 2.66666675,
        3, 3.33333325, 3, 3.33333325, 3.66666675, 4}},
      {"test_resize_upsample_scales_nearest",
       "Resize",
       {{"mode", "nearest"}},
       {},
       {},
       {1, 1, 2, 2},
       {1, 2, 3, 4},
       {},
       {1, 1, 2, 3},
       {},
       {1, 1, 4, 6},
       {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}},
      {"test_resize_upsample_sizes_cubic",
       "Resize",
       {{"mode", "cubic"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {},
       {1, 1, 9, 10},
       {1, 1, 9, 10},
       {0.455079228, 0.640579224, 0.971579194, 1.42257917, 1.9073292,  2.22332931, 2.7080791,
        3.15907931,  3.49007916,  3.67557931,  1.39437962, 1.57987964, 1.91087961, 2.36187959,
        2.84662962,  3.1626296,   3.64737964,  4.09837961, 4.42937946, 4.61487961, 2.95130682,
        3.13680696,  3.46780682,  3.91880703,  4.40355682, 4.71955681, 5.20430708, 5.65530682,
        5.98630714,  6.17180681,  5.20525074,  5.39075089, 5.72175074, 6.17275047, 6.65750074,
        6.97350073,  7.45825052,  7.90925074,  8.24025059, 8.42575073, 6.88975,    7.07525015,
        7.40625,     7.85725021,  8.34200001,  8.65799999, 9.14274979, 9.59375,    9.92475033,
        10.1102505,  8.57424927,  8.75974941,  9.09074974, 9.541749,   10.0264997, 10.3424997,
        10.8272495,  11.2782497,  11.6092491,  11.7947493, 10.8281927, 11.0136929, 11.3446932,
        11.7956934,  12.2804432,  12.5964432,  13.081193,  13.5321932, 13.8631935, 14.0486927,
        12.3851204,  12.5706205,  12.9016199,  13.3526201, 13.8373699, 14.1533699, 14.6381207,
        15.0891199,  15.4201202,  15.6056204,  13.3244209, 13.5099211, 13.8409204, 14.2919207,
        14.7766705,  15.0926704,  15.5774212,  16.0284214, 16.3594208, 16.54492}},
      {"test_resize_upsample_sizes_nearest",
       "Resize",
       {{"mode", "nearest"}},
       {},
       {},
       {1, 1, 2, 2},
       {1, 2, 3, 4},
       {},
       {},
       {1, 1, 7, 8},
       {1, 1, 7, 8},
       {1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1,
        2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4}},
      {"test_resize_upsample_sizes_nearest_ceil_half_pixel",
       "Resize",
       {{"coordinate_transformation_mode", "half_pixel"},
        {"mode", "nearest"},
        {"nearest_mode", "ceil"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {},
       {1, 1, 8, 8},
       {1, 1, 8, 8},
       {1,  2,  2,  3,  3,  4,  4,  4,  5,  6,  6,  7,  7,  8,  8,  8,  5,  6,  6,  7,  7,  8,
        8,  8,  9,  10, 10, 11, 11, 12, 12, 12, 9,  10, 10, 11, 11, 12, 12, 12, 13, 14, 14, 15,
        15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16}},
      {"test_resize_upsample_sizes_nearest_floor_align_corners",
       "Resize",
       {{"coordinate_transformation_mode", "align_corners"},
        {"mode", "nearest"},
        {"nearest_mode", "floor"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {},
       {1, 1, 8, 8},
       {1, 1, 8, 8},
       {1,  1,  1,  2,  2, 3, 3, 4,  1,  1,  1,  2,  2,  3,  3,  4,  1,  1,  1,  2, 2, 3,
        3,  4,  5,  5,  5, 6, 6, 7,  7,  8,  5,  5,  5,  6,  6,  7,  7,  8,  9,  9, 9, 10,
        10, 11, 11, 12, 9, 9, 9, 10, 10, 11, 11, 12, 13, 13, 13, 14, 14, 15, 15, 16}},
      {"test_resize_upsample_sizes_nearest_round_prefer_ceil_asymmetric",
       "Resize",
       {{"coordinate_transformation_mode", "asymmetric"},
        {"mode", "nearest"},
        {"nearest_mode", "round_prefer_ceil"}},
       {},
       {},
       {1, 1, 4, 4},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
       {},
       {},
       {1, 1, 8, 8},
       {1, 1, 8, 8},
       {1,  2,  2,  3,  3,  4,  4,  4,  5,  6,  6,  7,  7,  8,  8,  8,  5,  6,  6,  7,  7,  8,
        8,  8,  9,  10, 10, 11, 11, 12, 12, 12, 9,  10, 10, 11, 11, 12, 12, 12, 13, 14, 14, 15,
        15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16}},
      {"test_upsample_nearest",
       "Upsample",
       {{"mode", "nearest"}},
       {},
       {},
       {1, 1, 2, 2},
       {1, 2, 3, 4},
       {},
       {1, 1, 2, 3},
       {},
       {1, 1, 4, 6},
       {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}},
  };
  return kCases;
}

class ResizeOnnxTest : public ::testing::TestWithParam<size_t> {};

TEST_P(ResizeOnnxTest, MatchesReference) {
  const ResizeCase& c = OnnxCases()[GetParam()];
  SCOPED_TRACE(c.name);
  OpTester t(c.op);
  for (const auto& kv : c.str_attrs) t.Attr<std::string>(kv.first, kv.second);
  for (const auto& kv : c.int_attrs) t.Attr<int64_t>(kv.first, kv.second);
  for (const auto& kv : c.float_attrs) t.Attr<float>(kv.first, kv.second);
  t.Input(F32(ToShape(c.x_dims), c.x));
  const int64_t r = static_cast<int64_t>(c.x_dims.size());
  if (std::string(c.op) == "Upsample") {
    t.Input(F32({r}, c.scales));
  } else {
    if (c.roi.empty()) {
      t.AbsentInput();
    } else {
      t.Input(F32({2 * r}, c.roi));
    }
    if (c.scales.empty()) {
      t.AbsentInput();
    } else {
      t.Input(F32({r}, c.scales));
    }
    if (!c.sizes.empty()) t.Input(I64({r}, c.sizes));
  }
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.InferredShape(0), ToShape(c.y_dims));
  ASSERT_EQ(t.OutShape(0), ToShape(c.y_dims));
  const std::vector<float> got = t.Values<float>(0);
  ASSERT_EQ(got.size(), c.y.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], c.y[i], 1e-4 * std::max(1.0f, std::fabs(c.y[i]))) << "element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Onnx, ResizeOnnxTest, ::testing::Range<size_t>(0, 24),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return std::string(OnnxCases()[info.param].name).substr(5);
                         });

TEST(ResizeOnnxTableTest, CoversEveryCase) { EXPECT_EQ(OnnxCases().size(), 24u); }

// ------------------------------------------------------------ other dtypes

TEST(ResizeTest, NearestMovesStringsAndEmptyScalesCountAsAbsent) {
  OpTester t("Resize");
  t.Input(Str({1, 2}, {"a", "b"}))
      .Input(F32({0}, {}))  // empty roi
      .Input(F32({0}, {}))  // empty scales: absent
      .Input(I64({2}, {2, 4}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 4}));
  EXPECT_THAT(t.Values<std::string>(0), ElementsAre("a", "a", "b", "b", "a", "a", "b", "b"));
}

TEST(ResizeTest, LinearOnUint8RoundsAndFp16Works) {
  OpTester u("Resize");
  u.Attr<std::string>("mode", "linear")
      .Attr<std::string>("coordinate_transformation_mode", "align_corners")
      .Input(U8({3}, {0, 5, 255}))
      .AbsentInput()
      .AbsentInput()
      .Input(I64({1}, {5}));
  ASSERT_OK(u.Run());
  // x * 2 / 4: 0, 0.5, 1, 1.5, 2 -> 0, 2.5, 5, 130, 255 (2.5 rounds to even).
  EXPECT_THAT(u.Values<uint8_t>(0), ElementsAre(0, 2, 5, 130, 255));
  OpTester h("Resize");
  h.Attr<std::string>("mode", "linear").Input(F16({2}, {1, 3})).AbsentInput().Input(F32({1}, {2}));
  ASSERT_OK(h.Run());
  // half_pixel: x_orig = -0.25, 0.25, 0.75, 1.25 -> 1, 1.5, 2.5, 3.
  EXPECT_THAT(h.HalfValues(0), ElementsAre(1, 1.5, 2.5, 3));
  OpTester b("Resize");
  b.Attr<std::string>("mode", "linear").Input(Bool({2}, {1, 0})).AbsentInput().Input(F32({1}, {2}));
  EXPECT_TRUE(IsNodeError(b.Run(), "DT_BOOL"));
}

TEST(ResizeTest, NearestCropAndResizeExtrapolates) {
  OpTester t("Resize");
  t.Attr<std::string>("coordinate_transformation_mode", "tf_crop_and_resize")
      .Attr<float>("extrapolation_value", -1.f)
      .Input(I32({4}, {10, 20, 30, 40}))
      .Input(F32({2}, {0.5f, 1.5f}))
      .AbsentInput()
      .Input(I64({1}, {4}));
  ASSERT_OK(t.Run());
  // x_orig = 1.5 + x * 3 / 3 = 1.5, 2.5, 3.5, 4.5: round_prefer_floor -> 1, 2, out, out.
  EXPECT_THAT(t.Values<int32_t>(0), ElementsAre(20, 30, -1, -1));
}

TEST(ResizeTest, CropAndResizeWithScalesUsesRoiExtent) {
  // out = floor(4 * (0.75 - 0.25) * 2) = 4; x_orig = 0.75 + x * 0.5 * 3 / 3.
  OpTester t("Resize");
  t.Attr<std::string>("mode", "linear")
      .Attr<std::string>("coordinate_transformation_mode", "tf_crop_and_resize")
      .Input(F32({4}, {10, 20, 30, 40}))
      .Input(F32({2}, {0.25f, 0.75f}))
      .Input(F32({1}, {2}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{4}));
  EXPECT_THAT(t.Values<float>(0), ElementsAre(17.5, 22.5, 27.5, 32.5));
  // Unknown roi: the output dims are unknown too.
  ge::NamedAttrs a;
  ASSERT_OK(a.SetAttr("coordinate_transformation_mode",
                      ge::AttrValue::CreateFrom<std::string>("tf_crop_and_resize")));
  gert::HostTensor scales = F32({1}, {2});
  auto r = InferOp("Resize", &a, {In{{4}}, In{{2}}, Val(scales)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1}));
}

TEST(ResizeTest, IdentityScalesCopy) {
  OpTester t("Resize");
  t.Attr<std::string>("mode", "cubic").Input(Iota({2, 3})).AbsentInput().Input(F32({2}, {1, 1}));
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<float>(0), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(UpsampleTest, LinearIsAsymmetric) {
  OpTester t("Upsample");
  t.Attr<std::string>("mode", "linear").Input(F32({2}, {1, 3})).Input(F32({1}, {2}));
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 3, 3));
}

// ------------------------------------------------------------ infer / errors

TEST(ResizeInferTest, UnknownValuesAndDims) {
  ge::NamedAttrs a;
  auto r = InferOp("Resize", &a, {In{{1, 3, 4, 4}}, AbsentIn(), In{{4}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, -1, -1}));
  gert::HostTensor scales = F32({4}, {1, 1, 2, 0.5f});
  r = InferOp("Resize", &a, {In{{1, -1, 4, 5}}, AbsentIn(), Val(scales)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{1, -1, 8, 2}));
  gert::HostTensor sizes = I64({2}, {7, 9});
  r = InferOp("Resize", &a, {In{{-2}}, AbsentIn(), AbsentIn(), Val(sizes)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{7, 9}));
  r = InferOp("Upsample", &a, {In{{2, 2}}, In{{2}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
}

TEST(ResizeInferTest, Errors) {
  ge::NamedAttrs a;
  gert::HostTensor scales = F32({2}, {1, 2});
  gert::HostTensor sizes = I64({2}, {1, 2});
  EXPECT_TRUE(IsNodeError(InferOp("Resize", &a, {In{{2, 2}}, AbsentIn(), AbsentIn()}, 1).status,
                          "one of scales and sizes"));
  EXPECT_TRUE(IsNodeError(
      InferOp("Resize", &a, {In{{2, 2}}, AbsentIn(), Val(scales), Val(sizes)}, 1).status,
      "both scales and sizes"));
  EXPECT_TRUE(IsNodeError(InferOp("Resize", &a, {In{{2, 2, 2}}, AbsentIn(), Val(scales)}, 1).status,
                          "rank 3"));
  gert::HostTensor zero = F32({2}, {1, 0});
  EXPECT_TRUE(IsNodeError(InferOp("Resize", &a, {In{{2, 2}}, AbsentIn(), Val(zero)}, 1).status,
                          "scales[1] = 0"));
  ge::NamedAttrs bad;
  ASSERT_OK(bad.SetAttr("mode", ge::AttrValue::CreateFrom<std::string>("area")));
  EXPECT_TRUE(IsNodeError(InferOp("Resize", &bad, {In{{2, 2}}, AbsentIn(), Val(scales)}, 1).status,
                          "area"));
  ge::NamedAttrs ct;
  ASSERT_OK(ct.SetAttr("coordinate_transformation_mode",
                       ge::AttrValue::CreateFrom<std::string>("corners")));
  EXPECT_TRUE(IsNodeError(InferOp("Resize", &ct, {In{{2, 2}}, AbsentIn(), Val(scales)}, 1).status,
                          "corners"));
}

TEST(ResizeTest, EmptyAxisCannotGrow) {
  OpTester t("Resize");
  t.Input(F32({0, 2}, {})).AbsentInput().AbsentInput().Input(I64({2}, {2, 2}));
  EXPECT_TRUE(IsNodeError(t.Run(), "empty axis 0"));
}

}  // namespace
}  // namespace test
}  // namespace ops
