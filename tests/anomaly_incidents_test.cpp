// The anomaly list as incidents (views/anomaly_rows.h): a row per incident naming its root, its
// members folded under it, conditions apart; Enter/Right unfold, Left folds; n/N step incident
// by incident; the status line names the first major one; new major incidents ring
// (app/incident_watch.h, views/terminal/notify.h).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/incident_watch.h"
#include "tests/model_fixture.h"
#include "tests/test_support.h"
#include "tests/view_fixture.h"
#include "views/anomaly_view.h"
#include "views/model.h"
#include "views/screen.h"
#include "views/terminal/notify.h"
#include "views/view_common.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop::ui {
namespace {

constexpr int kW = 140, kH = 30;

// Rank 1's loss turns NaN at step 50 and the all-reduced grad norm with it on every rank: one
// incident of five members, rank 1's loss its root. Rank 0's loss is NaN again at step 120: an
// incident of its own. eval/probe is NaN from its first point: a condition.
class IncidentRows : public runtop::testing::ModelFixture {
  protected:
    IncidentRows() : model_(store_, analyzer_) {
        for (int rank = 0; rank < 4; ++rank) {
            add("job", rank, "train/loss", 200, [rank](int s) {
                return (s == 50 && rank == 1) || (s == 120 && rank == 0) ? std::nan("") : 1.0;
            });
            add("job", rank, "train/grad_norm", 200,
                [](int s) { return s == 50 ? std::nan("") : 2.0; });
        }
        add("job", 0, "eval/probe", 200, [](int) { return std::nan(""); });
        analyzer_.finish();
        model_.update();
    }
    Outcome key(const std::string& name) {
        return handle(state_, InputEvent::named(name, false), model_, analyzer_, kW, kH);
    }
    std::vector<AnomalyRow> rows() { return anomaly_rows(model_, state_.anomalies); }
    const AnomalyRecord& record(const AnomalyRow& row) {
        const AnomalyLog& log = analyzer_.log();
        return log.records()[log.ordered()[row.entry].index];
    }

    ViewModel model_;
    UiState state_;
};

TEST_F(IncidentRows, OneRowPerIncidentItsRootFirstConditionsLast) {
    const std::vector<AnomalyRow> r = rows();
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0].kind, AnomalyRowKind::kIncident);
    EXPECT_EQ(r[0].members, 5u);
    EXPECT_TRUE(r[0].major);
    EXPECT_FALSE(r[0].expanded);
    EXPECT_EQ(record(r[0]).tag, "train/loss");
    EXPECT_EQ(record(r[0]).rank, 1);
    EXPECT_EQ(record(r[0]).step, 50);
    EXPECT_EQ(r[1].kind, AnomalyRowKind::kIncident);
    EXPECT_EQ(record(r[1]).step, 120);
    EXPECT_EQ(r[1].members, 1u);
    EXPECT_EQ(r[2].kind, AnomalyRowKind::kCondition);
    EXPECT_EQ(record(r[2]).tag, "eval/probe");
    EXPECT_EQ(anomaly_incident_cell(r[0], true), "+ major (5)");
    EXPECT_EQ(anomaly_incident_cell(r[1], true), "  major");
    EXPECT_EQ(anomaly_incident_cell(r[2], true), "condition");
}

