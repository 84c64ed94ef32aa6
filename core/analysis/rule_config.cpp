#include "core/analysis/rule_config.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "core/json/json_value.h"
#include "core/rank_spec.h"

namespace runtop {
namespace {

std::string_view type_key(RuleType type) {
    switch (type) {
        case RuleType::kNonFinite:
            return "nonfinite";
        case RuleType::kSpike:
            return "spike";
        case RuleType::kStall:
            return "stall";
        case RuleType::kThreshold:
            return "threshold";
        case RuleType::kCrossRank:
            return "cross_rank";
        case RuleType::kMsProbe:
            return "msprobe";
    }
    return "?";
}

RuleConfig make_rule(RuleType type, Severity severity) {
    RuleConfig r;
    r.type = type;
    r.name = std::string(type_key(type));
    r.severity = severity;
    return r;
}

// Errors name the file and the rule: "rules.json: rule 3 (threshold): 'above' is not a number".
class Parser {
  public:
    explicit Parser(std::string_view origin) : origin_(origin) {}

    Result<RuleSet> parse(std::string_view text) {
        JsonLimits limits;
        limits.comments = true;
        const JsonParse parsed = parse_json(text, limits);
        if (!parsed) return fail(parsed.error().describe_position());
        const JsonValue doc = parsed.document().root();
        if (!doc.is_object()) return fail("the top level is not an object");
        const bool msprobe_config = doc.get("alert").exists();
        for (const auto& [key, value] : doc.unique_members()) {
            if (key != "defaults" && key != "rules" && key != "msprobe" && key != "alert") {
                // msProbe's monitor config carries many other keys; only reject ours.
                if (!msprobe_config) return fail(fmt::format("unknown key '{}'", key));
            }
        }
        bool defaults = true;
        if (const JsonValue d = doc.get("defaults")) {
            if (!d.is_bool()) return fail("'defaults' is not true or false");
            defaults = d.boolean();
        }
        RuleSet set;
        if (defaults) set = default_rules();

        MsProbeParams msprobe;
        RuleScope msprobe_scope;
        if (const JsonValue m = doc.get("msprobe")) {
            if (!m.is_object()) return fail("'msprobe' is not an object");
            for (const auto& [key, value] : m.unique_members()) {
                if (key == "variant") {
                    if (value.is_string() && value.string() == "current")
                        msprobe.variant = MsProbeVariant::kCurrent;
                    else if (value.is_string() && value.string() == "legacy")
                        msprobe.variant = MsProbeVariant::kLegacy;
                    else
                        return fail("'msprobe.variant' is not \"current\" or \"legacy\"");
                } else if (key == "tags" || key == "exclude_tags" || key == "ranks") {
                    if (!value.is_string())
                        return fail(fmt::format("'msprobe.{}' is not a string", key));
                    std::string s(value.string());
                    (key == "tags"    ? msprobe_scope.tags
                     : key == "ranks" ? msprobe_scope.ranks
                                      : msprobe_scope.exclude_tags) = s;
                } else {
                    return fail(fmt::format("unknown key 'msprobe.{}'", key));
                }
            }
        }

        std::vector<JsonValue> entries;
        auto collect = [&](JsonValue list, std::string_view where) -> Status {
            if (!list.is_array())
                return Error{fmt::format("{}: '{}' is not a list", origin_, where)};
            for (JsonValue e : list.elements()) entries.push_back(e);
            return ok_status();
        };
        if (const JsonValue rules = doc.get("rules"))
            if (Status s = collect(rules, "rules"); !s) return s.error();
        if (const JsonValue rules = doc.get("alert").get("rules"))
            if (Status s = collect(rules, "alert.rules"); !s) return s.error();

        std::vector<RuleType> replaced;
        int number = 0;
        for (const JsonValue e : entries) {
            ++number;
            if (!e.is_object()) return fail(fmt::format("rule {} is not an object", number));
            if (e.get("rule_name")) {
                Status s = msprobe_spec(e, number, msprobe);
                if (!s) return s.error();
                continue;
            }
            Result<RuleConfig> rule = native_rule(e, number);
            if (!rule) return rule.error();
            // A built-in type replaces its default (tune or turn off); repeats add more.
            const RuleType type = rule->type;
            const bool builtin = type == RuleType::kNonFinite || type == RuleType::kSpike ||
                                 type == RuleType::kCrossRank || type == RuleType::kStall;
            if (builtin && std::find(replaced.begin(), replaced.end(), type) == replaced.end()) {
                replaced.push_back(type);
                std::erase_if(set.rules, [&](const RuleConfig& r) { return r.type == type; });
            }
            if (enabled_) set.rules.push_back(std::move(*rule));
        }
        if (!msprobe.specs.empty()) {
            RuleConfig r = make_rule(RuleType::kMsProbe, Severity::kAlert);
            r.name = "msprobe";
            r.scope = msprobe_scope;
            r.msprobe = msprobe;
            if (Status s = check_scope(r, "'msprobe'"); !s) return s.error();
            MsProbeRuleSet probe(r.msprobe.specs, r.msprobe.variant);
            for (const std::string& why : probe.skipped())
                set.warnings.push_back(
                    fmt::format("{}: msProbe rule skipped, as msProbe skips it: {}", origin_, why));
            set.rules.push_back(std::move(r));
        }
        return set;
    }

