// ops/detection/nms_op.cc
//
// NonMaxSuppression (ONNX opset 11-17) with a reference host-CPU kernel.
// (RoiAlign lives in ops/nn.)
//
//   boxes  FLOAT [num_batches, spatial_dimension, 4]
//   scores FLOAT [num_batches, num_classes, spatial_dimension]
//   max_output_boxes_per_class INT64 scalar / [1] (optional, absent = 0:
//     no output), iou_threshold FLOAT (optional, default 0, must be in
//     [0, 1]), score_threshold FLOAT (optional, absent = no score filter)
//   -> selected_indices INT64 [num_selected, 3] rows (batch, class, box),
//      batch-major, then class, then selection order.
//
// Per batch and class (as onnxruntime): candidates are the boxes whose score
// is > score_threshold, visited by descending score (lower box index first
// on ties); a candidate is selected unless its IOU with an already selected
// box of the class is > iou_threshold; at most max_output_boxes_per_class are
// selected. center_point_box 0: [y1, x1, y2, x2] (any diagonal corners),
// 1: [x_center, y_center, width, height]. Boxes with no area never suppress.
//
// The output row count depends on the data: infer shape gives [-1, 3] and
// the kernel allocates the output through ctx.AllocateOutput.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

constexpr size_t kBoxes = 0, kScores = 1, kMaxOutput = 2, kIou = 3, kScoreThreshold = 4;

ge::StatusOr<int64_t> ReadCenterPointBox(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(int64_t c, ctx.GetIntOr("center_point_box", 0));
  if (c != 0 && c != 1) return ctx.Error("attribute center_point_box must be 0 or 1, got ", c);
  return c;
}

bool IsScalarLike(const gert::Shape& s) {
  return s.IsUnknownRank() || s.GetDimNum() == 0 ||
         (s.GetDimNum() == 1 && (s.GetDim(0) == 1 || s.GetDim(0) < 0));
}

ge::StatusOr<std::vector<int64_t>> ComputeNms(const gert::ContextBase& ctx,
                                              const gert::Tensor* const in[5]);

ge::Status InferNms(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(ReadCenterPointBox(ctx).status());
  const gert::Shape* boxes = ctx.GetInputShape(kBoxes);
  const gert::Shape* scores = ctx.GetInputShape(kScores);
  if (boxes == nullptr || scores == nullptr)
    return ctx.Error("inputs 0 (boxes) and 1 (scores) are required");
  if (!boxes->IsUnknownRank()) {
    if (boxes->GetDimNum() != 3 || (boxes->GetDim(2) >= 0 && boxes->GetDim(2) != 4)) {
      return ctx.Error("input 0 (boxes) must be [num_batches, spatial_dimension, 4], got ",
                       boxes->ToString());
    }
  }
  if (!scores->IsUnknownRank() && scores->GetDimNum() != 3) {
    return ctx.Error("input 1 (scores) must be [num_batches, num_classes, spatial_dimension], got ",
                     scores->ToString());
  }
  if (!boxes->IsUnknownRank() && !scores->IsUnknownRank()) {
    for (const auto& [bd, sd, what] :
         {std::make_tuple(0, 0, "num_batches"), std::make_tuple(1, 2, "spatial_dimension")}) {
      const int64_t b = boxes->GetDim(bd), s = scores->GetDim(sd);
      if (b >= 0 && s >= 0 && b != s) {
        return ctx.Error("boxes ", boxes->ToString(), " and scores ", scores->ToString(),
                         " disagree on ", what);
      }
    }
  }
  static const char* const kNames[] = {"", "", "max_output_boxes_per_class", "iou_threshold",
                                       "score_threshold"};
  for (size_t i = kMaxOutput; i <= kScoreThreshold; ++i) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (s != nullptr && !IsScalarLike(*s)) {
      return ctx.Error("input ", i, " (", kNames[i], ") must be a scalar, got ", s->ToString());
    }
  }
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  // Every present input's value known (and boxes / scores valid): the
  // selection itself gives the row count.
  const gert::Tensor* in[5] = {};
  bool known = true;
  for (size_t i = 0; i < 5 && i < ctx.GetInputNum(); ++i) {
    if (ctx.GetInputShape(i) == nullptr) continue;
    in[i] = ctx.GetInputTensor(i);
    known = known && in[i] != nullptr && CheckTensorData(*in[i]).ok();
  }
  known = known && in[kBoxes] != nullptr && in[kScores] != nullptr;
  if (!known) {
    *y = gert::Shape{-1, 3};
    // Each selected row is a distinct (batch, class, box) of scores.
    if (scores->IsUnknownRank() || !WantDataDependentRange(ctx, kScores)) return ge::OkStatus();
    ASSIGN_OR_RETURN(gert::ShapeRange sr, InputRange(ctx, kScores));
    return SetOutputRange(ctx, 0, {SelectedCountRange(NumelRange(sr)), DimRange{3, 3}});
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> selected, ComputeNms(ctx, in));
  *y = gert::Shape{static_cast<int64_t>(selected.size() / 3), 3};
  return ge::OkStatus();
}

