#include "writers/event_writer.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "event.pb.h"

namespace runtop::events {
namespace {

std::uint16_t to_half(double v) {
    float f = static_cast<float>(v);
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    std::uint32_t sign = (x >> 16) & 0x8000;
    int exp = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
    std::uint32_t mant = x & 0x7fffff;
    if (std::isnan(f)) return static_cast<std::uint16_t>(sign | 0x7e00);
    if (exp >= 31) return static_cast<std::uint16_t>(sign | 0x7c00);
    if (exp <= 0) {
        if (exp < -10) return static_cast<std::uint16_t>(sign);
        mant |= 0x800000;
        return static_cast<std::uint16_t>(sign | (mant >> (14 - exp)));
    }
    return static_cast<std::uint16_t>(sign | (exp << 10) | (mant >> 13));
}

std::uint16_t to_bfloat16(double v) {
    float f = static_cast<float>(v);
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    return static_cast<std::uint16_t>(x >> 16);  // truncation: exact for values written as bf16
}

template <class T>
std::string le_bytes(T v) {
    std::string s(sizeof(T), '\0');
    std::memcpy(s.data(), &v, sizeof(T));
    return s;
}

tb::Event event_at(std::int64_t step, double wall_time) {
    tb::Event e;
    e.set_wall_time(wall_time);
    e.set_step(step);
    return e;
}

}  // namespace

std::string file_version(double wall_time, std::string_view version) {
    tb::Event e = event_at(0, wall_time);
    e.set_file_version(std::string(version));
    return e.SerializeAsString();
}

std::string simple_scalar(std::string_view tag, float value, std::int64_t step, double wall_time) {
    tb::Event e = event_at(step, wall_time);
    tb::Summary::Value* v = e.mutable_summary()->add_value();
    v->set_tag(std::string(tag));
    v->set_simple_value(value);
    return e.SerializeAsString();
}

std::string tensor_scalar(std::string_view tag, DType dtype, double value, Encoding encoding,
                          std::int64_t step, double wall_time, bool metadata, bool shape_one) {
    tb::Event e = event_at(step, wall_time);
    tb::Summary::Value* v = e.mutable_summary()->add_value();
    v->set_tag(std::string(tag));
    if (metadata) v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("scalars");
    tb::TensorProto* t = v->mutable_tensor();
    t->set_dtype(static_cast<tb::DataType>(dtype));
    if (shape_one) t->mutable_tensor_shape()->add_dim()->set_size(1);
    const bool content = encoding == Encoding::kTensorContent;
    switch (dtype) {
        case DType::kFloat:
            content ? t->set_tensor_content(le_bytes(static_cast<float>(value)))
                    : t->add_float_val(static_cast<float>(value));
            break;
        case DType::kDouble:
            content ? t->set_tensor_content(le_bytes(value)) : t->add_double_val(value);
            break;
        case DType::kHalf:
            content ? t->set_tensor_content(le_bytes(to_half(value)))
                    : t->add_half_val(to_half(value));
            break;
        case DType::kBFloat16:
            content ? t->set_tensor_content(le_bytes(to_bfloat16(value)))
                    : t->add_half_val(to_bfloat16(value));
            break;
        case DType::kInt32:
            content ? t->set_tensor_content(le_bytes(static_cast<std::int32_t>(value)))
                    : t->add_int_val(static_cast<std::int32_t>(value));
            break;
        case DType::kInt16:
            content ? t->set_tensor_content(le_bytes(static_cast<std::int16_t>(value)))
                    : t->add_int_val(static_cast<std::int16_t>(value));
            break;
        case DType::kInt8:
            content ? t->set_tensor_content(le_bytes(static_cast<std::int8_t>(value)))
                    : t->add_int_val(static_cast<std::int8_t>(value));
            break;
        case DType::kUInt8:
            content ? t->set_tensor_content(le_bytes(static_cast<std::uint8_t>(value)))
                    : t->add_int_val(static_cast<std::uint8_t>(value));
            break;
        case DType::kUInt16:
            content ? t->set_tensor_content(le_bytes(static_cast<std::uint16_t>(value)))
                    : t->add_int_val(static_cast<std::uint16_t>(value));
            break;
        case DType::kInt64:
            content ? t->set_tensor_content(le_bytes(static_cast<std::int64_t>(value)))
                    : t->add_int64_val(static_cast<std::int64_t>(value));
            break;
        case DType::kUInt32:
            content ? t->set_tensor_content(le_bytes(static_cast<std::uint32_t>(value)))
                    : t->add_uint32_val(static_cast<std::uint32_t>(value));
            break;
        case DType::kUInt64:
            content ? t->set_tensor_content(le_bytes(static_cast<std::uint64_t>(value)))
                    : t->add_uint64_val(static_cast<std::uint64_t>(value));
            break;
        case DType::kBool:
            content ? t->set_tensor_content(std::string(1, value != 0 ? '\1' : '\0'))
                    : t->add_bool_val(value != 0);
            break;
    }
    return e.SerializeAsString();
}

std::string text(std::string_view tag, std::string_view body, std::int64_t step, double wall_time) {
    tb::Event e = event_at(step, wall_time);
    tb::Summary::Value* v = e.mutable_summary()->add_value();
    v->set_tag(std::string(tag) + "/text_summary");
    v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("text");
    tb::TensorProto* t = v->mutable_tensor();
    t->set_dtype(tb::DT_STRING);
    t->add_string_val(std::string(body));
    return e.SerializeAsString();
}

namespace {

void put_varint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

void put_bytes(std::string& out, std::uint32_t field, std::string_view bytes) {
    put_varint(out, (field << 3) | 2);
    put_varint(out, bytes.size());
    out += bytes;
}

// A google.protobuf.Value: number_value (2, double), string_value (3), bool_value (4).
std::string protobuf_value(const HParamValue& v) {
    std::string out;
    if (const double* d = std::get_if<double>(&v)) {
        out += static_cast<char>((2 << 3) | 1);
        std::uint64_t bits;
        std::memcpy(&bits, d, sizeof bits);
        for (int i = 0; i < 8; ++i) out += static_cast<char>((bits >> (8 * i)) & 0xff);
    } else if (const std::string* text = std::get_if<std::string>(&v)) {
        put_bytes(out, 3, *text);
    } else {
        out += static_cast<char>(4 << 3);
        out += static_cast<char>(std::get<bool>(v) ? 1 : 0);
    }
    return out;
}

}  // namespace

std::string hparams_session_start(const std::vector<std::pair<std::string, HParamValue>>& hparams,
                                  std::int64_t step, double wall_time) {
    std::string start;  // SessionStartInfo: map<string, Value> hparams = 1
    for (const auto& [name, value] : hparams) {
        std::string entry;
        put_bytes(entry, 1, name);
        put_bytes(entry, 2, protobuf_value(value));
        put_bytes(start, 1, entry);
    }
    std::string data;  // HParamsPluginData: version = 1, session_start_info = 3
    put_varint(data, 1 << 3);
    put_varint(data, 0);
    put_bytes(data, 3, start);
    tb::Event e = event_at(step, wall_time);
    tb::Summary::Value* v = e.mutable_summary()->add_value();
    v->set_tag("_hparams_/session_start_info");
    v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("hparams");
    v->mutable_metadata()->mutable_plugin_data()->set_content(data);
    return e.SerializeAsString();
}

std::string histogram_proto(std::string_view tag, double min, double max,
                            const std::vector<double>& bucket_limit,
                            const std::vector<double>& bucket, std::int64_t step,
                            double wall_time) {
    tb::Event e = event_at(step, wall_time);
    tb::Summary::Value* v = e.mutable_summary()->add_value();
    v->set_tag(std::string(tag));
    tb::HistogramProto* h = v->mutable_histo();
    double num = 0;
    for (double c : bucket) num += c;
    h->set_min(min);
    h->set_max(max);
    h->set_num(num);
    for (double l : bucket_limit) h->add_bucket_limit(l);
    for (double c : bucket) h->add_bucket(c);
    return e.SerializeAsString();
}

std::string histogram(std::string_view tag, const std::vector<double>& values, std::int64_t step,
                      double wall_time) {
    double lo = values.empty() ? 0 : values.front(), hi = lo, sum = 0, sq = 0;
    for (double x : values) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        sum += x;
        sq += x * x;
    }
    const std::size_t k = std::clamp<std::size_t>(values.size(), 1, 30);
    const double width = (hi - lo) / static_cast<double>(k);
    std::vector<double> limits(k), counts(k, 0.0);
    for (std::size_t i = 0; i < k; ++i)
        limits[i] = i + 1 == k ? std::numeric_limits<double>::max()
                               : lo + width * static_cast<double>(i + 1);
    for (double x : values) {
        std::size_t i = 0;
        while (i + 1 < k && x >= limits[i]) ++i;
        counts[i] += 1;
    }
    tb::Event e = event_at(step, wall_time);
    tb::Summary::Value* v = e.mutable_summary()->add_value();
    v->set_tag(std::string(tag));
    tb::HistogramProto* h = v->mutable_histo();
    h->set_min(lo);
    h->set_max(hi);
    h->set_num(static_cast<double>(values.size()));
    h->set_sum(sum);
    h->set_sum_squares(sq);
    for (std::size_t i = 0; i < k; ++i) {
        h->add_bucket_limit(limits[i]);
        h->add_bucket(counts[i]);
    }
    return e.SerializeAsString();
}