  private:
    Error fail(std::string_view why) const { return Error{fmt::format("{}: {}", origin_, why)}; }

    Status msprobe_spec(JsonValue e, int number, MsProbeParams& out) {
        if (!e.get("rule_name").is_string())
            return fail(fmt::format("rule {}: 'rule_name' is not a string", number));
        MsProbeRuleSpec spec;
        spec.rule_name = std::string(e.get("rule_name").string());
        if (const JsonValue args = e.get("args")) {
            if (!args.is_object())
                return fail(
                    fmt::format("rule {} ({}): 'args' is not an object", number, spec.rule_name));
            if (const JsonValue threshold = args.get("threshold");
                threshold && !threshold.is_null()) {
                // NaN and Infinity parse (Python writes them) but are no threshold.
                if (!threshold.is_number() || !std::isfinite(threshold.number()))
                    return fail(fmt::format("rule {} ({}): 'threshold' is not a number", number,
                                            spec.rule_name));
                spec.threshold = threshold.number();
            }
        }
        out.specs.push_back(std::move(spec));
        return ok_status();
    }

    Result<RuleConfig> native_rule(JsonValue e, int number) {
        enabled_ = true;
        if (!e.get("rule").is_string())
            return fail(fmt::format("rule {} has no \"rule\" (or msProbe \"rule_name\")", number));
        const std::string type(e.get("rule").string());
        RuleConfig r;
        if (type == "nonfinite")
            r = make_rule(RuleType::kNonFinite, Severity::kAlert);
        else if (type == "spike")
            r = make_rule(RuleType::kSpike, Severity::kWarn);
        else if (type == "stall")
            r = make_rule(RuleType::kStall, Severity::kWarn);
        else if (type == "threshold")
            r = make_rule(RuleType::kThreshold, Severity::kAlert);
        else if (type == "cross_rank")
            r = make_rule(RuleType::kCrossRank, Severity::kWarn);
        else
            return fail(fmt::format(
                "rule {}: unknown rule '{}' (nonfinite, spike, stall, threshold, cross_rank, or "
                "an msProbe rule_name)",
                number, type));
        if (r.type == RuleType::kSpike)
            r.scope.exclude_tags = std::string(default_spike_exclusions());
        const std::string where = fmt::format("rule {} ({})", number, type);

        for (const auto& [key, value] : e.unique_members()) {
            if (key == "rule") continue;
            Status s = field(r, std::string(key), value, where);
            if (!s) return s.error();
        }
        if (r.type == RuleType::kThreshold && !r.threshold.above && !r.threshold.below)
            return fail(where + ": needs 'above' or 'below'");
        if (Status s = check_scope(r, where); !s) return s.error();
        return r;
    }

    Status number(JsonValue v, const std::string& where, std::string_view key, double& out,
                  double min_value) {
        if (!v.is_number() || !std::isfinite(v.number()))
            return fail(fmt::format("{}: '{}' is not a number", where, key));
        out = v.number();
        if (out < min_value)
            return fail(fmt::format("{}: '{}' must be at least {}", where, key, min_value));
        return ok_status();
    }
    Status integer(JsonValue v, const std::string& where, std::string_view key, int& out,
                   int min_value, int max_value) {
        std::int64_t n = 0;
        if (!v.whole_number(n))
            return fail(fmt::format("{}: '{}' is not a whole number", where, key));
        if (n < min_value || n > max_value)
            return fail(
                fmt::format("{}: '{}' must be in {}..{}", where, key, min_value, max_value));
        out = static_cast<int>(n);
        return ok_status();
    }

