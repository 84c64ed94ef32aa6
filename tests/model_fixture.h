// The fixture of the in-process view tests: a Store and an Analyzer (default rules) fed through
// an AnalyzingSink, a way to add a series, and the canvas read back as text.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "views/canvas.h"

namespace runtop::testing {

class ModelFixture : public ::testing::Test {
  protected:
    ModelFixture() : analyzer_(default_rules()), sink_(analyzer_, &store_) {}

    // `steps` points of `f(step)` for one series, wall times 1.7e9 + step.
    template <class F>
    void add(const std::string& run, int rank, const std::string& tag, int steps, F f) {
        const SeriesId id = sink_.series({run, rank, tag}, source_id({"tfevents"}));
        for (int s = 0; s < steps; ++s) sink_.append(id, {s, 1.7e9 + s, static_cast<double>(f(s))});
    }
    // The cells of row y as text, non-ASCII glyphs as '?'.
    static std::string row(const ui::Canvas& c, int y) {
        std::string out;
        for (int x = 0; x < c.width(); ++x) {
            const char32_t ch = c.at(x, y).ch;
            if (ch != 0 && ch < 0x80) out += static_cast<char>(ch);
            if (ch >= 0x80) out += '?';
        }
        return out;
    }
    // Where `text` first starts at or below row from_y, or {-1, -1}.
    static std::pair<int, int> find(const ui::Canvas& c, const std::string& text, int from_y = 0) {
        for (int y = from_y; y < c.height(); ++y) {
            const std::size_t x = row(c, y).find(text);
            if (x != std::string::npos) return {static_cast<int>(x), y};
        }
        return {-1, -1};
    }

    Store store_;
    Analyzer analyzer_;
    AnalyzingSink sink_;
};

}  // namespace runtop::testing