ge::Status InferNmsType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ge::DT_INT64);
  return ge::OkStatus();
}

ge::Status VerifyNms(gert::InferShapeContext& ctx) {
  static const ge::DataType kWant[] = {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64, ge::DT_FLOAT,
                                       ge::DT_FLOAT};
  for (size_t i = 0; i < 5; ++i) {
    if (ctx.GetInputShape(i) == nullptr) continue;
    if (ctx.GetInputDataType(i) != kWant[i]) {
      return ctx.Error("input ", i, " must be ", DataTypeName(kWant[i]), ", got ",
                       DataTypeName(ctx.GetInputDataType(i)));
    }
  }
  return ge::OkStatus();
}

// Corners (min, max) of a box in both axes.
struct Box {
  float x_min, x_max, y_min, y_max;
};

Box MakeBox(const float* b, int64_t center_point_box) {
  Box r;
  if (center_point_box == 0) {
    r.y_min = std::min(b[0], b[2]);
    r.y_max = std::max(b[0], b[2]);
    r.x_min = std::min(b[1], b[3]);
    r.x_max = std::max(b[1], b[3]);
  } else {
    const float hw = b[2] / 2, hh = b[3] / 2;
    r.x_min = b[0] - hw;
    r.x_max = b[0] + hw;
    r.y_min = b[1] - hh;
    r.y_max = b[1] + hh;
  }
  return r;
}

// IOU(a, b) > threshold (onnxruntime's SuppressByIOU).
bool Suppresses(const Box& a, const Box& b, float threshold) {
  const float ix_min = std::max(a.x_min, b.x_min), ix_max = std::min(a.x_max, b.x_max);
  if (ix_max <= ix_min) return false;
  const float iy_min = std::max(a.y_min, b.y_min), iy_max = std::min(a.y_max, b.y_max);
  if (iy_max <= iy_min) return false;
  const float inter = (ix_max - ix_min) * (iy_max - iy_min);
  if (inter <= 0.f) return false;
  const float area_a = (a.x_max - a.x_min) * (a.y_max - a.y_min);
  const float area_b = (b.x_max - b.x_min) * (b.y_max - b.y_min);
  const float uni = area_a + area_b - inter;
  if (area_a <= 0.f || area_b <= 0.f || uni <= 0.f) return false;
  return inter / uni > threshold;
}

// The value of an optional scalar input t (nullptr or an empty tensor =
// absent).
ge::StatusOr<double> OptionalScalar(const gert::ContextBase& ctx, const gert::Tensor* t, size_t i,
                                    const char* name, bool* present) {
  *present = false;
  if (t == nullptr) return 0.0;
  ge::Status st = CheckTensorData(*t);
  if (!st.ok()) return WithNode(ctx, ge::Annotate(st, "input ", i, " (", name, "): "));
  ge::StatusOr<std::vector<double>> v = ReadAsDoubles(*t);
  if (!v.ok()) return WithNode(ctx, ge::Annotate(v.status(), "input ", i, " (", name, "): "));
  if (v->empty()) return 0.0;
  if (v->size() != 1) {
    return ctx.Error("input ", i, " (", name, ") must be a scalar, got shape ",
                     t->GetShape().ToString());
  }
  *present = true;
  return (*v)[0];
}

