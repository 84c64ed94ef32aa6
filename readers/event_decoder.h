// Decodes one TensorBoard Event payload (TFEVENTS.md §3-§5) without building a message tree.
// Scalars: `simple_value`, and tensors with exactly one element of any numeric dtype (float,
// double, half, bfloat16, ints, bool; `*_val` or little-endian `tensor_content`) whose plugin is
// "scalars" (or data class SCALAR). Text summaries are passed on as configuration text.
// Histograms (Value.histo, and "histograms" plugin tensors of [k,3] rows) are compressed to
// TensorBoard's nine quantiles (core/distribution.h) and passed on as a distribution.
// Everything else (images, audio, graphs, MindSpore histograms, ...) is counted and skipped.
// MindSpore SummaryRecord files share the framing but not the schema: after a
// "MindSpore.Event:" version record, Value field 3 is a fixed32 scalar and field 9 a histogram.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/distribution.h"

namespace runtop {

class EventHandler {
  public:
    virtual ~EventHandler() = default;
    virtual void on_scalar(std::string_view tag, std::int64_t step, double wall_time,
                           double value) = 0;
    virtual void on_text(std::string_view tag, std::int64_t step, double wall_time,
                         std::string text) = 0;
    virtual void on_session_start(std::int64_t step, double wall_time) = 0;
    // A histogram (Value.histo, or a "histograms" plugin tensor of [left, right, count] rows)
    // compressed to TensorBoard's nine quantiles (core/distribution.h). Only the decoder's own
    // readers want them: the default drops them.
    virtual void on_distribution(std::string_view tag, std::int64_t step, double wall_time,
                                 const DistributionValues& quantiles) {
        (void)tag, (void)step, (void)wall_time, (void)quantiles;
    }
};

struct DecodeCounts {
    std::uint64_t events = 0;
    std::uint64_t scalars = 0;
    std::uint64_t texts = 0;
    std::uint64_t distributions = 0;      // histograms, compressed to quantiles
    std::uint64_t non_scalar_values = 0;  // images, audio, other tensors, ...
    std::uint64_t session_starts = 0;
    std::uint64_t undecodable = 0;  // records whose CRCs match but whose protobuf is malformed
};

class EventDecoder {
  public:
    enum class Flavor { kTensorFlow, kMindSpore };

    // Returns false when the payload is not a well-formed Event (nothing is reported then).
    bool decode(std::string_view payload, EventHandler& handler);

    Flavor flavor() const { return flavor_; }
    const std::string& file_version() const { return file_version_; }
    const std::string& writer() const { return writer_; }
    const DecodeCounts& counts() const { return counts_; }
    // Forgets per-file state (flavour, tag plugins) when the file is re-read from the start.
    void reset();

  private:
    enum class Plugin : std::uint8_t { kNone, kScalars, kText, kHparams, kHistograms, kOther };
    // The fast path for the common PyTorch `simple_value` record; false when the payload is
    // not exactly that shape (then nothing was reported or counted).
    bool decode_simple_value(std::string_view payload, EventHandler& handler);
    bool decode_summary(std::string_view summary, std::int64_t step, double wall,
                        EventHandler& handler, int& scalars, int& texts, int& others,
                        int& distributions);
    Plugin plugin_for(std::string_view tag, std::string_view metadata, bool& scalar_class);
    // The hparams plugin's session start: one on_text per hyperparameter, tag
    // "_hparams_/<name>"; returns how many (0 for its other records).
    int decode_hparams(std::string_view metadata, std::int64_t step, double wall,
                       EventHandler& handler);

    Flavor flavor_ = Flavor::kTensorFlow;
    std::string file_version_;
    std::string writer_;
    DecodeCounts counts_;
    // The plugin of a tag is fixed by the first metadata seen for it: TF writers send the
    // metadata only with a tag's first value.
    struct TagHash {
        using is_transparent = void;  // find() by string_view, without a std::string
        std::size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };
    std::unordered_map<std::string, Plugin, TagHash, std::equal_to<>> tag_plugins_;
    // Reused by every histogram: no allocation per record once they are grown.
    std::vector<double> scratch_limits_, scratch_counts_;
    std::vector<HistogramBucket> scratch_buckets_;
};

// Scalar value of a one-element tensor, or false when the tensor is not a numeric scalar.
// Exposed for tests and the fuzzer.
bool tensor_scalar_value(std::string_view tensor_proto, double& value);

}  // namespace runtop
