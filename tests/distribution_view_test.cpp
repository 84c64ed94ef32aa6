// A histogram tag's card and detail chart (views/distribution_band.h): golden frames from
// `runtop snapshot` on a run the test writes with runtop's own event writer, and in-process
// checks of what the frames must say.
//
// Re-bless after an intended change: RUNTOP_BLESS=1 build/tests/runtop_tests
// --gtest_filter='DistributionSnapshot.*'
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "tests/view_fixture.h"
#include "views/distribution_band.h"
#include "views/glyphs.h"

namespace runtop::testing {
namespace {

// One run ("dist/job", rank 0): train/loss every step and, every 10th step, a histogram of 400
// weights that widen and drift (PyTorch add_histogram as TF1 bins it, with the DBL_MAX edge);
// at step 250 one weight is 5, far out: the max leaves the band.
std::string histogram_run() {
    std::string bytes;
    FixtureNoise noise(7);
    for (int s = 0; s < 300; ++s) {
        const double wall = 1.7e9 + s;
        const double loss = 0.5 + 2.0 * std::exp(-s / 80.0) + 0.02 * noise();
        bytes +=
            frame_record(events::simple_scalar("train/loss", static_cast<float>(loss), s, wall));
        if (s % 10 != 0) continue;
        std::vector<double> weights;
        const double width = 0.2 + s / 150.0;
        for (int i = 0; i < 400; ++i) weights.push_back(0.001 * s + width * noise());
        if (s == 250) weights[17] = 5;
        bytes += frame_record(events::histogram("layer1/weight", weights, s, wall));
    }
    return bytes;
}

class DistributionSnapshot : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir();
        make_dirs(dir_->path() + "/job");
        write_file(dir_->path() + "/job/events.out.tfevents.1", histogram_run());
    }
    static void TearDownTestSuite() { delete dir_; }
    void SetUp() override { ::setenv("XDG_CONFIG_HOME", (config_ / "config").c_str(), 1); }

    static CommandResult snapshot(std::vector<std::string> args) {
        args.insert(args.begin(), "snapshot");
        args.push_back("dist=" + dir_->path());
        return run_runtop(args);
    }
    static void expect_golden(const std::string& name, std::vector<std::string> args) {
        expect_golden_output(name, snapshot(std::move(args)));
    }

    static inline TempDir* dir_ = nullptr;
    TempDir config_;
};

TEST_F(DistributionSnapshot, OverviewCard) {
    expect_golden("distribution_overview_100x24", {"--size", "100x24"});
}

TEST_F(DistributionSnapshot, OverviewCardAscii) {
    expect_golden("distribution_overview_100x24_ascii", {"--size", "100x24", "--ascii"});
}

TEST_F(DistributionSnapshot, DetailChartReadsTheQuantilesAtTheCursor) {
    expect_golden(
        "distribution_detail_step150_100x30",
        {"--size", "100x30", "--view", "detail", "--tag", "layer1/weight", "--step", "150"});
}

TEST_F(DistributionSnapshot, DetailChartAscii) {
    expect_golden("distribution_detail_step250_100x30_ascii",
                  {"--size", "100x30", "--view", "detail", "--tag", "layer1/weight", "--step",
                   "250", "--ascii"});
}

TEST_F(DistributionSnapshot, NarrowDetailChartReadsTheQuantilesBelow) {
    expect_golden("distribution_detail_64x24", {"--size", "64x24", "--view", "detail", "--tag",
                                                "layer1/weight", "--step", "150"});
}

