// The view model (views/model.h) and the overview and anomaly views drawn in-process: card order,
// grouping across runs and ranks, stable overlay colours, the styles a text snapshot cannot
// show (badges, NaN marks, selection), paging, short numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "tests/model_fixture.h"
#include "tests/test_support.h"
#include "views/anomaly_readout.h"
#include "views/anomaly_view.h"
#include "views/canvas.h"
#include "views/model.h"
#include "views/overview_view.h"

namespace runtop::ui {
namespace {

TEST(ShortValue, FourSignificantDigitsAndSiSuffixes) {
    EXPECT_EQ(short_value(0), "0");
    EXPECT_EQ(short_value(0.612345), "0.6123");
    EXPECT_EQ(short_value(-2.5), "-2.5");
    EXPECT_EQ(short_value(1234.4), "1234");
    EXPECT_EQ(short_value(9999.4), "9999");
    EXPECT_EQ(short_value(9999.6), "10k");
    EXPECT_EQ(short_value(12345), "12.35k");
    EXPECT_EQ(short_value(999999), "1M");
    EXPECT_EQ(short_value(-3.2e7), "-32M");
    EXPECT_EQ(short_value(4.5e15), "4.5P");
    EXPECT_EQ(short_value(2e20), "2e20");
    EXPECT_EQ(short_value(0.001), "0.001");
    EXPECT_EQ(short_value(0.00123456), "0.001235");
    EXPECT_EQ(short_value(2.5e-4), "2.5e-4");
    EXPECT_EQ(short_value(3e-5), "3e-5");
    EXPECT_EQ(short_value(-1.23456e-7), "-1.235e-7");
    EXPECT_EQ(short_value(std::nan("")), "nan");
    EXPECT_EQ(short_value(INFINITY), "inf");
    EXPECT_EQ(short_value(-INFINITY), "-inf");
    EXPECT_EQ(short_step(99999), "99999");
    EXPECT_EQ(short_step(123456), "123.5k");
    EXPECT_EQ(short_step(-5), "-5");
}

TEST(CardOrder, TrainThenEvalThenUnprefixedThenOthersLossFirst) {
    std::vector<std::string> tags = {"gpu/util",        "eval/accuracy", "train/lr",  "lr",
                                     "Train/grad_norm", "train/loss",    "eval/loss", "actv/x"};
    std::sort(tags.begin(), tags.end(), card_order_less);
    EXPECT_EQ(tags,
              (std::vector<std::string>{"train/loss", "Train/grad_norm", "train/lr", "eval/loss",
                                        "eval/accuracy", "lr", "actv/x", "gpu/util"}));
}

TEST(CardOrder, TheTrainingLossFirstNotAnyTagHoldingLoss) {
    // DeepSpeed's csv_monitor names: loss_scale is no loss; train_loss is the training loss.
    std::vector<std::string> tags = {"Train/Samples/lr",
                                     "Train/Samples/loss_scale",
                                     "Train/Samples/train_loss",
                                     "eval/loss",
                                     "lm loss",
                                     "grad-norm"};
    std::sort(tags.begin(), tags.end(), card_order_less);
    // Training losses first (train/ before unprefixed among them), then the groups as before.
    EXPECT_EQ(tags, (std::vector<std::string>{"Train/Samples/train_loss", "lm loss",
                                              "Train/Samples/loss_scale", "Train/Samples/lr",
                                              "eval/loss", "grad-norm"}));
}

TEST(CardOrder, NumbersInNamesSortByValue) {
    std::vector<std::string> tags = {"grad/layers.10.weight", "grad/layers.2.weight",
                                     "grad/layers.1.weight", "grad/layers.02.bias",
                                     "grad/layers.100.weight"};
    std::sort(tags.begin(), tags.end(), card_order_less);
    EXPECT_EQ(tags, (std::vector<std::string>{"grad/layers.1.weight", "grad/layers.02.bias",
                                              "grad/layers.2.weight", "grad/layers.10.weight",
                                              "grad/layers.100.weight"}));
}

class Views : public testing::ModelFixture {};

TEST_F(Views, CardsGroupATagAcrossRunsAndRanksWithStableOverlayIndices) {
    add("b", 1, "train/loss", 10, [](int s) { return 1.0 / (s + 1); });
    add("a", 0, "train/loss", 10, [](int s) { return 1.0 / (s + 1); });
    add("a", 0, "eval/acc", 10, [](int s) { return 0.1 * s; });
    add("b", 0, "train/loss", 10, [](int s) { return 1.0 / (s + 1); });
    ViewModel model(store_, analyzer_);
    ASSERT_EQ(model.groups().size(), 2u);
    EXPECT_EQ(model.groups()[0].tag, "train/loss");
    ASSERT_EQ(model.groups()[0].series.size(), 3u);
    // (run, rank) order within the card.
    EXPECT_EQ(model.run_rank(model.groups()[0].series[0]), (RunRank{"a", 0}));
    EXPECT_EQ(model.run_rank(model.groups()[0].series[2]), (RunRank{"b", 1}));
    EXPECT_EQ(model.runs(), 2u);
    EXPECT_EQ(model.points(), 40u);
    // Overlay indices in the order the Store first saw each (run, rank), whatever the filter.
    EXPECT_EQ(model.overlay_index(0), 0);  // b r1
    EXPECT_EQ(model.overlay_index(1), 1);  // a r0
    EXPECT_EQ(model.overlay_index(2), 1);  // a r0 again
    EXPECT_EQ(model.overlay_index(3), 2);  // b r0
    auto filter = SeriesFilter::make("loss", "0");
    ASSERT_TRUE(filter);
    model.set_filter(std::move(*filter), "loss", "0");
    ASSERT_EQ(model.groups().size(), 1u);
    EXPECT_EQ(model.groups()[0].series.size(), 2u);
    EXPECT_EQ(model.hidden(), 2u);
    EXPECT_EQ(model.overlay_index(3), 2);
    // New series arrive: taken in by update(), old indices kept.
    add("c", 5, "train/loss", 3, [](int) { return 1.0; });
    model.update();
    EXPECT_EQ(model.overlay_index(4), 3);
    EXPECT_EQ(model.overlay_index(0), 0);
}

// update() takes in only the series new since the last call (a backfill of millions of
// series calls it after every slice): a model updated a few series at a time, in an order where
// ranks, runs and tags arrive out of order, must equal one built at once and the brute-force
// order: cards by card_order_less, each card's series by (run, rank), selected() by
// (run, rank, tag). Through a filter change as well.
TEST_F(Views, IncrementalUpdatesEqualAModelBuiltAtOnce) {
    std::vector<std::tuple<std::string, int, std::string>> keys;
    for (const char* run : {"b", "a"})
        for (int rank : {10, 2, 0, 1})
            for (const char* tag : {"grad/x.weight/norm", "train/loss", "eval/acc", "lr",
                                    "Grad/y.weight/max", "grad/a.bias/min"})
                keys.emplace_back(run, rank, tag);
    std::uint64_t state = 12345;
    for (std::size_t i = keys.size() - 1; i > 0; --i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        std::swap(keys[i], keys[(state >> 33) % (i + 1)]);
    }
    ViewModel growing(store_, analyzer_);
    const auto expect_same = [this](const ViewModel& m) {
        ViewModel fresh(store_, analyzer_);
        if (!m.filter_tags().empty() || !m.filter_ranks().empty()) {
            auto f = SeriesFilter::make(m.filter_tags(), m.filter_ranks());
            ASSERT_TRUE(f);
            fresh.set_filter(std::move(*f), m.filter_tags(), m.filter_ranks());
        }
        // Brute force from the Store.
        std::vector<SeriesId> all;
        for (SeriesId id = 0; id < store_.series_count(); ++id)
            if (m.filter().selects(store_.at(id).key())) all.push_back(id);
        auto rrt = [this](SeriesId id) {
            const SeriesKeyRef k = store_.at(id).key();
            return std::make_tuple(std::string(k.run), k.rank, std::string(k.tag));
        };
        std::sort(all.begin(), all.end(), [&](SeriesId a, SeriesId b) { return rrt(a) < rrt(b); });
        EXPECT_EQ(m.selected(), all);
        EXPECT_EQ(fresh.selected(), all);
        std::vector<std::string> tags;
        for (SeriesId id : all) tags.emplace_back(store_.at(id).key().tag);
        std::sort(tags.begin(), tags.end(), card_order_less);
        tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
        ASSERT_EQ(m.groups().size(), tags.size());
        ASSERT_EQ(fresh.groups().size(), tags.size());
        for (std::size_t g = 0; g < tags.size(); ++g) {
            EXPECT_EQ(m.groups()[g].tag, tags[g]);
            EXPECT_EQ(m.groups()[g].series, fresh.groups()[g].series) << tags[g];
            std::vector<SeriesId> members;
            for (SeriesId id : all)
                if (store_.at(id).key().tag == tags[g]) members.push_back(id);
            EXPECT_EQ(m.groups()[g].series, members) << tags[g];
            EXPECT_EQ(m.group(tags[g]), &m.groups()[g]);
        }
        EXPECT_EQ(m.runs(), fresh.runs());
        EXPECT_EQ(m.hidden(), fresh.hidden());
        EXPECT_EQ(m.points(), fresh.points());
    };
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto& [run, rank, tag] = keys[i];
        add(run, rank, tag, 3, [](int s) { return 1.0 + s; });
        if (i % 5 == 4 || i + 1 == keys.size()) {
            growing.update();
            expect_same(growing);
        }
        if (i == keys.size() / 2) {
            auto filter = SeriesFilter::make("^(grad|train)", "0-2");
            ASSERT_TRUE(filter);
            growing.set_filter(std::move(*filter), "^(grad|train)", "0-2");
            expect_same(growing);
        }
    }
    // A filter that selects nothing, then none at all.
    auto none = SeriesFilter::make("^nothing$", "");
    ASSERT_TRUE(none);
    growing.set_filter(std::move(*none), "^nothing$", "");
    expect_same(growing);
    EXPECT_TRUE(growing.groups().empty());
    growing.set_filter(SeriesFilter(), "", "");
    expect_same(growing);
    EXPECT_EQ(growing.selected().size(), keys.size());
}

// With every series selected, alert_counts() and points() come from running counts (the
// Analyzer's, the Store's), not a pass over every series: they must equal that pass, through
// new alerts, one acknowledgement and all of them, and with a filter (the pass itself).
TEST_F(Views, RunningAlertCountsAndPointsEqualAPassOverTheSeries) {
    const auto brute = [this](const ViewModel& m) {
        AlertCounts c;
        std::uint64_t points = 0;
        for (SeriesId id : m.selected()) {
            points += store_.at(id).count();
            const AlertState& st = analyzer_.series_state(id);
            if (st.level == AlertLevel::kOk) continue;
            if (st.acknowledged)
                ++c.acknowledged;
            else if (st.level == AlertLevel::kAlert)
                ++c.alert;
            else
                ++c.warn;
        }
        return std::make_tuple(c.alert, c.warn, c.acknowledged, points);
    };
    const auto counts = [](const ViewModel& m) {
        const AlertCounts c = m.alert_counts();
        return std::make_tuple(c.alert, c.warn, c.acknowledged, m.points());
    };
    for (int rank = 0; rank < 6; ++rank) {
        add("r", rank, "train/loss", 120, [rank](int s) {
            if (rank == 1 && s == 100) return 50.0;  // a spike: warn
            return 1.0 + 0.01 * ((s * 7) % 5);
        });
        add("r", rank, "grad/norm", 20,
            [rank](int s) { return rank % 2 == 0 && s == 10 ? std::nan("") : 1.0; });
    }
    ViewModel model(store_, analyzer_);
    EXPECT_EQ(counts(model), brute(model));
    EXPECT_GT(std::get<0>(brute(model)), 0u);  // NaNs: alerts
    EXPECT_GT(std::get<1>(brute(model)), 0u);  // the spike: a warning
    analyzer_.acknowledge_series(model.selected()[1]);
    EXPECT_EQ(counts(model), brute(model));
    auto filter = SeriesFilter::make("grad", "0-3");
    ASSERT_TRUE(filter);
    model.set_filter(std::move(*filter), "grad", "0-3");
    EXPECT_EQ(counts(model), brute(model));
    model.set_filter(SeriesFilter(), "", "");
    analyzer_.acknowledge_all();
    EXPECT_EQ(counts(model), brute(model));
    EXPECT_EQ(std::get<0>(counts(model)) + std::get<1>(counts(model)), 0u);
    add("r", 0, "eval/acc", 5, [](int s) { return s == 3 ? INFINITY : 0.5; });  // a new alert
    model.update();
    EXPECT_EQ(counts(model), brute(model));
    EXPECT_EQ(std::get<0>(counts(model)), 1u);
}

TEST_F(Views, TheBadgeCountsTheSeriesInItsWorstState) {
    // Rank 2 turns NaN (an alert), rank 1 spikes (a warning): one series in the worst state.
    for (int rank = 0; rank < 4; ++rank)
        add("job", rank, "train/loss", 200, [rank](int s) {
            if (rank == 2 && s == 150) return std::nan("");
            if (rank == 1 && s == 120) return 80.0;
            return 2.0 + 0.01 * (s % 5);
        });
    analyzer_.finish();
    ViewModel model(store_, analyzer_);
    ASSERT_EQ(model.alert_counts().alert, 1u);
    ASSERT_EQ(model.alert_counts().warn, 1u);
    Canvas canvas(60, 14);
    draw_overview(canvas, model, {});
    const std::string top = testing::split_lines(canvas.to_text())[0];
    EXPECT_NE(top.find("▲ 1 "), std::string::npos) << top;
}

TEST_F(Views, OverviewBadgesNaNAndSelectionCarryStyle) {
    for (int rank = 0; rank < 4; ++rank)
        add("job", rank, "train/loss", 200,
            [rank](int s) { return rank == 2 && s == 150 ? std::nan("") : 2.0 - s * 0.005; });
    add("job", 0, "train/lr", 200, [](int) { return 1e-3; });
    analyzer_.finish();
    ViewModel model(store_, analyzer_);
    ASSERT_EQ(model.alert_counts().alert, 1u);
    Canvas canvas(60, 14);
    OverviewState state;
    state.selected = 1;
    draw_overview(canvas, model, state);

    // The loss card: its badge reversed and bold in the alert role; the NaN column marked in
    // both rows (the envelope and rank 2's, the focus as the alerting rank).
    const auto [tx, ty] = find(canvas, "train/loss");
    ASSERT_EQ(ty, 0);
    int badge = -1;
    for (int x = tx; x < 30; ++x)
        if (canvas.at(x, 0).style.role == Role::kAlert) badge = x;
    ASSERT_GE(badge, 0) << row(canvas, 0);
    EXPECT_TRUE(canvas.at(badge, 0).style.bold);
    EXPECT_TRUE(canvas.at(badge, 0).style.reverse);
    // Two cards fit in one row: they grow to the height of the canvas (12 rows at most).
    EXPECT_EQ(canvas.at(0, 11).ch, U'└');
    std::set<int> nan_columns;
    int nans = 0;
    for (int y = 1; y < 11; ++y)
        for (int x = 0; x < 30; ++x)
            if (canvas.at(x, y).style.role == Role::kNan) {
                ++nans;
                nan_columns.insert(x);
            }
    EXPECT_GE(nans, 2);
    EXPECT_EQ(nan_columns.size(), 1u);
    EXPECT_NE(find(canvas, "r2 ").second, -1);
    // The lr card is selected: its frame in the accent role; nothing alerts in it.
    EXPECT_EQ(canvas.at(30, 0).style.role, Role::kAccent);
    EXPECT_EQ(canvas.at(0, 0).style.role, Role::kBorder);
    EXPECT_NE(row(canvas, 13).find("1 alert"), std::string::npos) << row(canvas, 13);
}

TEST_F(Views, OverviewPages) {
    for (int i = 0; i < 7; ++i)
        add("r", kNoRank, "m/tag" + std::to_string(i), 5, [](int s) { return s; });
    ViewModel model(store_, analyzer_);
    Canvas canvas(60, 13);  // 2 columns x 2 rows of cards
    const OverviewLayout layout = overview_layout(60, 13, 7);
    EXPECT_EQ(layout.per_page(), 4);
    EXPECT_EQ(overview_pages(model, layout), 2);
    OverviewState state;
    state.page = 1;
    draw_overview(canvas, model, state);
    EXPECT_EQ(find(canvas, "m/tag4").second, 0);
    EXPECT_EQ(find(canvas, "m/tag0").second, -1);
    EXPECT_NE(row(canvas, 12).find("page 2/2"), std::string::npos) << row(canvas, 12);
    state.page = 99;  // clamped
    draw_overview(canvas, model, state);
    EXPECT_NE(row(canvas, 12).find("page 2/2"), std::string::npos);
}

TEST_F(Views, AnomalyListSelectsAndPages) {
    for (int rank = 0; rank < 12; ++rank)
        add("job", rank, "train/loss", 20,
            [rank](int s) { return s == rank ? std::nan("") : 1.0; });
    analyzer_.finish();
    ViewModel model(store_, analyzer_);
    AnomalyState state;
    ASSERT_EQ(anomaly_rows(model, state).size(), 12u);  // 12 incidents, one member each
    Canvas canvas(80, 8);                               // 6 rows a page: too short for the readout
    EXPECT_EQ(anomaly_rows_per_page(model, state, 80, 8), 6);
    state.selected = 7;
    draw_anomalies(canvas, model, state);
    // Page 2 holds rows 6..11; row 7 (step 7) is the second, reversed.
    EXPECT_EQ(row(canvas, 1).rfind("  major   6 ", 0), 0u) << row(canvas, 1);
    EXPECT_EQ(row(canvas, 2).rfind("  major   7 ", 0), 0u) << row(canvas, 2);
    EXPECT_TRUE(canvas.at(0, 2).style.reverse);
    EXPECT_FALSE(canvas.at(0, 1).style.reverse);
    EXPECT_NE(row(canvas, 7).find("12 incidents, row 8/12, page 2/2"), std::string::npos)
        << row(canvas, 7);
    // The filter hides records of series it does not select.
    auto filter = SeriesFilter::make("", "0-2");
    ASSERT_TRUE(filter);
    model.set_filter(std::move(*filter), "", "0-2");
    EXPECT_EQ(anomaly_rows(model, state).size(), 3u);
}

// The anomaly list keeps its layout between frames, never past a change: an episode growing
// (the same records, a longer step range), a new record with a longer tag, an acknowledgement.
TEST_F(Views, AnomalyColumnsFollowTheLogAsItChanges) {
    const SeriesId loss = sink_.series({"job", 0, "train/loss"}, source_id({"tfevents"}));
    for (int s = 0; s <= 100; ++s) sink_.append(loss, {s, 1.7e9 + s, s == 100 ? NAN : 1.0});
    ViewModel model(store_, analyzer_);
    model.update();
    AnomalyState state;
    Canvas canvas(120, 12);
    auto column = [&](const char* head) { return find(canvas, head).first; };
    draw_anomalies(canvas, model, state);
    ASSERT_EQ(anomaly_rows(model, state).size(), 1u);
    EXPECT_EQ(column("RUN"), 16);  // "INCIDENT", "STEP" and the gaps
    // The NaN goes on: one record, "100-105".
    for (int s = 101; s <= 105; ++s) sink_.append(loss, {s, 1.7e9 + s, NAN});
    model.update();
    draw_anomalies(canvas, model, state);
    ASSERT_EQ(anomaly_rows(model, state).size(), 1u);
    EXPECT_EQ(column("RUN"), 19) << row(canvas, 0);
    // A record of a longer tag widens the tag column.
    const std::string tag = "grad_reduced/layers.0.weight/norm";
    add("job", 0, tag, 20, [](int s) { return s == 7 ? std::nan("") : 1.0; });
    model.update();
    draw_anomalies(canvas, model, state);
    ASSERT_EQ(anomaly_rows(model, state).size(), 2u);
    EXPECT_EQ(column("RULE") - column("TAG"), static_cast<int>(tag.size()) + 2) << row(canvas, 0);
    // Acknowledged: "ack alert" is wider than the header "SEVERITY".
    const int value = column("VALUE");
    state.acknowledged.insert(*anomaly_selected_record(state, model));
    draw_anomalies(canvas, model, state);
    EXPECT_EQ(column("VALUE"), value + 1) << row(canvas, 0);
}

// The readout wraps what does not fit, never cuts it: a tag wider than the line goes on on the
// next, wide glyphs are never split, the message breaks at spaces.
TEST(AnomalyReadout, WrapsWhatDoesNotFitNeverCutsIt) {
    AnomalyLog log;
    AnomalyRecord r;
    r.run = "job";
    r.rank = 3;
    // 7 x on the tag's first line, 24 on the next, 22 and the slash on the third: 数 (two
    // columns) does not fit in the one left there.
    r.tag = "grad_reduced/" + std::string(53, 'x') + "/数据/norm";
    r.step = 7;
    r.rule = "spike";
    r.severity = Severity::kWarn;
    r.value = 2.5;
    r.message = "the value jumped far above everything seen before";
    log.fire(r);
    const LogEntry& e = log.ordered().front();
    const AnomalyReadout out = anomaly_readout(log, e, false, GlyphTier::kAscii, 24);
    std::vector<std::string> lines(static_cast<std::size_t>(out.lines));
    for (const ReadoutSpan& s : out.spans) {
        ASSERT_LT(s.line, out.lines);
        std::string& line = lines[static_cast<std::size_t>(s.line)];
        EXPECT_LE(display_width(line), s.x) << line;  // spans left to right, never overlapping
        line.resize(line.size() + static_cast<std::size_t>(s.x - display_width(line)), ' ');
        line += s.text;
        EXPECT_LE(display_width(line), 24) << line;
    }
    std::string all;
    for (const std::string& line : lines) all += line + "|";
    EXPECT_NE(all.find("|tag grad_reduced/xxxxxxx|" + std::string(24, 'x') + "|" +
                       std::string(22, 'x') + "/|数据/norm  value 2.5|"),
              std::string::npos)
        << all;
    std::string tag;  // the pieces between the labels "tag" and "value", joined
    bool in_tag = false;
    for (const ReadoutSpan& s : out.spans) {
        if (s.text == "tag" || s.text == "value") {
            in_tag = s.text == "tag";
            continue;
        }
        if (in_tag) tag += s.text;
    }
    EXPECT_EQ(tag, r.tag) << all;
    EXPECT_NE(all.find("|the value jumped far|above everything seen|before|"), std::string::npos)
        << all;
    EXPECT_EQ(anomaly_readout_lines(log, e, false, GlyphTier::kAscii, 24), out.lines);
}

}  // namespace
}  // namespace runtop::ui