TEST_F(IncidentRows, EnterAndRightUnfoldLeftFolds) {
    key("4");
    key("Right");
    std::vector<AnomalyRow> r = rows();
    ASSERT_EQ(r.size(), 7u);
    EXPECT_TRUE(r[0].expanded);
    for (int i = 1; i <= 4; ++i) {
        EXPECT_EQ(r[i].kind, AnomalyRowKind::kMember);
        EXPECT_EQ(record(r[i]).step, 50);
    }
    EXPECT_EQ(anomaly_incident_cell(r[0], true), "- major (5)");
    // Enter on a member opens its chart.
    key("j");
    key("j");
    const std::size_t member = *anomaly_selected_record(state_.anomalies, model_);
    key("Enter");
    ASSERT_EQ(state_.view, ViewId::kDetail);
    EXPECT_EQ(state_.detail.tag, analyzer_.log().records()[member].tag);
    key("Esc");
    // Left on a member folds its incident and selects its row.
    key("Left");
    EXPECT_EQ(rows().size(), 3u);
    EXPECT_EQ(state_.anomalies.selected, 0);
    // Enter on a folded incident unfolds it, a second Enter opens the root's chart.
    key("Enter");
    EXPECT_EQ(state_.view, ViewId::kAnomalies);
    EXPECT_EQ(rows().size(), 7u);
    key("Enter");
    ASSERT_EQ(state_.view, ViewId::kDetail);
    EXPECT_EQ(state_.detail.tag, "train/loss");
    ASSERT_TRUE(state_.detail.focus);
    EXPECT_EQ(state_.detail.focus->rank, 1);
}

TEST_F(IncidentRows, AcknowledgingAFoldedIncidentAcknowledgesEveryMember) {
    key("4");
    key("a");
    EXPECT_EQ(state_.anomalies.acknowledged.size(), 5u);
    EXPECT_NE(state_.flash.find("and 4 more"), std::string::npos) << state_.flash;
}

TEST_F(IncidentRows, NStepsIncidentByIncidentInStepOrder) {
    key("n");
    EXPECT_EQ(state_.flash, "incident 1/2 (major)");
    ASSERT_EQ(state_.view, ViewId::kDetail);
    EXPECT_EQ(state_.detail.tag, "train/loss");
    EXPECT_EQ(state_.detail.focus->rank, 1);
    EXPECT_EQ(*state_.detail.cursor, 50);
    key("n");
    EXPECT_EQ(state_.flash, "incident 2/2 (major)");
    EXPECT_EQ(state_.detail.focus->rank, 0);
    EXPECT_EQ(*state_.detail.cursor, 120);
    key("n");
    EXPECT_EQ(state_.flash, "last incident (2 of 2, major)");
    key("N");
    EXPECT_EQ(state_.flash, "incident 1/2 (major)");
    // From a member of an unfolded incident, n goes on to the next incident, not the next row.
    key("4");
    key("Right");
    key("j");
    key("n");
    EXPECT_EQ(state_.flash, "incident 2/2 (major)");
}

TEST_F(IncidentRows, TheStatusLineNamesTheFirstMajorIncident) {
    EXPECT_EQ(first_incident_text(model_), "first: step 50 rank 1 train/loss");
    Canvas canvas(kW, kH);
    draw_screen(canvas, model_, state_);
    EXPECT_NE(row(canvas, kH - 1).find("first: step 50 rank 1 train/loss"), std::string::npos)
        << row(canvas, kH - 1);
}

TEST_F(IncidentRows, FoundOnceWhileTheLogStaysTheSame) {
    const IncidentReport* first = &model_.incidents();
    const std::size_t n = first->incidents.size();
    EXPECT_EQ(&model_.incidents(), first);
    // A new incident: the report is found again.
    add("job", 3, "train/loss2", 300, [](int s) { return s == 250 ? std::nan("") : 1.0; });
    model_.update();
    EXPECT_EQ(model_.incidents().incidents.size(), n + 1);
}