TEST_F(DistributionSnapshot, OneCardPerHistogramTagNamedWithoutItsSuffix) {
    const CommandResult r = snapshot({"--size", "100x24"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("layer1/weight"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("#p50"), std::string::npos) << r.out;  // no card per quantile
    EXPECT_EQ(r.out.find("#min"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("distribution"), std::string::npos) << r.out;
}

TEST_F(DistributionSnapshot, TheReadoutListsNineQuantilesHighestFirst) {
    const CommandResult r = snapshot(
        {"--size", "100x30", "--view", "detail", "--tag", "layer1/weight", "--step", "250"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::size_t at = r.out.find("DISTRIBUTION AT 250");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::size_t from = at;
    for (const char* label : {"max", "93%", "84%", "69%", "50%", "31%", "16%", "7%", "min"}) {
        const std::size_t next = r.out.find(std::string("\u2502 ") + label, from);
        ASSERT_NE(next, std::string::npos) << label << "\n" << r.out;
        from = next;
    }
    // The outlier weight of step 250 is the max there.
    EXPECT_NE(r.out.find("\u2502 max                    5"), std::string::npos) << r.out;
}

TEST_F(DistributionSnapshot, LsAndDumpShowTheQuantileSeries) {
    const CommandResult ls = run_runtop({"ls", "dist=" + dir_->path()});
    ASSERT_EQ(ls.exit_code, 0) << ls.err;
    for (const char* q : {"#min", "#p07", "#p16", "#p31", "#p50", "#p69", "#p84", "#p93", "#max"})
        EXPECT_NE(ls.out.find(std::string("layer1/weight") + q), std::string::npos) << q;
    EXPECT_NE(ls.err.find("1 distributions (histogram tags, 9 quantile series each, from 30 "
                          "histograms)"),
              std::string::npos)
        << ls.err;
    const CommandResult dump =
        run_runtop({"dump", "--filter", "weight#max", "dist=" + dir_->path()});
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    EXPECT_NE(dump.out.find("layer1/weight#max"), std::string::npos) << dump.out;
    // Step 250's outlier is its max.
    EXPECT_NE(dump.out.find("layer1/weight#max,250,1700000250,5\n"), std::string::npos) << dump.out;
}

// --- the band, in-process -------------------------------------------------------------------

// A column of one value.
ColumnSummary column_of(double v) {
    ColumnSummary c;
    c.count = 1;
    c.min = c.max = c.mean = c.last = v;
    return c;
}

// Three columns of quantiles -4, -3 ... 4 (the median 0), the middle one as `middle` makes it.
ui::BandColumns band_with_middle(const std::function<ColumnSummary(int q)>& middle) {
    ui::BandColumns band;
    for (int q = 0; q < kDistributionQuantiles; ++q) {
        const double v = q - kMedianQuantile;
        band.q[static_cast<std::size_t>(q)] = {column_of(v), middle(q), column_of(v)};
    }
    return band;
}

std::u32string column_text(const ui::Canvas& c, int x) {
    std::u32string out;
    for (int y = 0; y < c.height(); ++y) out += c.at(x, y).ch;
    return out;
}

TEST(DistributionBand, NestedBandsReadByGlyphFromTheEdgesIn) {
    const auto band = band_with_middle([](int q) { return column_of(q - kMedianQuantile); });
    ui::Canvas c(3, 9);
    ui::draw_band(c, 0, 0, 3, 9, band, 1, {-4.5, 4.5}, ui::GlyphTier::kBraille, ui::Role::kSeries0);
    // Rows of one unit each, top (4) to bottom (-4): min..max, then each inner band.
    EXPECT_EQ(column_text(c, 0), U"░▒▓███▓▒░");
    ui::Canvas a(3, 9);
    ui::draw_band(a, 0, 0, 3, 9, band, 1, {-4.5, 4.5}, ui::GlyphTier::kAscii, ui::Role::kSeries0);
    EXPECT_EQ(column_text(a, 0), U"~+=###=+~");
}

TEST(DistributionBand, ANonFiniteQuantileMarksItsColumnTopToBottom) {
    const auto band = band_with_middle([](int q) {
        ColumnSummary c = column_of(q - kMedianQuantile);
        if (q == kDistributionQuantiles - 1) {  // the max is +Inf: no finite value
            c.pos_inf = 1;
            c.min = c.max = c.mean = std::nan("");
        }
        return c;
    });
    ui::Canvas c(3, 9);
    ui::draw_band(c, 0, 0, 3, 9, band, 1, {-4.5, 4.5}, ui::GlyphTier::kBraille, ui::Role::kSeries0);
    const char32_t nan = ui::marks(ui::GlyphTier::kBraille).nan;
    EXPECT_EQ(column_text(c, 1), std::u32string(9, nan));
    EXPECT_EQ(column_text(c, 2), U"░▒▓███▓▒░");
}

TEST(DistributionBand, ColumnsBetweenTwoHistogramsAreJoined) {
    // Histograms every other column: the empty one between takes the line between them.
    const auto band = band_with_middle([](int) { return ColumnSummary{}; });
    ui::Canvas c(3, 9);
    ui::draw_band(c, 0, 0, 3, 9, band, 1, {-4.5, 4.5}, ui::GlyphTier::kBraille, ui::Role::kSeries0);
    EXPECT_EQ(column_text(c, 1), U"░▒▓███▓▒░");
}

}  // namespace
}  // namespace runtop::testing
