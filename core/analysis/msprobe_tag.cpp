#include "core/analysis/msprobe_tag.h"

#include <fmt/format.h>

#include <charconv>

#include "core/identity.h"

namespace runtop {
namespace {

bool to_int(std::string_view s, std::int64_t& out) {
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

// Splits a trailing ":<digits>" (micro-step) and a leading "<digits>:" (vpp) off a name.
void split_vpp_micro(std::string_view& name, std::int64_t& vpp, bool& has_vpp, std::int64_t& micro,
                     bool& has_micro) {
    std::size_t colon = name.find(':');
    if (colon != std::string_view::npos && to_int(name.substr(0, colon), vpp)) {
        has_vpp = true;
        name.remove_prefix(colon + 1);
    }
    std::size_t last = name.rfind(':');
    if (last != std::string_view::npos && all_digits(name.substr(last + 1)) &&
        to_int(name.substr(last + 1), micro)) {
        has_micro = true;
        name = name.substr(0, last);
    }
}

}  // namespace

AnomalyTagName parse_anomaly_tag_name(std::string_view tag) {
    AnomalyTagName out;
    std::size_t slash = tag.rfind('/');
    if (slash == std::string_view::npos || slash + 1 == tag.size()) return out;
    out.kind = tag.substr(slash + 1);
    std::string_view name = tag.substr(0, slash);
    // "/rank<R>" before the kind; names never end in one.
    std::size_t rank_at = name.rfind("/rank");
    if (rank_at != std::string_view::npos && all_digits(name.substr(rank_at + 5))) {
        std::int64_t rank;
        if (to_int(name.substr(rank_at + 5), rank) && rank <= 1000000)
            out.rank = static_cast<int>(rank);
        name = name.substr(0, rank_at);
    }
    split_vpp_micro(name, out.vpp, out.has_vpp, out.micro, out.has_micro);
    out.name = name;
    out.ok = true;
    return out;
}

std::string_view anomaly_kind_prefix(std::string_view kind) {
    if (kind == "acc_grad" || kind == "pre_grad") return "grad_unreduced";
    if (kind == "post_grad") return "grad_reduced";
    if (kind == "mg_direction") return "other";
    // actv, actv_grad, exp_avg, exp_avg_sq, param_origin, param_updated: the CSV prefix is
    // the kind itself; so it is for kinds added later.
    return kind;
}

std::string anomaly_series_tag(std::string_view tag_name, std::string_view op) {
    if (op.empty()) return {};
    AnomalyTagName parts = parse_anomaly_tag_name(tag_name);
    if (!parts.ok) return {};
    std::string tag(anomaly_kind_prefix(parts.kind));
    tag += '/';
    if (parts.has_vpp && parts.vpp != 0) tag += fmt::format("{}:", parts.vpp);
    tag += parts.name;
    if (parts.has_micro) tag += fmt::format(":{}", parts.micro);
    tag += '/';
    tag += op;
    return tag;
}

MsProbeSeriesTag parse_msprobe_series_tag(std::string_view tag) {
    MsProbeSeriesTag out;
    const std::size_t first = tag.find('/');
    const std::size_t last = tag.rfind('/');
    if (first == std::string_view::npos || first == last || first == 0 || last + 1 == tag.size())
        return out;
    out.prefix = tag.substr(0, first);
    out.op = tag.substr(last + 1);
    out.statistic = tag.substr(0, last);
    std::string_view name = tag.substr(first + 1, last - first - 1);
    bool has_vpp = false;
    split_vpp_micro(name, out.vpp, has_vpp, out.micro, out.has_micro);
    out.name = name;
    out.ok = true;
    return out;
}

std::string_view msprobe_prefix_kind(std::string_view prefix) {
    if (prefix == "grad_unreduced") return "acc_grad";
    if (prefix == "grad_reduced") return "post_grad";
    if (prefix == "other") return "mg_direction";
    return prefix;
}

std::string msprobe_tag_name(const MsProbeSeriesTag& tag, int rank) {
    std::string out = fmt::format("{}:{}", tag.vpp, tag.name);
    if (tag.has_micro) out += fmt::format(":{}", tag.micro);
    out += fmt::format("/rank{}/{}", rank < 0 ? 0 : rank, msprobe_prefix_kind(tag.prefix));
    return out;
}

}  // namespace runtop