namespace runtop::ui {
namespace {

// The overview reuses a card's queried columns only while its series are unchanged: a point
// arriving, a series joining the card or another canvas size is drawn, never a stale frame.
TEST_F(Views, CachedCardsAreRequeriedWhenTheirSeriesChange) {
    add("job", 0, "train/loss", 300, [](int s) { return 1.0 + 1.0 / (s + 1); });
    add("job", 0, "eval/acc", 300, [](int) { return 0.5; });
    ViewModel model(store_, analyzer_);
    model.update();
    OverviewState state;
    Canvas c(100, 20);
    draw_overview(c, model, state);
    const std::string first = c.to_text();
    ASSERT_TRUE(state.cache);
    draw_overview(c, model, state);
    EXPECT_EQ(c.to_text(), first);  // nothing changed: the same frame, from the cache

    // A new point: the card shows it.
    sink_.append(0, {300, 1.7e9 + 300, 42.0});
    draw_overview(c, model, state);
    const std::string second = c.to_text();
    EXPECT_NE(second, first);
    EXPECT_NE(second.find("42"), std::string::npos) << second;

    // A new rank joins the card.
    add("job", 1, "train/loss", 300, [](int) { return 7.0; });
    model.update();
    draw_overview(c, model, state);
    EXPECT_NE(c.to_text().find("2 ranks"), std::string::npos) << c.to_text();

    // A key's frame may show the card as last queried (data arrived since); the data frame
    // after it shows the new point.
    sink_.append(0, {301, 1.7e9 + 301, 77.25});
    model.ingest.key_frame = true;
    draw_overview(c, model, state);
    EXPECT_EQ(c.to_text().find("77.25"), std::string::npos) << c.to_text();
    model.ingest.key_frame = false;
    draw_overview(c, model, state);
    EXPECT_NE(c.to_text().find("77.25"), std::string::npos) << c.to_text();

    // A fresh state draws the same as the cached one.
    const std::string cached = c.to_text();
    OverviewState fresh;
    draw_overview(c, model, fresh);
    EXPECT_EQ(c.to_text(), cached);
}

}  // namespace
}  // namespace runtop::ui
