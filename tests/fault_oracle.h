// The fault-injection suite's measure: what `runtop dump --format jsonl` printed, as a multiset
// of (run, rank, tag, step, value), against the points a FaultWriter made durable. Lost: written
// and never printed; duplicated: printed more often than written; unexpected: printed and never
// written (a corrupt record read as valid, a value paired with the wrong step).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tests/fault_writer.h"

namespace runtop::testing {

struct PointKey {
    std::string run;
    int rank;
    std::string tag;
    std::int64_t step;
    std::uint64_t value_bits;  // the double's bits: the value must come back exactly
    auto operator<=>(const PointKey&) const = default;
};

struct Comparison {
    std::size_t written = 0;
    std::size_t printed = 0;
    std::size_t lost = 0;
    std::size_t duplicated = 0;  // extra copies
    std::size_t unexpected = 0;  // lines, including ones that are no point
    std::string examples;        // the first few of each kind, a line each
    bool exact() const { return lost == 0 && duplicated == 0 && unexpected == 0; }
    // "<scenario> <mode>: written N, lost N, duplicated N, unexpected N"
    std::string summary(const std::string& scenario, const std::string& mode) const;
};

// Watches the output grow against a ledger that grows too (both are read, never copied).
class DumpTally {
  public:
    explicit DumpTally(const std::vector<LedgerPoint>& ledger) : ledger_(ledger) {}

    // `out` is everything printed so far; only complete lines not seen before are parsed.
    void feed(const std::string& out);
    // Ledger points not printed yet, less those given up on.
    std::size_t waiting();
    // Stops waiting for what is missing now (a sync that timed out); names the first few
    // points not given up on before.
    std::string give_up();
    Comparison compare();

  private:
    struct Count {
        std::size_t written = 0;
        std::size_t printed = 0;
    };
    void absorb_ledger();

    const std::vector<LedgerPoint>& ledger_;
    std::size_t ledger_seen_ = 0;
    std::size_t parsed_ = 0;
    std::map<PointKey, Count> counts_;
    std::size_t missing_ = 0;
    std::map<PointKey, std::size_t> given_up_;
    std::vector<std::string> bad_lines_;
};

PointKey key_of(const LedgerPoint& p);
std::string describe(const PointKey& k);

}  // namespace runtop::testing
