#include "tests/fault_oracle.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/series_key.h"

namespace runtop::testing {
namespace {

constexpr std::size_t kExamples = 5;

bool parse_line(const std::string& line, PointKey& key) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return false;
    try {
        key.run = j.at("run").get<std::string>();
        key.rank = j.at("rank").is_null() ? kNoRank : j.at("rank").get<int>();
        key.tag = j.at("tag").get<std::string>();
        key.step = j.at("step").get<std::int64_t>();
        const nlohmann::json& v = j.at("value");
        double value;
        if (v.is_number()) {
            value = v.get<double>();
        } else {  // NaN and infinities are printed as strings
            const std::string s = v.get<std::string>();
            value = s == "inf"    ? std::numeric_limits<double>::infinity()
                    : s == "-inf" ? -std::numeric_limits<double>::infinity()
                                  : std::numeric_limits<double>::quiet_NaN();
        }
        key.value_bits = std::bit_cast<std::uint64_t>(value);
    } catch (const nlohmann::json::exception&) {
        return false;
    }
    return true;
}

}  // namespace

PointKey key_of(const LedgerPoint& p) {
    return PointKey{p.run, p.rank, p.tag, p.step, std::bit_cast<std::uint64_t>(p.value)};
}

std::string describe(const PointKey& k) {
    return fmt::format("run={} rank={} tag={} step={} value={}", k.run, k.rank, k.tag, k.step,
                       std::bit_cast<double>(k.value_bits));
}

std::string Comparison::summary(const std::string& scenario, const std::string& mode) const {
    return fmt::format("{:<24} {:<8} written {:>6}  lost {:>5}  duplicated {:>5}  unexpected {:>5}",
                       scenario, mode, written, lost, duplicated, unexpected);
}

void DumpTally::absorb_ledger() {
    for (; ledger_seen_ < ledger_.size(); ++ledger_seen_) {
        Count& c = counts_[key_of(ledger_[ledger_seen_])];
        if (++c.written > c.printed) ++missing_;
    }
}

void DumpTally::feed(const std::string& out) {
    absorb_ledger();
    for (std::size_t end; (end = out.find('\n', parsed_)) != std::string::npos; parsed_ = end + 1) {
        const std::string line = out.substr(parsed_, end - parsed_);
        PointKey key;
        if (!parse_line(line, key)) {
            bad_lines_.push_back(line);
            continue;
        }
        Count& c = counts_[key];
        if (++c.printed <= c.written) --missing_;
    }
}

std::size_t DumpTally::waiting() {
    absorb_ledger();
    std::size_t forgiven = 0;
    for (const auto& [key, n] : given_up_) {
        const Count& c = counts_.at(key);
        forgiven += std::min(n, c.written > c.printed ? c.written - c.printed : 0);
    }
    return missing_ - forgiven;
}

std::string DumpTally::give_up() {
    absorb_ledger();
    std::string out;
    std::size_t shown = 0;
    for (const auto& [key, c] : counts_) {
        if (c.printed >= c.written) continue;
        std::size_t& given = given_up_[key];
        if (c.written - c.printed > given && shown++ < kExamples) out += "\n    " + describe(key);
        given = c.written - c.printed;
    }
    return out;
}

Comparison DumpTally::compare() {
    absorb_ledger();
    Comparison r;
    std::string lost, duplicated, unexpected;
    std::size_t n_lost = 0, n_dup = 0, n_unexpected = 0;
    for (const auto& [key, c] : counts_) {
        r.written += c.written;
        r.printed += c.printed;
        if (c.written == 0) {
            r.unexpected += c.printed;
            if (n_unexpected++ < kExamples)
                unexpected +=
                    fmt::format("\n    unexpected: {} (printed {}x)", describe(key), c.printed);
        } else if (c.printed < c.written) {
            r.lost += c.written - c.printed;
            if (n_lost++ < kExamples)
                lost += fmt::format("\n    lost: {} (written {}x, printed {}x)", describe(key),
                                    c.written, c.printed);
        } else if (c.printed > c.written) {
            r.duplicated += c.printed - c.written;
            if (n_dup++ < kExamples)
                duplicated += fmt::format("\n    duplicated: {} (written {}x, printed {}x)",
                                          describe(key), c.written, c.printed);
        }
    }
    r.unexpected += bad_lines_.size();
    r.printed += bad_lines_.size();
    for (std::size_t i = 0; i < bad_lines_.size() && i < kExamples; ++i)
        unexpected += "\n    not a point: " + bad_lines_[i].substr(0, 200);
    r.examples = lost + duplicated + unexpected;
    return r;
}

}  // namespace runtop::testing