// The same run on disk, through `runtop snapshot`: the incident unfolded (Enter), the condition
// last, the status line naming the first major incident. Re-bless with
//     RUNTOP_BLESS=1 build/tests/runtop_tests --gtest_filter='IncidentSnapshot.*'
TEST(IncidentSnapshot, GoldenUnfolded120x20) {
    runtop::testing::TempDir config, dir;
    ::setenv("XDG_CONFIG_HOME", (config / "config").c_str(), 1);
    for (int rank = 0; rank < 4; ++rank) {
        const std::string d = dir.path() + "/job/rank_" + std::to_string(rank);
        runtop::testing::make_dirs(d);
        std::string bytes;
        for (int s = 0; s < 200; ++s) {
            const double wall = 1.7e9 + s;
            const bool nan_loss = (s == 50 && rank == 1) || (s == 120 && rank == 0);
            const float loss = nan_loss ? NAN : 1.0f + 0.001f * static_cast<float>(s % 7);
            const float grad = s == 50 ? NAN : 2.0f + 0.001f * static_cast<float>(s % 5);
            bytes += frame_record(events::simple_scalar("train/loss", loss, s, wall));
            bytes += frame_record(events::simple_scalar("train/grad_norm", grad, s, wall));
            if (rank == 0) bytes += frame_record(events::simple_scalar("eval/probe", NAN, s, wall));
        }
        runtop::testing::write_file(d + "/events.out.tfevents.1", bytes);
    }
    runtop::testing::expect_golden_output(
        "anomalies_incidents_120x20",
        runtop::testing::run_runtop({"snapshot", "--size", "120x20", "--view", "anomalies",
                                     "--keys", "Enter", "fx=" + dir.path()}));
}

TEST(IncidentWatch, AnnouncesEachNewMajorIncidentOnceNotTheBacklog) {
    AnomalyLog log;
    auto nan_at = [&](int rank, std::int64_t step) {
        AnomalyRecord r;
        r.run = "job";
        r.rank = rank;
        r.tag = "train/loss";
        r.step = r.last_step = step;
        r.rule = "nonfinite";
        r.value = std::nan("");
        r.severity = Severity::kAlert;
        log.fire(r);
    };
    nan_at(0, 10);
    IncidentWatch watch;
    EXPECT_TRUE(watch.fresh(log, find_incidents(log), /*loading=*/true).empty());
    EXPECT_TRUE(watch.fresh(log, find_incidents(log), false).empty());  // seen while loading
    nan_at(1, 40);
    const std::vector<std::string> fresh = watch.fresh(log, find_incidents(log), false);
    ASSERT_EQ(fresh.size(), 1u);
    EXPECT_NE(fresh[0].find("step 40"), std::string::npos) << fresh[0];
    EXPECT_TRUE(watch.fresh(log, find_incidents(log), false).empty());
}

TEST(Notify, BellDesktopAndTmuxBytes) {
    EXPECT_EQ(notification_bytes(NotifyMode::kOff, "x", false), "");
    EXPECT_EQ(notification_bytes(NotifyMode::kBell, "x", true), "\a");
    EXPECT_EQ(notification_bytes(NotifyMode::kDesktop, "loss nan", false),
              "\x1b]9;loss nan\a\x1b]777;notify;runtop;loss nan\a");
    EXPECT_EQ(notification_bytes(NotifyMode::kDesktop, "a", true),
              "\x1bPtmux;\x1b\x1b]9;a\a\x1b\\"
              "\x1bPtmux;\x1b\x1b]777;notify;runtop;a\a\x1b\\");
    // A control character would end the sequence early: it becomes a space.
    EXPECT_EQ(notification_bytes(NotifyMode::kDesktop,
                                 "a\x07"
                                 "b\x1b",
                                 false),
              "\x1b]9;a b \a\x1b]777;notify;runtop;a b \a");
    EXPECT_EQ(notification_bytes(NotifyMode::kDesktop, std::string(500, 'x'), false).size(),
              2 * 200 + std::string("\x1b]9;\a\x1b]777;notify;runtop;\a").size());
    NotifyMode mode = NotifyMode::kOff;
    EXPECT_TRUE(parse_notify_mode("desktop", mode));
    EXPECT_EQ(mode, NotifyMode::kDesktop);
    EXPECT_FALSE(parse_notify_mode("loud", mode));
}

}  // namespace
}  // namespace runtop::ui
