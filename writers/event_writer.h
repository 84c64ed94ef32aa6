// Serialized Event payloads built with the protoc-generated classes of proto/, in every
// encoding the writers in the wild use (TFEVENTS.md §4.1). Frame them with frame_record().
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/result.h"
#include "writers/tfrecord_writer.h"

namespace runtop::events {

// A DataType value from proto/types.proto.
enum class DType : int {
    kFloat = 1,
    kDouble = 2,
    kInt32 = 3,
    kUInt8 = 4,
    kInt16 = 5,
    kInt8 = 6,
    kInt64 = 9,
    kBool = 10,
    kBFloat16 = 14,
    kUInt16 = 17,
    kHalf = 19,
    kUInt32 = 22,
    kUInt64 = 23,
};

// How a tensor scalar carries its value.
enum class Encoding {
    kTypedField,     // float_val / double_val / int_val / half_val / ... (PyTorch new_style)
    kTensorContent,  // little-endian bytes in tensor_content (TF2, Keras)
};

std::string file_version(double wall_time, std::string_view version = "brain.Event:2");
// PyTorch/tensorboardX add_scalar: `simple_value`, no metadata.
std::string simple_scalar(std::string_view tag, float value, std::int64_t step, double wall_time);
// A rank-0 tensor of `dtype`. `shape_one` writes shape [1] instead of no dims. With
// `metadata`, plugin "scalars" rides along (TF2 sends it with every value, TF1 with the first).
std::string tensor_scalar(std::string_view tag, DType dtype, double value, Encoding encoding,
                          std::int64_t step, double wall_time, bool metadata = true,
                          bool shape_one = false);
// A text summary (plugin "text", DT_STRING tensor), as PyTorch add_text writes it.
std::string text(std::string_view tag, std::string_view text, std::int64_t step, double wall_time);
// The hparams plugin's session start, as PyTorch add_hparams and Lightning's TensorBoardLogger
// write it: a value with no tensor, tag "_hparams_/session_start_info", plugin "hparams" whose
// content is an HParamsPluginData with SessionStartInfo.hparams, a map of google.protobuf.Value
// (number, string or bool). Hand-encoded: proto/ holds no hparams schema.
using HParamValue = std::variant<double, std::string, bool>;
std::string hparams_session_start(const std::vector<std::pair<std::string, HParamValue>>& hparams,
                                  std::int64_t step, double wall_time);
// A legacy `histo` value of `values` as TF1 bins them: up to 30 equal buckets from the least
// value to the greatest, the last bucket's limit DBL_MAX.
std::string histogram(std::string_view tag, const std::vector<double>& values, std::int64_t step,
                      double wall_time);
// A legacy `histo` value as given (PyTorch, tensorboardX, TF1): bucket_limit (right edges) and
// bucket (counts).
std::string histogram_proto(std::string_view tag, double min, double max,
                            const std::vector<double>& bucket_limit,
                            const std::vector<double>& bucket, std::int64_t step, double wall_time);
// TF2 tf.summary.histogram: plugin "histograms" (with `metadata`), a [k, 3] tensor of (left,
// right, count) rows, DT_DOUBLE in tensor_content (DT_FLOAT with `as_float`).
std::string histogram_tensor(std::string_view tag, const std::vector<std::array<double, 3>>& rows,
                             std::int64_t step, double wall_time, bool metadata = true,
                             bool as_float = false);
std::string session_start(std::int64_t step, double wall_time);
// A MindSpore SummaryRecord scalar: Value field 3 as fixed32 (TFEVENTS.md §5).
std::string mindspore_scalar(std::string_view tag, float value, std::int64_t step,
                             double wall_time);

// The file name PyTorch's writer uses: events.out.tfevents.<10-digit secs>.<host>.<pid>.<n>
std::string event_file_name(double wall_time, int index);

}  // namespace runtop::events
