// msProbe's anomaly rules with their exact semantics (reference/FORMATS.md §1.5), so that runtop
// evaluating them on msProbe's CSVs flags what msProbe itself flagged while training.
//
// State is one running history per key (tag_name, op). Per value x, in msProbe's order:
//   current (since 2025-05-21): a = |x|; unseen key: avg = a; h = avg; avg = beta*avg + (1-beta)*a
//   legacy (up to 2025-05-21):  unseen key: avg = x, n = 0; h = avg; avg = (avg*n + x)/(n+1); ++n
// then the rules are tried in list order and the first that fires wins:
//   AnomalyTurbulence(thr)  current: |x| > h*(1+thr)
//                           legacy:  up = h + h*thr; (h > 0 and x > up) or (h <= 0 and x < up)
//   AnomalyNan(thr?)        isnan(x) or (thr set and |x| > thr)
// Current msProbe then drops a turbulence hit unless op is norm or mean, and because the first
// hit already ended the scan, AnomalyNan is not tried for that value either. It skips ops shape
// and dtype entirely (no state). Legacy msProbe reports every hit on every op.
//
// What follows, all deliberate: the first value never fires turbulence (h is itself); ±Inf fires
// turbulence once, then avg is Inf and turbulence can never fire again for that key; a NaN makes
// avg NaN for good, so turbulence never fires again while AnomalyNan keeps firing.
//
// Rules come already parsed (core/ reads no JSON): the integration turns each entry of
// {"rules":[{"rule_name":..., "args":{"threshold":...}}]} into an MsProbeRuleSpec. Specs msProbe
// would refuse are skipped as msProbe skips them (it logs and carries on): unknown names, and
// AnomalyTurbulence without a threshold.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runtop {

enum class MsProbeRuleKind : std::uint8_t { kTurbulence, kNan };
enum class MsProbeVariant : std::uint8_t { kCurrent, kLegacy };

// "AnomalyTurbulence" / "AnomalyNan", as in msProbe's messages.
std::string_view msprobe_rule_name(MsProbeRuleKind kind);

struct MsProbeRuleSpec {
    std::string rule_name;
    std::optional<double> threshold;  // args.threshold; absent for AnomalyNan without one
};

struct MsProbeRule {
    MsProbeRuleKind kind = MsProbeRuleKind::kTurbulence;
    std::optional<double> threshold;
};

struct MsProbeFiring {
    MsProbeRuleKind rule = MsProbeRuleKind::kTurbulence;
    double value = 0;         // x as given ("current value" in msProbe's message)
    double history_mean = 0;  // h, before the update ("history mean")
};

// One step of the current history: beta*avg + (1-beta)*|x| with beta = 0.99, written as msProbe
// writes it (1 - 0.99 is not 0.01 in binary; the sample's messages match this bit for bit).
double msprobe_ema_update(double avg, double x);

// One key's history; `seen` false until its first value.
struct MsProbeHistory {
    double avg = 0;
    std::int64_t count = 0;  // legacy running mean only
    bool seen = false;
};

class MsProbeRuleSet {
  public:
    explicit MsProbeRuleSet(std::span<const MsProbeRuleSpec> specs,
                            MsProbeVariant variant = MsProbeVariant::kCurrent);

    // Feeds one written value of (tag_name, op) and returns what msProbe would report for it.
    // Values must come in msProbe's write order for each key (steps ascending).
    std::optional<MsProbeFiring> evaluate(std::string_view tag_name, std::string_view op,
                                          double value);

    // The same for a history the caller keeps (one per series: no key lookup).
    std::optional<MsProbeFiring> evaluate(MsProbeHistory& history, std::string_view op,
                                          double value) const;

    // Forgets every history, as a restarted (or re-enabled) msProbe writer does.
    void reset() { state_.clear(); }

    MsProbeVariant variant() const { return variant_; }
    const std::vector<MsProbeRule>& rules() const { return rules_; }
    // One line per spec that was not loaded, naming it and why.
    const std::vector<std::string>& skipped() const { return skipped_; }
    std::size_t key_count() const { return state_.size(); }

  private:
    struct KeyHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };

    bool fires(const MsProbeRule& rule, double x, double h) const;

    MsProbeVariant variant_;
    std::vector<MsProbeRule> rules_;
    std::vector<std::string> skipped_;
    // Key: tag_name + '\0' + op (neither contains NUL), looked up without allocating.
    std::unordered_map<std::string, MsProbeHistory, KeyHash, std::equal_to<>> state_;
    std::string key_;  // scratch for building lookup keys
};

}  // namespace runtop
