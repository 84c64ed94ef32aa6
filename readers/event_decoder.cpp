#include "readers/event_decoder.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "readers/protowire.h"

namespace runtop {
namespace {

using wire::Cursor;
using wire::WireType;

// DataType values from types.proto (TFEVENTS.md §3.7).
enum DType : std::uint64_t {
    DT_FLOAT = 1,
    DT_DOUBLE = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 5,
    DT_INT8 = 6,
    DT_STRING = 7,
    DT_INT64 = 9,
    DT_BOOL = 10,
    DT_BFLOAT16 = 14,
    DT_UINT16 = 17,
    DT_HALF = 19,
    DT_UINT32 = 22,
    DT_UINT64 = 23,
};

double half_to_double(std::uint16_t h) {
    int sign = (h >> 15) & 1;
    int exponent = (h >> 10) & 0x1f;
    int mantissa = h & 0x3ff;
    double v;
    if (exponent == 0)
        v = std::ldexp(mantissa, -24);
    else if (exponent == 31)
        v = mantissa ? std::nan("") : INFINITY;
    else
        v = std::ldexp(mantissa + 1024, exponent - 25);
    return sign ? -v : v;
}

double bfloat16_to_double(std::uint16_t b) {
    return wire::as_float(std::uint32_t{b} << 16);
}

// The first element of a repeated numeric field, packed or not, and how many there are.
struct Repeated {
    std::uint64_t count = 0;
    std::uint64_t first = 0;  // raw bits (fixed) or varint value
};

void add_fixed(Repeated& r, Cursor& c, WireType type, int width) {
    if (type == wire::kLengthDelimited) {
        std::string_view packed = c.bytes();
        if (r.count == 0 && packed.size() >= static_cast<size_t>(width))
            std::memcpy(&r.first, packed.data(), width);
        r.count += packed.size() / width;
    } else if ((width == 4 && type == wire::kFixed32) || (width == 8 && type == wire::kFixed64)) {
        std::uint64_t v = width == 4 ? c.fixed32() : c.fixed64();
        if (r.count++ == 0) r.first = v;
    } else {
        c.skip(type);
    }
}

void add_varint(Repeated& r, Cursor& c, WireType type) {
    if (type == wire::kLengthDelimited) {
        Cursor packed(c.bytes());
        while (!packed.done()) {
            std::uint64_t v = packed.varint();
            if (!packed.ok()) break;
            if (r.count++ == 0) r.first = v;
        }
    } else if (type == wire::kVarint) {
        std::uint64_t v = c.varint();
        if (r.count++ == 0) r.first = v;
    } else {
        c.skip(type);
    }
}

struct Tensor {
    std::uint64_t dtype = 0;
    std::int64_t elements = 1;  // product of dims; no shape means rank 0, one element
    std::string_view content;
    Repeated floats, doubles, ints, int64s, bools, halfs, uint32s, uint64s;
    std::vector<std::string_view> strings;
    bool ok = true;
};

// A TensorShapeProto.Dim's size (field 1); 0 when absent, -1 for an unknown dimension.
std::int64_t dim_size(std::string_view dim_bytes) {
    Cursor dim(dim_bytes);
    std::int64_t size = 0;
    std::uint32_t df;
    WireType dt;
    while (dim.next(df, dt)) {
        if (df == 1 && dt == wire::kVarint)
            size = static_cast<std::int64_t>(dim.varint());
        else
            dim.skip(dt);
    }
    return size;
}

std::int64_t shape_elements(std::string_view shape) {
    std::int64_t elements = 1;
    Cursor c(shape);
    std::uint32_t field;
    WireType type;
    while (c.next(field, type)) {
        if (field == 2 && type == wire::kLengthDelimited) {
            const std::int64_t size = dim_size(c.bytes());
            if (size < 0) return -1;  // unknown dimension
            elements = size == 0 ? 0 : (elements > (1LL << 40) / size ? -1 : elements * size);
            if (elements < 0) return -1;
        } else if (field == 3 && type == wire::kVarint) {
            if (c.varint()) return -1;  // unknown_rank
        } else {
            c.skip(type);
        }
    }
    return c.ok() ? elements : -1;
}

Tensor parse_tensor(std::string_view bytes, bool want_strings) {
    Tensor t;
    Cursor c(bytes);
    std::uint32_t field;
    WireType type;
    while (c.next(field, type)) {
        switch (field) {
            case 1:
                if (type == wire::kVarint)
                    t.dtype = c.varint();
                else
                    c.skip(type);
                break;
            case 2:
                if (type == wire::kLengthDelimited)
                    t.elements = shape_elements(c.bytes());
                else
                    c.skip(type);
                break;
            case 4:
                if (type == wire::kLengthDelimited)
                    t.content = c.bytes();
                else
                    c.skip(type);
                break;
            case 5:
                add_fixed(t.floats, c, type, 4);
                break;
            case 6:
                add_fixed(t.doubles, c, type, 8);
                break;
            case 7:
                add_varint(t.ints, c, type);
                break;
            case 8:
                if (type == wire::kLengthDelimited) {
                    std::string_view s = c.bytes();
                    if (want_strings) t.strings.push_back(s);
                } else {
                    c.skip(type);
                }
                break;
            case 10:
                add_varint(t.int64s, c, type);
                break;
            case 11:
                add_varint(t.bools, c, type);
                break;
            case 13:
                add_varint(t.halfs, c, type);
                break;
            case 16:
                add_varint(t.uint32s, c, type);
                break;
            case 17:
                add_varint(t.uint64s, c, type);
                break;
            default:
                c.skip(type);
        }
    }
    t.ok = c.ok();
    return t;
}

template <class T>
T load_le(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

// make_ndarray semantics for a one-element tensor: tensor_content when present, else the
// first element of the dtype's *_val field.
bool scalar_of(const Tensor& t, double& out) {
    if (!t.ok || t.elements != 1) return false;
    const std::string_view c = t.content;
    auto from = [&](size_t width, const Repeated& r, auto convert_content, auto convert_val) {
        if (!c.empty()) {
            if (c.size() != width) return false;
            out = convert_content(c.data());
            return true;
        }
        if (r.count == 0) return false;
        out = convert_val(r.first);
        return true;
    };
    switch (t.dtype) {
        case DT_FLOAT:
            return from(
                4, t.floats, [](const char* p) { return double{load_le<float>(p)}; },
                [](std::uint64_t v) { return double{wire::as_float(std::uint32_t(v))}; });
        case DT_DOUBLE:
            return from(
                8, t.doubles, [](const char* p) { return load_le<double>(p); },
                [](std::uint64_t v) { return wire::as_double(v); });
        case DT_HALF:
            return from(
                2, t.halfs, [](const char* p) { return half_to_double(load_le<std::uint16_t>(p)); },
                [](std::uint64_t v) { return half_to_double(std::uint16_t(v)); });
        case DT_BFLOAT16:
            return from(
                2, t.halfs,
                [](const char* p) { return bfloat16_to_double(load_le<std::uint16_t>(p)); },
                [](std::uint64_t v) { return bfloat16_to_double(std::uint16_t(v)); });
        case DT_INT32:
            return from(
                4, t.ints, [](const char* p) { return double(load_le<std::int32_t>(p)); },
                [](std::uint64_t v) { return double(std::int32_t(v)); });
        case DT_INT16:
            return from(
                2, t.ints, [](const char* p) { return double(load_le<std::int16_t>(p)); },
                [](std::uint64_t v) { return double(std::int16_t(v)); });
        case DT_INT8:
            return from(
                1, t.ints, [](const char* p) { return double(load_le<std::int8_t>(p)); },
                [](std::uint64_t v) { return double(std::int8_t(v)); });
        case DT_UINT8:
            return from(
                1, t.ints, [](const char* p) { return double(load_le<std::uint8_t>(p)); },
                [](std::uint64_t v) { return double(std::uint8_t(v)); });
        case DT_UINT16:
            return from(
                2, t.ints, [](const char* p) { return double(load_le<std::uint16_t>(p)); },
                [](std::uint64_t v) { return double(std::uint16_t(v)); });
        case DT_INT64:
            return from(
                8, t.int64s, [](const char* p) { return double(load_le<std::int64_t>(p)); },
                [](std::uint64_t v) { return double(std::int64_t(v)); });
        case DT_UINT32:
            return from(
                4, t.uint32s, [](const char* p) { return double(load_le<std::uint32_t>(p)); },
                [](std::uint64_t v) { return double(std::uint32_t(v)); });
        case DT_UINT64:
            return from(
                8, t.uint64s, [](const char* p) { return double(load_le<std::uint64_t>(p)); },
                [](std::uint64_t v) { return double(v); });
        case DT_BOOL:
            return from(
                1, t.bools, [](const char* p) { return p[0] ? 1.0 : 0.0; },
                [](std::uint64_t v) { return v ? 1.0 : 0.0; });
        default:
            return false;
    }
}

// Whether decode_summary() gets through `summary` without a framing error: every field of
// the Summary and every field of each Value skips cleanly. decode_summary() reports value by
// value, so decode() checks this first to report nothing for a malformed Event.
bool summary_well_formed(std::string_view summary) {
    Cursor values(summary);
    std::uint32_t field;
    WireType type;
    while (values.next(field, type)) {
        if (field != 1 || type != wire::kLengthDelimited) {
            values.skip(type);
            continue;
        }
        Cursor v(values.bytes());
        std::uint32_t vf;
        WireType vt;
        while (v.next(vf, vt)) v.skip(vt);
        if (!v.ok()) return false;
    }
    return values.ok();
}

// Repeated doubles (or floats widened), packed or one per field.
void add_reals(std::vector<double>& out, Cursor& c, WireType type, int width) {
    if (type == wire::kLengthDelimited) {
        const std::string_view packed = c.bytes();
        for (std::size_t at = 0; at + static_cast<std::size_t>(width) <= packed.size();
             at += static_cast<std::size_t>(width))
            out.push_back(width == 8 ? load_le<double>(packed.data() + at)
                                     : double{load_le<float>(packed.data() + at)});
    } else if (width == 8 && type == wire::kFixed64) {
        out.push_back(wire::as_double(c.fixed64()));
    } else if (width == 4 && type == wire::kFixed32) {
        out.push_back(double{wire::as_float(std::uint32_t(c.fixed32()))});
    } else {
        c.skip(type);
    }
}

// A HistogramProto (Value.histo) as TensorBoard's loader makes it buckets (data_compat).
bool histo_buckets(std::string_view histo, std::vector<double>& limits, std::vector<double>& counts,
                   std::vector<HistogramBucket>& out) {
    double min = 0, max = 0;
    limits.clear();
    counts.clear();
    Cursor c(histo);
    std::uint32_t field;
    WireType type;
    while (c.next(field, type)) {
        if (field == 1 && type == wire::kFixed64)
            min = wire::as_double(c.fixed64());
        else if (field == 2 && type == wire::kFixed64)
            max = wire::as_double(c.fixed64());
        else if (field == 6)
            add_reals(limits, c, type, 8);
        else if (field == 7)
            add_reals(counts, c, type, 8);
        else
            c.skip(type);
    }
    if (!c.ok()) return false;
    out = buckets_from_histo(min, max, limits, counts);
    return true;
}

// A "histograms" plugin tensor (TF2 tf.summary.histogram): DT_DOUBLE or DT_FLOAT of shape
// [k, 3], rows (left, right, count), in tensor_content or *_val. False for any other shape.
bool tensor_buckets(std::string_view tensor, std::vector<double>& values,
                    std::vector<HistogramBucket>& out) {
    std::uint64_t dtype = 0;
    std::string_view content;
    std::vector<std::int64_t> dims;
    values.clear();
    Cursor c(tensor);
    std::uint32_t field;
    WireType type;
    while (c.next(field, type)) {
        if (field == 1 && type == wire::kVarint) {
            dtype = c.varint();
        } else if (field == 2 && type == wire::kLengthDelimited) {
            Cursor shape(c.bytes());
            std::uint32_t sf;
            WireType st;
            while (shape.next(sf, st)) {
                if (sf != 2 || st != wire::kLengthDelimited) {
                    shape.skip(st);
                    continue;
                }
                dims.push_back(dim_size(shape.bytes()));
            }
            if (!shape.ok()) return false;
        } else if (field == 4 && type == wire::kLengthDelimited) {
            content = c.bytes();
        } else if (field == 5) {
            add_reals(values, c, type, 4);
        } else if (field == 6) {
            add_reals(values, c, type, 8);
        } else {
            c.skip(type);
        }
    }
    if (!c.ok() || (dtype != DT_DOUBLE && dtype != DT_FLOAT)) return false;
    if (dims.size() != 2 || dims[1] != 3 || dims[0] < 0) return false;
    // No more rows than the bytes or values could hold (a corrupt size must not overflow).
    const std::size_t held = content.empty() ? values.size() : content.size();
    if (static_cast<std::uint64_t>(dims[0]) > held / 3) return false;
    const auto rows = static_cast<std::size_t>(dims[0]);
    if (!content.empty()) {
        const std::size_t width = dtype == DT_DOUBLE ? 8 : 4;
        if (content.size() != rows * 3 * width) return false;
        values.clear();
        for (std::size_t at = 0; at < content.size(); at += width)
            values.push_back(width == 8 ? load_le<double>(content.data() + at)
                                        : double{load_le<float>(content.data() + at)});
    }
    if (values.size() != rows * 3) return false;
    out.clear();
    for (std::size_t r = 0; r < rows; ++r)
        out.push_back({values[3 * r], values[3 * r + 1], values[3 * r + 2]});
    return true;
}

}  // namespace

// The record PyTorch's add_scalar (and tensorboardX, msProbe) writes, byte for byte:
//   09 <wall_time f64> [10 <step varint>] 2a <len> 0a <len> 0a <len> <tag> 15 <simple_value f32>
// i.e. one Event with wall_time, an optional step, and a Summary of exactly one Value holding
// a tag and a simple_value, each length covering exactly what follows. Anything else (another
// field, another order, a second value, a longer length prefix) returns false without
// reporting, and the general decoder below handles it, reaching the same result for this
// shape. Most records of a large logdir take this path.
bool EventDecoder::decode_simple_value(std::string_view payload, EventHandler& handler) {
    const auto* p = reinterpret_cast<const unsigned char*>(payload.data());
    const unsigned char* const end = p + payload.size();
    // Shortest form: 9 (wall) + 2 (summary key, len) + 2 (value key, len) + 2 (tag key, len)
    // + 5 (simple_value) bytes.
    if (end - p < 20 || p[0] != 0x09) return false;
    std::uint64_t wall_bits;
    std::memcpy(&wall_bits, p + 1, 8);
    p += 9;
    std::uint64_t step = 0;
    if (p[0] == 0x10) {
        ++p;
        if (!wire::read_varint(p, end, step)) return false;
    }
    // Three nested one-byte lengths (below 128); each must end exactly where the payload ends.
    if (end - p < 11 || p[0] != 0x2a || p[1] >= 0x80 || p[1] != end - p - 2 || p[2] != 0x0a ||
        p[3] != end - p - 4 || p[4] != 0x0a || p[5] != end - p - 11)
        return false;
    const unsigned char* tag = p + 6;
    const unsigned char* value = end - 5;
    if (value[0] != 0x15) return false;
    std::uint32_t bits;
    std::memcpy(&bits, value + 1, 4);
    handler.on_scalar(
        std::string_view(reinterpret_cast<const char*>(tag), static_cast<std::size_t>(value - tag)),
        static_cast<std::int64_t>(step), wire::as_double(wall_bits), wire::as_float(bits));
    ++counts_.scalars;
    ++counts_.events;
    return true;
}

bool tensor_scalar_value(std::string_view tensor_proto, double& value) {
    return scalar_of(parse_tensor(tensor_proto, false), value);
}

void EventDecoder::reset() {
    flavor_ = Flavor::kTensorFlow;
    file_version_.clear();
    writer_.clear();
    tag_plugins_.clear();
}

EventDecoder::Plugin EventDecoder::plugin_for(std::string_view tag, std::string_view metadata,
                                              bool& scalar_class) {
    scalar_class = false;
    Plugin own = Plugin::kNone;
    if (!metadata.empty()) {
        Cursor c(metadata);
        std::uint32_t field;
        WireType type;
        while (c.next(field, type)) {
            if (field == 1 && type == wire::kLengthDelimited) {
                Cursor pd(c.bytes());
                std::uint32_t pf;
                WireType pt;
                while (pd.next(pf, pt)) {
                    if (pf == 1 && pt == wire::kLengthDelimited) {
                        std::string_view name = pd.bytes();
                        own = name == "scalars"      ? Plugin::kScalars
                              : name == "text"       ? Plugin::kText
                              : name == "hparams"    ? Plugin::kHparams
                              : name == "histograms" ? Plugin::kHistograms
                              : name.empty()         ? Plugin::kNone
                                                     : Plugin::kOther;
                    } else {
                        pd.skip(pt);
                    }
                }
            } else if (field == 4 && type == wire::kVarint) {
                scalar_class = c.varint() == 1;  // DATA_CLASS_SCALAR
            } else {
                c.skip(type);
            }
        }
    }
    if (own != Plugin::kNone) {
        // Looked up by string_view first: TF2 sends the metadata with every value, and a
        // std::string per record would allocate for every tag longer than 15 bytes.
        if (tag_plugins_.find(tag) == tag_plugins_.end()) tag_plugins_.emplace(tag, own);
        return own;
    }
    auto it = tag_plugins_.find(tag);
    return it == tag_plugins_.end() ? Plugin::kNone : it->second;
}

namespace {

// A google.protobuf.Value as text: numbers in their shortest round-trip form (32, 0.1), strings
// as they are, bools as true / false; nullopt for null, structs and lists (the hparams plugin
// has none).
std::optional<std::string> protobuf_value_text(std::string_view value) {
    Cursor c(value);
    std::uint32_t field;
    WireType type;
    std::optional<std::string> out;
    while (c.next(field, type)) {
        if (field == 2 && type == wire::kFixed64) {
            const double d = wire::as_double(c.fixed64());
            char buf[32];
            const auto r = std::to_chars(buf, buf + sizeof buf, d);
            out.emplace(buf, r.ptr);
        } else if (field == 3 && type == wire::kLengthDelimited) {
            out.emplace(c.bytes());
        } else if (field == 4 && type == wire::kVarint) {
            out.emplace(c.varint() != 0 ? "true" : "false");
        } else {
            c.skip(type);
        }
    }
    if (!c.ok()) return std::nullopt;
    return out;
}

}  // namespace

int EventDecoder::decode_hparams(std::string_view metadata, std::int64_t step, double wall,
                                 EventHandler& handler) {
    // SummaryMetadata.plugin_data (1) .content (2): an HParamsPluginData whose
    // session_start_info (3) holds hparams (1), a map<string, Value> (entries: key 1, value 2).
    std::string_view content;
    Cursor m(metadata);
    std::uint32_t field;
    WireType type;
    while (m.next(field, type)) {
        if (field != 1 || type != wire::kLengthDelimited) {
            m.skip(type);
            continue;
        }
        Cursor pd(m.bytes());
        while (pd.next(field, type)) {
            if (field == 2 && type == wire::kLengthDelimited)
                content = pd.bytes();
            else
                pd.skip(type);
        }
    }
    int emitted = 0;
    Cursor data(content);
    while (data.next(field, type)) {
        if (field != 3 || type != wire::kLengthDelimited) {
            data.skip(type);
            continue;
        }
        Cursor start(data.bytes());
        while (start.next(field, type)) {
            if (field != 1 || type != wire::kLengthDelimited) {
                start.skip(type);
                continue;
            }
            Cursor entry(start.bytes());
            std::string_view key, value;
            while (entry.next(field, type)) {
                if (field == 1 && type == wire::kLengthDelimited)
                    key = entry.bytes();
                else if (field == 2 && type == wire::kLengthDelimited)
                    value = entry.bytes();
                else
                    entry.skip(type);
            }
            if (!entry.ok() || key.empty()) continue;
            std::optional<std::string> text = protobuf_value_text(value);
            if (!text) continue;
            std::string tag = "_hparams_/";
            tag += key;
            handler.on_text(tag, step, wall, std::move(*text));
            ++emitted;
        }
    }
    return emitted;
}

bool EventDecoder::decode_summary(std::string_view summary, std::int64_t step, double wall,
                                  EventHandler& handler, int& scalars, int& texts, int& others,
                                  int& distributions) {
    Cursor values(summary);
    std::uint32_t field;
    WireType type;
    const bool mindspore = flavor_ == Flavor::kMindSpore;
    while (values.next(field, type)) {
        if (field != 1 || type != wire::kLengthDelimited) {
            values.skip(type);
            continue;
        }
        Cursor v(values.bytes());
        std::string_view tag, tensor, metadata, histo;
        bool has_simple = false, has_histo = false;
        float simple = 0;
        std::uint32_t vf;
        WireType vt;
        while (v.next(vf, vt)) {
            if (vf == 1 && vt == wire::kLengthDelimited) {
                tag = v.bytes();
            } else if (vf == 2 && vt == wire::kFixed32 && !mindspore) {
                has_simple = true;
                simple = wire::as_float(v.fixed32());
            } else if (vf == 3 && vt == wire::kFixed32 && mindspore) {  // MindSpore scalar_value
                has_simple = true;
                simple = wire::as_float(v.fixed32());
            } else if (vf == 5 && vt == wire::kLengthDelimited && !mindspore) {
                histo = v.bytes();
                has_histo = true;
            } else if (vf == 8 && vt == wire::kLengthDelimited && !mindspore) {
                tensor = v.bytes();
            } else if (vf == 9 && vt == wire::kLengthDelimited && !mindspore) {
                metadata = v.bytes();
            } else {
                v.skip(vt);
            }
        }
        if (!v.ok()) return false;
        if (has_simple) {
            handler.on_scalar(tag, step, wall, simple);
            ++scalars;
            continue;
        }
        if (has_histo) {  // PyTorch, tensorboardX, TF1
            if (histo_buckets(histo, scratch_limits_, scratch_counts_, scratch_buckets_)) {
                handler.on_distribution(tag, step, wall, compress_histogram(scratch_buckets_));
                ++distributions;
            } else {
                ++others;
            }
            continue;
        }
        if (tensor.data() == nullptr && metadata.empty()) {  // image, audio
            ++others;
            continue;
        }
        bool scalar_class = false;
        Plugin plugin = plugin_for(tag, metadata, scalar_class);
        if (plugin == Plugin::kHparams) {
            // The run's hyperparameters, as configuration (PyTorch add_hparams, Lightning).
            const int n = decode_hparams(metadata, step, wall, handler);
            if (n > 0)
                texts += n;
            else
                ++others;  // the experiment and session end records
            continue;
        }
        if (tensor.data() == nullptr) {  // metadata only, of another plugin
            ++others;
            continue;
        }
        if (plugin == Plugin::kScalars || scalar_class) {
            double value;
            if (tensor_scalar_value(tensor, value)) {
                handler.on_scalar(tag, step, wall, value);
                ++scalars;
                continue;
            }
        } else if (plugin == Plugin::kHistograms) {
            if (tensor_buckets(tensor, scratch_limits_, scratch_buckets_)) {
                handler.on_distribution(tag, step, wall, compress_histogram(scratch_buckets_));
                ++distributions;
                continue;
            }
        } else if (plugin == Plugin::kText) {
            Tensor t = parse_tensor(tensor, true);
            if (t.ok && t.dtype == DT_STRING) {
                std::string text;
                for (std::string_view s : t.strings) {
                    if (!text.empty()) text += '\n';
                    text += s;
                }
                handler.on_text(tag, step, wall, std::move(text));
                ++texts;
                continue;
            }
        }
        ++others;
    }
    return values.ok();
}

bool EventDecoder::decode(std::string_view payload, EventHandler& handler) {
    if (flavor_ == Flavor::kTensorFlow && decode_simple_value(payload, handler)) return true;
    Cursor c(payload);
    double wall = 0;
    std::int64_t step = 0;
    std::string_view summary, session_log, file_version, source_metadata;
    bool has_summary = false, has_session_log = false, has_version = false;
    std::uint32_t field;
    WireType type;
    while (c.next(field, type)) {
        switch (field) {
            case 1:
                if (type == wire::kFixed64)
                    wall = wire::as_double(c.fixed64());
                else
                    c.skip(type);
                break;
            case 2:
                if (type == wire::kVarint)
                    step = static_cast<std::int64_t>(c.varint());
                else
                    c.skip(type);
                break;
            case 3:
                if (type == wire::kLengthDelimited) {
                    file_version = c.bytes();
                    has_version = true;
                } else {
                    c.skip(type);
                }
                break;
            case 5:
                if (type == wire::kLengthDelimited) {
                    summary = c.bytes();
                    has_summary = true;
                } else {
                    c.skip(type);
                }
                break;
            case 7:
                if (type == wire::kLengthDelimited && flavor_ == Flavor::kTensorFlow) {
                    session_log = c.bytes();
                    has_session_log = true;
                } else {
                    c.skip(type);
                }
                break;
            case 10:
                if (type == wire::kLengthDelimited)
                    source_metadata = c.bytes();
                else
                    c.skip(type);
                break;
            default:
                c.skip(type);
        }
    }
    if (!c.ok() || (has_summary && !summary_well_formed(summary))) {
        ++counts_.undecodable;
        return false;
    }
    if (has_version) {
        file_version_.assign(file_version);
        if (file_version.substr(0, 16) == "MindSpore.Event:") flavor_ = Flavor::kMindSpore;
    }
    if (!source_metadata.empty()) {
        Cursor sm(source_metadata);
        std::uint32_t f;
        WireType t;
        while (sm.next(f, t)) {
            if (f == 1 && t == wire::kLengthDelimited)
                writer_.assign(sm.bytes());
            else
                sm.skip(t);
        }
    }
    if (has_session_log) {
        Cursor sl(session_log);
        std::uint32_t f;
        WireType t;
        std::uint64_t status = 0;
        while (sl.next(f, t)) {
            if (f == 1 && t == wire::kVarint)
                status = sl.varint();
            else
                sl.skip(t);
        }
        if (status == 1) {  // SessionLog.START
            ++counts_.session_starts;
            handler.on_session_start(step, wall);
        }
    }
    if (has_summary) {
        int scalars = 0, texts = 0, others = 0, distributions = 0;
        bool ok =
            decode_summary(summary, step, wall, handler, scalars, texts, others, distributions);
        counts_.distributions += distributions;
        counts_.scalars += scalars;
        counts_.texts += texts;
        counts_.non_scalar_values += others;
        if (!ok) {
            ++counts_.undecodable;
            return false;
        }
    }
    ++counts_.events;
    return true;
}

}  // namespace runtop
