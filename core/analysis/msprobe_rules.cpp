#include "core/analysis/msprobe_rules.h"

#include <cmath>

namespace runtop {

std::string_view msprobe_rule_name(MsProbeRuleKind kind) {
    return kind == MsProbeRuleKind::kTurbulence ? "AnomalyTurbulence" : "AnomalyNan";
}

double msprobe_ema_update(double avg, double x) {
    constexpr double kBeta = 0.99;
    return kBeta * avg + (1 - kBeta) * std::fabs(x);
}

MsProbeRuleSet::MsProbeRuleSet(std::span<const MsProbeRuleSpec> specs, MsProbeVariant variant)
    : variant_(variant) {
    for (const MsProbeRuleSpec& spec : specs) {
        if (spec.rule_name == "AnomalyTurbulence") {
            // AnomalyTurbulence(threshold) has no default: msProbe's constructor call fails.
            if (!spec.threshold) {
                skipped_.push_back("AnomalyTurbulence without a threshold");
                continue;
            }
            rules_.push_back({MsProbeRuleKind::kTurbulence, spec.threshold});
        } else if (spec.rule_name == "AnomalyNan") {
            rules_.push_back({MsProbeRuleKind::kNan, spec.threshold});
        } else {
            skipped_.push_back("unknown rule '" + spec.rule_name + "'");
        }
    }
}

bool MsProbeRuleSet::fires(const MsProbeRule& rule, double x, double h) const {
    if (rule.kind == MsProbeRuleKind::kNan) {
        return std::isnan(x) || (rule.threshold && std::fabs(x) > *rule.threshold);
    }
    const double thr = *rule.threshold;
    if (variant_ == MsProbeVariant::kCurrent) return std::fabs(x) > h * (1 + thr);
    const double up = h + h * thr;
    return h > 0 ? x > up : x < up;  // NaN h: both comparisons false, as in Python
}

std::optional<MsProbeFiring> MsProbeRuleSet::evaluate(std::string_view tag_name,
                                                      std::string_view op, double value) {
    // msProbe keeps no state at all without rules, and never looks at shape/dtype (current).
    if (rules_.empty() ||
        (variant_ == MsProbeVariant::kCurrent && (op == "shape" || op == "dtype")))
        return std::nullopt;
    key_.assign(tag_name);
    key_.push_back('\0');
    key_.append(op);
    auto it = state_.find(std::string_view(key_));
    if (it == state_.end()) it = state_.emplace(key_, MsProbeHistory{}).first;
    return evaluate(it->second, op, value);
}

std::optional<MsProbeFiring> MsProbeRuleSet::evaluate(MsProbeHistory& hist, std::string_view op,
                                                      double value) const {
    const bool current = variant_ == MsProbeVariant::kCurrent;
    if (rules_.empty() || (current && (op == "shape" || op == "dtype"))) return std::nullopt;
    if (!hist.seen) {
        hist.avg = current ? std::fabs(value) : value;
        hist.count = 0;
        hist.seen = true;
    }
    const double h = hist.avg;
    if (current) {
        hist.avg = msprobe_ema_update(hist.avg, value);
    } else {
        // msProbe's own form (not sum/n), so the history mean matches it bit for bit.
        const double n = static_cast<double>(hist.count);
        hist.avg = (hist.avg * n + value) / (n + 1);
    }
    ++hist.count;

    for (const MsProbeRule& rule : rules_) {
        if (!fires(rule, value, h)) continue;
        // The first hit ends the scan even when current msProbe then drops it.
        if (current && rule.kind == MsProbeRuleKind::kTurbulence && op != "norm" && op != "mean") {
            return std::nullopt;
        }
        return MsProbeFiring{rule.kind, value, h};
    }
    return std::nullopt;
}

}  // namespace runtop