std::string histogram_tensor(std::string_view tag, const std::vector<std::array<double, 3>>& rows,
                             std::int64_t step, double wall_time, bool metadata, bool as_float) {
    tb::Event e = event_at(step, wall_time);
    tb::Summary::Value* v = e.mutable_summary()->add_value();
    v->set_tag(std::string(tag));
    if (metadata) v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("histograms");
    tb::TensorProto* t = v->mutable_tensor();
    t->set_dtype(as_float ? tb::DT_FLOAT : tb::DT_DOUBLE);
    t->mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(rows.size()));
    t->mutable_tensor_shape()->add_dim()->set_size(3);
    std::string content;
    for (const auto& row : rows)
        for (double x : row) content += as_float ? le_bytes(static_cast<float>(x)) : le_bytes(x);
    t->set_tensor_content(content);
    return e.SerializeAsString();
}

std::string session_start(std::int64_t step, double wall_time) {
    tb::Event e = event_at(step, wall_time);
    e.mutable_session_log()->set_status(tb::SessionLog::START);
    return e.SerializeAsString();
}

std::string mindspore_scalar(std::string_view tag, float value, std::int64_t step,
                             double wall_time) {
    // The TF schema has no field for it, so the Value is assembled by hand:
    // Value { tag = 1 (bytes); scalar_value = 3 (fixed32) }
    std::string value_bytes;
    value_bytes += static_cast<char>((1 << 3) | 2);
    value_bytes += static_cast<char>(tag.size());  // tags here are < 128 bytes
    value_bytes += tag;
    value_bytes += static_cast<char>((3 << 3) | 5);
    value_bytes += le_bytes(value);
    std::string summary;
    summary += static_cast<char>((1 << 3) | 2);
    summary += static_cast<char>(value_bytes.size());
    summary += value_bytes;
    tb::Event e = event_at(step, wall_time);
    std::string out = e.SerializeAsString();
    out += static_cast<char>((5 << 3) | 2);
    out += static_cast<char>(summary.size());
    out += summary;
    return out;
}

std::string event_file_name(double wall_time, int index) {
    char host[256] = "localhost";
    ::gethostname(host, sizeof(host) - 1);
    char name[512];
    std::snprintf(name, sizeof(name), "events.out.tfevents.%010lld.%s.%d.%d",
                  static_cast<long long>(wall_time), host, static_cast<int>(::getpid()), index);
    return name;
}

}  // namespace runtop::events