// The selected (batch, class, box) triples, flattened. in[i] is input i's
// tensor (nullptr when absent); boxes and scores must have data.
ge::StatusOr<std::vector<int64_t>> ComputeNms(const gert::ContextBase& ctx,
                                              const gert::Tensor* const in[5]) {
  ASSIGN_OR_RETURN(int64_t center_point_box, ReadCenterPointBox(ctx));
  const gert::Tensor* boxes = in[kBoxes];
  const gert::Tensor* scores = in[kScores];
  if (boxes->GetDataType() != ge::DT_FLOAT || scores->GetDataType() != ge::DT_FLOAT) {
    return ctx.Error("boxes and scores must be DT_FLOAT, got ", DataTypeName(boxes->GetDataType()),
                     " and ", DataTypeName(scores->GetDataType()));
  }
  const gert::Shape& bs = boxes->GetShape();
  const gert::Shape& ss = scores->GetShape();
  if (bs.GetDimNum() != 3 || bs.GetDim(2) != 4) {
    return ctx.Error("input 0 (boxes) must be [num_batches, spatial_dimension, 4], got ",
                     bs.ToString());
  }
  if (ss.GetDimNum() != 3 || ss.GetDim(0) != bs.GetDim(0) || ss.GetDim(2) != bs.GetDim(1)) {
    return ctx.Error("input 1 (scores) has shape ", ss.ToString(), ", expected [", bs.GetDim(0),
                     ", num_classes, ", bs.GetDim(1), "] for boxes ", bs.ToString());
  }
  int64_t max_out = 0;  // absent: no output
  if (const gert::Tensor* t = in[kMaxOutput]) {
    RETURN_IF_ERROR(WithNode(ctx, CheckTensorData(*t)));
    ge::StatusOr<std::vector<int64_t>> v = ReadIntTensor(*t);
    if (!v.ok()) return WithNode(ctx, ge::Annotate(v.status(), "input 2: "));
    if (v->size() > 1) {
      return ctx.Error("input 2 (max_output_boxes_per_class) must be a scalar, got shape ",
                       t->GetShape().ToString());
    }
    if (!v->empty()) max_out = (*v)[0];
  }
  if (max_out < 0) return ctx.Error("max_output_boxes_per_class must be >= 0, got ", max_out);
  bool has_iou = false, has_score = false;
  ASSIGN_OR_RETURN(double iou_d, OptionalScalar(ctx, in[kIou], kIou, "iou_threshold", &has_iou));
  ASSIGN_OR_RETURN(double score_d, OptionalScalar(ctx, in[kScoreThreshold], kScoreThreshold,
                                                  "score_threshold", &has_score));
  const float iou = static_cast<float>(iou_d);
  if (!(iou >= 0.f && iou <= 1.f)) {
    return ctx.Error("iou_threshold must be in [0, 1], got ", iou_d);
  }
  const float score_threshold = static_cast<float>(score_d);

  const int64_t batches = bs.GetDim(0), num_boxes = bs.GetDim(1), classes = ss.GetDim(1);
  const float* box_data = boxes->GetData<float>();
  const float* score_data = scores->GetData<float>();
  std::vector<int64_t> selected;
  if (max_out == 0) return selected;
  std::vector<Box> corners(static_cast<size_t>(num_boxes));
  std::vector<int64_t> order;
  std::vector<int64_t> chosen;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t i = 0; i < num_boxes; ++i) {
      corners[i] = MakeBox(box_data + (b * num_boxes + i) * 4, center_point_box);
    }
    for (int64_t c = 0; c < classes; ++c) {
      const float* sc = score_data + (b * classes + c) * num_boxes;
      order.clear();
      for (int64_t i = 0; i < num_boxes; ++i) {
        if (!has_score || sc[i] > score_threshold) order.push_back(i);
      }
      // Descending score, NaN last (a strict weak order even with NaN).
      auto key = [sc](int64_t i) { return sc[i] == sc[i] ? sc[i] : -HUGE_VALF; };
      std::stable_sort(order.begin(), order.end(),
                       [&key](int64_t l, int64_t r) { return key(l) > key(r); });
      chosen.clear();
      for (int64_t i : order) {
        if (static_cast<int64_t>(chosen.size()) >= max_out) break;
        bool keep = true;
        for (int64_t k : chosen) {
          if (Suppresses(corners[k], corners[i], iou)) {
            keep = false;
            break;
          }
        }
        if (!keep) continue;
        chosen.push_back(i);
        selected.insert(selected.end(), {b, c, i});
      }
    }
  }
  return selected;
}

ge::Status NmsKernel(gert::KernelContext& ctx) {
  const gert::Tensor* in[5] = {};
  ASSIGN_OR_RETURN(in[kBoxes], GetKernelInput(ctx, kBoxes));
  ASSIGN_OR_RETURN(in[kScores], GetKernelInput(ctx, kScores));
  for (size_t i = kMaxOutput; i <= kScoreThreshold; ++i) in[i] = ctx.GetInputTensor(i);
  ASSIGN_OR_RETURN(std::vector<int64_t> selected, ComputeNms(ctx, in));
  const int64_t rows = static_cast<int64_t>(selected.size() / 3);
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, gert::Shape{rows, 3}, ge::DT_INT64));
  std::copy(selected.begin(), selected.end(), y->GetData<int64_t>());
  return ge::OkStatus();
}

}  // namespace

REG_OP(NonMaxSuppression)
    .Input("boxes", ge::TensorType{ge::DT_FLOAT})
    .Input("scores", ge::TensorType{ge::DT_FLOAT})
    .OptionalInput("max_output_boxes_per_class", ge::TensorType{ge::DT_INT64})
    .OptionalInput("iou_threshold", ge::TensorType{ge::DT_FLOAT})
    .OptionalInput("score_threshold", ge::TensorType{ge::DT_FLOAT})
    .Output("selected_indices", ge::TensorType{ge::DT_INT64})
    .Attr("center_point_box", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferNms)
    .InferDataType(InferNmsType)
    .Verify(VerifyNms)
    .DataDependentOutputShape()
    .ValueDependentInput("boxes")
    .ValueDependentInput("scores")
    .ValueDependentInput("max_output_boxes_per_class")
    .ValueDependentInput("iou_threshold")
    .ValueDependentInput("score_threshold");
REG_KERNEL(NonMaxSuppression, ge::kEngineHostCpu).Fn(NmsKernel);

}  // namespace ops