    Status field(RuleConfig& r, const std::string& key, JsonValue v, const std::string& where) {
        auto str = [&](std::string& out) -> Status {
            if (!v.is_string()) return fail(fmt::format("{}: '{}' is not a string", where, key));
            out = std::string(v.string());
            return ok_status();
        };
        if (key == "enabled") {
            if (!v.is_bool()) return fail(where + ": 'enabled' is not true or false");
            enabled_ = v.boolean();
            return ok_status();
        }
        if (key == "name") return str(r.name);
        if (key == "tags") return str(r.scope.tags);
        if (key == "exclude_tags") return str(r.scope.exclude_tags);
        if (key == "ranks") return str(r.scope.ranks);
        if (key == "severity") {
            if (v.is_string() && v.string() == "warn")
                r.severity = Severity::kWarn;
            else if (v.is_string() && v.string() == "alert")
                r.severity = Severity::kAlert;
            else
                return fail(where + ": 'severity' is not \"warn\" or \"alert\"");
            return ok_status();
        }
        switch (r.type) {
            case RuleType::kSpike:
                if (key == "window") return integer(v, where, key, r.spike.window, 8, 4096);
                if (key == "warmup") return integer(v, where, key, r.spike.warmup, 1, 1 << 30);
                if (key == "k") return number(v, where, key, r.spike.k, 0);
                if (key == "min_ratio") return number(v, where, key, r.spike.min_ratio, 1);
                if (key == "tail_factor") return number(v, where, key, r.spike.tail_factor, 0);
                if (key == "confirm") return integer(v, where, key, r.spike.confirm, 0, 64);
                if (key == "loss_like") return str(r.spike.loss_like);
                break;
            case RuleType::kStall:
                if (key == "seconds") return number(v, where, key, r.stall.seconds, 1);
                if (key == "interval_factor")
                    return number(v, where, key, r.stall.interval_factor, 0);
                break;
            case RuleType::kThreshold:
                if (key == "above" || key == "below") {
                    double x = 0;
                    if (Status s = number(v, where, key, x, -HUGE_VAL); !s) return s;
                    (key == "above" ? r.threshold.above : r.threshold.below) = x;
                    return ok_status();
                }
                break;
            case RuleType::kCrossRank:
                if (key == "k") return number(v, where, key, r.cross_rank.k, 0);
                if (key == "rel_floor") return number(v, where, key, r.cross_rank.rel_floor, 0);
                if (key == "abs_floor") return number(v, where, key, r.cross_rank.abs_floor, 0);
                if (key == "min_ratio") return number(v, where, key, r.cross_rank.min_ratio, 0);
                if (key == "min_ranks")
                    return integer(v, where, key, r.cross_rank.min_ranks, 3, 1 << 20);
                break;
            case RuleType::kNonFinite:
            case RuleType::kMsProbe:
                break;
        }
        return fail(fmt::format("{}: unknown key '{}'", where, key));
    }

    Status check_scope(const RuleConfig& r, const std::string& where) const {
        RE2::Options options;
        options.set_case_sensitive(false);
        options.set_log_errors(false);
        for (const std::string* re : {&r.scope.tags, &r.scope.exclude_tags, &r.spike.loss_like}) {
            if (re->empty()) continue;
            RE2 compiled(*re, options);
            if (!compiled.ok())
                return fail(fmt::format("{}: bad regex '{}': {}", where, *re, compiled.error()));
        }
        if (Result<RankSpec> ranks = RankSpec::parse(r.scope.ranks); !ranks)
            return fail(fmt::format("{}: {}", where, ranks.error().message));
        return ok_status();
    }

    std::string origin_;
    bool enabled_ = true;
};

}  // namespace

std::string_view severity_name(Severity severity) {
    return severity == Severity::kAlert ? "alert" : "warn";
}

std::string_view rule_type_name(RuleType type) {
    return type_key(type);
}

std::string_view default_spike_exclusions() {
    return "(^|[^a-z])(lr|learning.?rates?|loss.?scale|scaler?|momentum|betas?|weight.?decay|wd|"
           "warmup|epochs?|iters?|iterations?|time|times|timestamp|duration|elapsed|latency|secs?|"
           "seconds?|ms|throughput|speed|per.?sec(ond)?|flops|tflops|mfu|util|utilization|mem|"
           "memory|alloc|allocated|reserved|gpu|cpu|temp|temperature|power|progress|eta|zeros|"
           "nans|id|shape|dtype)([^a-z]|$)";
}

RuleSet default_rules() {
    RuleSet set;
    set.rules.push_back(make_rule(RuleType::kNonFinite, Severity::kAlert));
    RuleConfig spike = make_rule(RuleType::kSpike, Severity::kWarn);
    spike.scope.exclude_tags = std::string(default_spike_exclusions());
    set.rules.push_back(std::move(spike));
    // A rank far above its peers at the same step is wrong whatever the series' history: no
    // warm-up. Conservative, as it is on by default: ten times the median and beyond 5 MADs.
    RuleConfig cross_rank = make_rule(RuleType::kCrossRank, Severity::kWarn);
    cross_rank.scope.exclude_tags = std::string(default_spike_exclusions());
    cross_rank.cross_rank.min_ratio = 10;
    set.rules.push_back(std::move(cross_rank));
    set.rules.push_back(make_rule(RuleType::kStall, Severity::kWarn));
    // Megatron-LM counts the iterations whose loss was NaN or Inf in its log line (a NaN mean
    // loss leaves the loss out of the line altogether): any is a failure.
    RuleConfig nan_iterations = make_rule(RuleType::kThreshold, Severity::kAlert);
    nan_iterations.name = "nan_iterations";
    nan_iterations.scope.tags = "^number of nan iterations$";
    nan_iterations.threshold.above = 0;
    set.rules.push_back(std::move(nan_iterations));
    return set;
}

Result<RuleSet> parse_rules(std::string_view json_text, std::string_view origin) {
    return Parser(origin).parse(json_text);
}

}  // namespace runtop
