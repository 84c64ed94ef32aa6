// The dashboard end to end: the real `runtop [OPTIONS] PATH...` binary in a tmux pane (and
// through `ssh -tt localhost`), driven by keys and resizes, read back with capture-pane.
//
// Every wait is for text on the screen (TmuxSession::wait_for polls every ~20 ms), never a fixed
// sleep. Views are recognised by markers that do not depend on column positions: the status
// line's right-hand text (overview "N cards" / "page i/n", ranks "N ranks, tag i/n", heatmap
// "tag i/n", anomalies "row i/n", the detail chart's key hints), the anomaly table's
// "INCIDENT" header, the detail chart's title (its first line starts with the tag), the prompts'
// texts and the help's title. The fixture is tests/view_fixture.h's rank_events(): four ranks, 400
// steps, a grad_norm spike on rank 1 at step 200 and a NaN loss on rank 2 at step 300.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "bench/msprobe_scale.h"
#include "tests/ssh_localhost.h"
#include "tests/test_support.h"
#include "tests/tmux_session.h"
#include "tests/view_fixture.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop::testing {
namespace {

using namespace std::chrono_literals;

const char* const kTags[] = {"train/loss", "train/grad_norm", "train/lr", "eval/accuracy"};

// --- the fixture and the command line ---------------------------------------------------------

// ROOT/job/rank_R/events.out.tfevents.1 for R = 0..3 (rank_events: spike r1@200, NaN r2@300).
void write_fixture(const std::string& root) {
    for (int rank = 0; rank < 4; ++rank) {
        const std::string d = root + "/job/rank_" + std::to_string(rank);
        make_dirs(d);
        write_file(d + "/events.out.tfevents.1",
                   rank_events(rank, 400, rank == 2 ? 300 : -1, rank == 1 ? 200 : -1));
    }
}

// Appends as a training process does: one write(2) on an O_APPEND descriptor.
void append_records(const std::string& path, std::string_view bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    ASSERT_GE(fd, 0) << path;
    ASSERT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    ::close(fd);
}

// `runtop ARGS...` as /bin/sh text.
std::string runtop_line(const std::vector<std::string>& args) {
    std::string line = shell_quote(testing::runtop_binary());
    for (const std::string& a : args) line += " " + shell_quote(a);
    return line;
}

// --- reading the screen -----------------------------------------------------------------------

std::vector<std::string> rows(const std::string& screen) {
    return split_lines(screen);
}

std::string row(const std::string& screen, int index) {
    const std::vector<std::string> r = rows(screen);
    if (index < 0) index += static_cast<int>(r.size());
    return index >= 0 && index < static_cast<int>(r.size()) ? r[index] : std::string();
}

// The status line: the bottom row.
std::string status_line(const std::string& screen) {
    return row(screen, -1);
}

bool has(const std::string& text, std::string_view what) {
    return text.find(what) != std::string::npos;
}

bool matches(const std::string& text, const char* pattern) {
    return std::regex_search(text, std::regex(pattern));
}

// The number of alerts the status line counts ("▲ 2 alert"; "no alerts" is 0); nullopt when the
// status line says neither.
std::optional<int> alert_count(const std::string& screen) {
    std::string status = status_line(screen);
    status = status.substr(0, status.find("the filter hides"));  // the shown series' alerts
    std::smatch m;
    if (std::regex_search(status, m, std::regex(R"((\d+) alert(\s|$))"))) return std::stoi(m[1]);
    if (has(status, "no alerts") || has(status, "no new alerts")) return 0;
    return std::nullopt;
}

// Each view by its status line's right-hand text (views/*_view.cpp: draw_status's `right`).
bool is_overview(const std::string& s) {
    return matches(status_line(s), R"((\d+ cards?|page \d+/\d+( \(\d+ cards\))?)$)");
}
bool is_ranks(const std::string& s) {
    return matches(status_line(s), R"((ranks?|columns)( \d+-\d+ of \d+)?, tag \d+/\d+$)");
}
bool is_heatmap(const std::string& s) {
    // Two spaces at least between the left segments and the right text: ", tag" is the ranks'.
    return matches(status_line(s), R"(  (rows \d+-\d+ of \d+, )?tag \d+/\d+$)");
}
bool is_anomalies(const std::string& s) {
    return row(s, 0).starts_with("INCIDENT") && matches(status_line(s), R"(row \d+/\d+)");
}
// The detail chart of `tag`: its title starts the first line; the status line has its key hints.
bool is_detail(const std::string& s, const std::string& tag) {
    const std::string status = status_line(s);
    return row(s, 0).starts_with(tag) && (has(status, "zoom") || status.ends_with("detail"));
}
// The cursor readout at `step` (the side panel's "step  N", or the bottom readout's "step N").
bool cursor_at(const std::string& s, long long step) {
    return std::regex_search(s, std::regex(R"(\bstep\s+)" + std::to_string(step) + R"(\b)"));
}
bool overview_ready(const std::string& s) {
    // "live": the backfill is done, so the alert count is final.
    return has(row(s, 0), "train/loss") && is_overview(s) && alert_count(s).has_value() &&
           matches(status_line(s), R"(\blive\b)");
}

bool has_braille(const std::string& text) {
    // U+2800..U+28FF is E2 A0 80 .. E2 A3 BF in UTF-8.
    for (std::size_t i = 0; i + 1 < text.size(); ++i)
        if (static_cast<unsigned char>(text[i]) == 0xE2 &&
            (static_cast<unsigned char>(text[i + 1]) & 0xFC) == 0xA0)
            return true;
    return false;
}

bool all_ascii(const std::string& text) {
    for (char c : text)
        if (static_cast<unsigned char>(c) >= 0x80) return false;
    return true;
}

// The SGR sequences in a capture-pane -e that set a colour (30-38, 40-48, 90-97, 100-107; 39
// and 49 only reset to the default).
std::vector<std::string> colour_sgrs(const std::string& escaped) {
    std::vector<std::string> found;
    const std::regex sgr("\x1b\\[([0-9;:]*)m");
    for (auto it = std::sregex_iterator(escaped.begin(), escaped.end(), sgr);
         it != std::sregex_iterator(); ++it) {
        std::stringstream params((*it)[1].str());
        std::string p;
        while (std::getline(params, p, ';')) {
            const int n = p.empty() ? 0 : std::atoi(p.c_str());
            if ((n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) ||
                (n >= 100 && n <= 107)) {
                found.push_back((*it)[0].str().substr(1));
                break;
            }
        }
        if (found.size() >= 5) break;
    }
    return found;
}

// The pids of a process's children (/proc/PID/task/*/children).
std::vector<int> child_pids(int pid) {
    std::vector<int> out;
    std::istringstream in(
        read_file("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children"));
    for (int child; in >> child;) out.push_back(child);
    return out;
}

// --- the fixture class ------------------------------------------------------------------------

class DashboardE2e : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        data_ = new TempDir();
        write_fixture(data_->path());
    }
    static void TearDownTestSuite() {
        delete data_;
        data_ = nullptr;
    }
    void SetUp() override {
        REQUIRE_TOOL("tmux");
        make_dirs(tmp_ / "config");
    }
    // The fixture's root (holding job/rank_*).
    static std::string fixture() { return data_->path(); }
    // The pane's options: never the rules or config of whoever runs the tests; the temp dir as
    // the working directory (where a core file would go).
    TmuxOptions options(int w = 120, int h = 40) {
        return TmuxOptions(w, h).with_env("XDG_CONFIG_HOME", tmp_ / "config").in_dir(tmp_.path());
    }

    static inline TempDir* data_ = nullptr;
    TempDir tmp_;
};

#define ASSERT_STARTED(s) ASSERT_TRUE((s).started()) << (s).error()

// --- 1. keys → views --------------------------------------------------------------------------

TEST_F(DashboardE2e, KeysDriveEveryView) {
    TmuxSession s(runtop_line({fixture()}), options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
    {
        const std::string screen = s.capture();
        EXPECT_EQ(rows(screen).size(), 40u);
        // train/loss is the first card: nothing else before it on the first line.
        const std::string first = row(screen, 0);
        const std::size_t loss = first.find("train/loss");
        for (const char* tag : kTags) {
            if (std::string_view(tag) == "train/loss") continue;
            const std::size_t at = first.find(tag);
            EXPECT_TRUE(at == std::string::npos || at > loss) << tag << " before train/loss\n"
                                                              << screen;
        }
        // rank 2's NaN loss is an alert.
        EXPECT_GE(alert_count(screen).value_or(0), 1) << screen;
        EXPECT_TRUE(has(status_line(screen), "4 cards")) << screen;
    }

    // Views 2, 3, 4 and back to 1.
    ASSERT_TRUE(s.send_keys({"2"}));
    ASSERT_TRUE(s.wait_for(is_ranks, "the ranks view"));
    ASSERT_TRUE(s.send_keys({"3"}));
    ASSERT_TRUE(s.wait_for(is_heatmap, "the heatmap"));
    ASSERT_TRUE(s.send_keys({"4"}));
    ASSERT_TRUE(s.wait_for(is_anomalies, "the anomaly list"));
    ASSERT_TRUE(s.send_keys({"1"}));
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview again"));

    // `/` grad: a live preview while typing; Esc undoes it.
    ASSERT_TRUE(s.send_keys({"/"}));
    ASSERT_TRUE(s.wait_for("filter tags (RE2):"));
    ASSERT_TRUE(s.send_text("grad"));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return has(screen, "train/grad_norm") && !has(screen, "train/loss") &&
                   !has(screen, "train/lr") && !has(screen, "eval/accuracy") &&
                   has(status_line(screen), "filter tags (RE2): grad");
        },
        "only grad cards while typing"));
    ASSERT_TRUE(s.send_keys({"Escape"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            for (const char* tag : kTags)
                if (!has(screen, tag)) return false;
            return overview_ready(screen) && !has(status_line(screen), "filter");
        },
        "every card back after Esc"));

    // `/` loss Enter: the filter stays and the status line says so.
    ASSERT_TRUE(s.send_keys({"/"}));
    ASSERT_TRUE(s.wait_for("filter tags (RE2):"));
    ASSERT_TRUE(s.send_text("loss"));
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return has(status_line(screen), "filter loss") && has(screen, "train/loss") &&
                   !has(screen, "train/grad_norm") && !has(screen, "eval/accuracy") &&
                   is_overview(screen);
        },
        "the loss filter kept, in the status line"));

    // `r` 0-1 Enter: the rank filter in the status line.
    ASSERT_TRUE(s.send_keys({"r"}));
    ASSERT_TRUE(s.wait_for("ranks (0-7,!3,n2):"));
    ASSERT_TRUE(s.send_text("0-1"));
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            const std::string status = status_line(screen);
            return has(status, "ranks 0-1") && has(status, "filter loss") && is_overview(screen);
        },
        "the rank filter in the status line"));
    EXPECT_TRUE(has(s.capture(), "2 ranks")) << s.capture();

    // Enter on a card: its detail chart; Esc: back.
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(
        s.wait_for([](const std::string& screen) { return is_detail(screen, "train/loss"); },
                   "the detail chart of train/loss"));
    ASSERT_TRUE(s.send_keys({"Escape"}));
    ASSERT_TRUE(s.wait_for(is_overview, "the overview after Esc"));

    // Empty filters clear.
    ASSERT_TRUE(s.send_keys({"/"}));
    ASSERT_TRUE(s.wait_for("filter tags (RE2): loss"));
    ASSERT_TRUE(s.send_keys({"C-u", "Enter", "r"}));
    ASSERT_TRUE(s.wait_for("ranks (0-7,!3,n2): 0-1"));
    ASSERT_TRUE(s.send_keys({"C-u", "Enter"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            const std::string status = status_line(screen);
            return overview_ready(screen) && has(status, "4 cards") && !has(status, "filter") &&
                   !has(status, "ranks ");
        },
        "the filters cleared"));

    // 4, Enter on the first incident: the detail chart of its root at its step.
    ASSERT_TRUE(s.send_keys({"4"}));
    ASSERT_TRUE(s.wait_for(is_anomalies, "the anomaly list"));
    std::string first_row = row(s.capture(), 1);
    std::smatch m;
    // The first incident's row: its mark, then its root's step.
    ASSERT_TRUE(
        std::regex_search(first_row, m, std::regex(R"((major|minor)( \(\d+\))?\s+(\d+)\s)")))
        << first_row;
    const long long step = std::stoll(m[3]);
    std::string tag;
    for (const char* t : kTags)
        if (has(first_row, t)) tag = t;
    ASSERT_FALSE(tag.empty()) << first_row;
    EXPECT_TRUE(step == 200 || step == 300) << first_row;
    // Enter on a folded incident unfolds it; then Enter opens its root's chart.
    if (m[2].matched) {
        ASSERT_TRUE(s.send_keys({"Enter"}));
    }
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(s.wait_for(
        [&](const std::string& screen) {
            return is_detail(screen, tag) && cursor_at(screen, step);
        },
        "the detail chart of " + tag + " at step " + std::to_string(step)));
    ASSERT_TRUE(s.send_keys({"Escape"}));
    ASSERT_TRUE(s.wait_for(is_anomalies, "the anomaly list after Esc"));

    // n from the overview: the same.
    ASSERT_TRUE(s.send_keys({"1"}));
    ASSERT_TRUE(s.wait_for(is_overview, "the overview"));
    ASSERT_TRUE(s.send_keys({"n"}));
    ASSERT_TRUE(s.wait_for(
        [&](const std::string& screen) {
            return is_detail(screen, tag) && cursor_at(screen, step);
        },
        "n: the first anomaly's chart"));
    ASSERT_TRUE(s.send_keys({"Escape"}));
    ASSERT_TRUE(s.wait_for(is_overview, "the overview after Esc"));

    // ? shows the help, ending with how the files are watched; a key closes it.
    ASSERT_TRUE(s.send_keys({"?"}));
    ASSERT_TRUE(s.wait_for("runtop keys"));
    ASSERT_TRUE(s.send_keys(std::vector<std::string>(120, "Down")));
    ASSERT_TRUE(s.wait_for("inotify watches for 1 root, one per directory"));
    ASSERT_TRUE(s.send_keys({"Escape"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return !has(screen, "runtop keys") && overview_ready(screen);
        },
        "the help closed"));

    // a in the anomaly list: the row is acknowledged.
    ASSERT_TRUE(s.send_keys({"4"}));
    ASSERT_TRUE(s.wait_for(is_anomalies, "the anomaly list"));
    ASSERT_TRUE(s.send_keys({"a"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return matches(row(screen, 1), R"(\back\b)") &&
                   matches(status_line(screen), R"(\b1 ack\b)") && is_anomalies(screen);
        },
        "the first row acknowledged"));

    ASSERT_TRUE(s.send_keys({"q"}));
    int status = -1;
    ASSERT_TRUE(s.wait_exit(&status));
    EXPECT_EQ(status, 0);
}

// Started with a filter, the dashboard reads only what it selects (the rest is counted as
// hidden); a filter set with `/` then reads every file again with it: the same points, alerts
// and cards as a dashboard started without one.
TEST_F(DashboardE2e, AStartFilterReadsOnlyItsSeriesAndAWiderOneReadsTheRestAgain) {
    // "N points" in the status line, and the alert count, once loaded.
    auto counts = [](const std::string& screen) {
        std::smatch m;
        const std::string status = status_line(screen);
        std::regex_search(status, m, std::regex("([0-9][0-9.,]*[kMG]?) points"));
        return std::make_pair(m.empty() ? std::string() : m[1].str(), alert_count(screen));
    };
    TmuxSession all(runtop_line({fixture()}), options(160, 40));
    ASSERT_STARTED(all);
    ASSERT_TRUE(all.wait_for(overview_ready, "the overview, loaded"));
    const auto want = counts(all.capture());
    ASSERT_FALSE(want.first.empty()) << all.capture();

    TmuxSession s(runtop_line({"--filter", "grad", fixture()}), options(160, 40));
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            const std::string status = status_line(screen);
            // 4 ranks of 3 other tags were never stored, only counted.
            return is_overview(screen) && matches(status, R"(\blive\b)") &&
                   has(screen, "train/grad_norm") && !has(screen, "train/loss") &&
                   has(status, "filter grad") && has(status, "(12 hidden, not judged)") &&
                   has(status, "1 card");
        },
        "only the grad_norm card, the rest hidden"));
    EXPECT_NE(counts(s.capture()).first, want.first) << s.capture();

    ASSERT_TRUE(s.send_keys({"/"}));
    ASSERT_TRUE(s.wait_for("filter tags (RE2): grad"));
    ASSERT_TRUE(s.send_keys({"C-u", "Enter"}));
    ASSERT_TRUE(s.wait_for(
        [&](const std::string& screen) {
            const std::string status = status_line(screen);
            return overview_ready(screen) && has(status, "4 cards") && !has(status, "hidden") &&
                   !has(status, "filter") && counts(screen) == want;
        },
        "every card, point and alert, read again"))
        << s.capture();
}

// bench's msProbe generator: 8 ranks x 64 parameters x 30 steps (320 tags), rank 2 spiking at
// step 20 in layer 4's input_layernorm.weight; its one line of stdout kept off the test's.
bool write_msprobe_job(const std::string& root) {
    ::testing::internal::CaptureStdout();
    const int rc = bench::write_msprobe_scale(root, {8, 64, 30, 5});
    ::testing::internal::GetCapturedStdout();
    return rc == 0;
}

// A generated msProbe job of 8 ranks x 64 parameters (320 tags): the overview folds the tags
// into the model's layers, Enter opens one, `t` shows the tree beside the cards, Backspace goes
// back up.
TEST_F(DashboardE2e, TheTagTreeOpensAndClosesOnAnMsProbeJob) {
    const std::string root = tmp_ / "msprobe";
    ASSERT_TRUE(write_msprobe_job(root));
    TmuxSession s(runtop_line({root}), options(160, 40));
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return has(status_line(screen), "320 tags (Enter opens a group)") &&
                   has(screen, "layers.0/") && has(screen, "layers.7/") && has(screen, "40 tags");
        },
        "the layers as group cards"));
    ASSERT_TRUE(s.send_keys({"Right", "Enter"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return has(status_line(screen), "layers.0/ (Backspace: up)") &&
                   has(screen, "input_layernorm.weight/");
        },
        "layer 0's parameters"));
    ASSERT_TRUE(s.send_keys({"t"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return row(screen, 0).starts_with("▾ all") && has(screen, "▾ …encoder.layers.0");
        },
        "the side list open along layer 0"));
    ASSERT_TRUE(s.send_keys({"BSpace"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return !has(status_line(screen), "Backspace: up") && has(screen, "layers.7/");
        },
        "back at the layers"));
    ASSERT_TRUE(s.send_keys({"q"}));
}

// The module x step heatmap on a generated msProbe job whose rank 2 spikes at step 20 in
// layer 4's input_layernorm.weight: `6` opens grad_unreduced norm, `a` shows the spread across
// ranks, `g 20` goes to the step, and Enter opens the module's chart there.
TEST_F(DashboardE2e, TheModuleHeatmapFindsTheSpikingModule) {
    const std::string root = tmp_ / "msprobe";
    ASSERT_TRUE(write_msprobe_job(root));
    TmuxSession s(runtop_line({root}), options(160, 40));
    ASSERT_STARTED(s);
    ASSERT_TRUE(
        s.wait_for([](const std::string& screen) { return has(status_line(screen), "live"); },
                   "the job read"));
    ASSERT_TRUE(s.send_keys({"6"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return row(screen, 0).starts_with("grad_unreduced norm  64 modules") &&
                   has(screen, "layers.0.input_layernorm.weight") &&
                   has(status_line(screen), "family");
        },
        "grad_unreduced norm, a row per module"));
    ASSERT_TRUE(s.send_keys({"a", "a"}));  // one rank, then the spread across ranks
    ASSERT_TRUE(s.wait_for("spread"));
    ASSERT_TRUE(s.send_keys({"g", "2", "0", "Enter"}));
    ASSERT_TRUE(s.wait_for("step 20"));
    ASSERT_TRUE(s.send_keys({"q"}));
}

// --- 2. live: appends, alerts, pause ----------------------------------------------------------

TEST_F(DashboardE2e, LiveAppendsRaiseAlertsAndPauseHoldsThem) {
    const std::string dir = tmp_ / "live";
    make_dirs(dir + "/job/rank_0");
    const std::string file = dir + "/job/rank_0/events.out.tfevents.1";
    write_file(file, rank_events(0, 100));
    TmuxSession s(runtop_line({dir}), options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
    const int before = *alert_count(s.capture());

    // A NaN loss arrives: the status line counts one alert more.
    append_records(
        file, frame_record(events::simple_scalar("train/loss", std::nanf(""), 100, 1.7e9 + 100)));
    ASSERT_TRUE(s.wait_for(
        [before](const std::string& screen) { return alert_count(screen).value_or(0) > before; },
        "the alert count to rise above " + std::to_string(before)));

    // f pauses: new points wait (the status line counts them) and do not show.
    ASSERT_TRUE(s.send_keys({"f"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) { return has(status_line(screen), "paused"); }, "paused"));
    std::string extra;
    for (int step = 101; step < 111; ++step)
        extra += frame_record(
            events::simple_scalar("train/extra", static_cast<float>(step), step, 1.7e9 + step));
    append_records(file, extra);
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return matches(status_line(screen), R"(paused, [0-9.]+k? waiting)");
        },
        "the paused status line counting the waiting points"));
    EXPECT_FALSE(has(s.capture(), "train/extra")) << s.capture();

    // f again: they show.
    ASSERT_TRUE(s.send_keys({"f"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return has(screen, "train/extra") && !has(status_line(screen), "paused");
        },
        "the waiting points applied after f"));

    ASSERT_TRUE(s.send_keys({"q"}));
    int status = -1;
    ASSERT_TRUE(s.wait_exit(&status));
    EXPECT_EQ(status, 0);
}

// What `make run` shows a newcomer: `runtop demo` under the dashboard, loss first, the spike
// and then the NaN landing in the anomaly list within seconds, the straggler named, and `n`
// opening the first failure's chart; quitting stops the writer too.
TEST_F(DashboardE2e, DemoShowsTheSpikeTheNaNAndTheStragglerWithinSeconds) {
    const std::string dir = tmp_ / "demo";
    // 4 ranks, 200 steps at 50 a second: the spike lands at step 70 (1.4 s), the NaN at 140.
    TmuxSession s(
        runtop_line({"demo", "--dir", dir, "--ranks", "4", "--steps", "200", "--rate", "50"}) +
            "; echo EXIT=$?; exec sleep 30",
        options(120, 40));
    ASSERT_STARTED(s);
    ASSERT_TRUE(
        s.wait_for([](const std::string& screen) { return has(row(screen, 0), "train/loss"); },
                   "the overview with train/loss first"));
    // First failure first: the incident of the spike at step 70 on top; the NaN (step 140) at the
    // end of the list, after the monitor's own findings at the spike.
    ASSERT_TRUE(s.send_keys({"4"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return row(screen, 0).starts_with("INCIDENT") && matches(row(screen, 1), R"( 70 )");
        },
        "the spike first in the anomaly list", std::chrono::seconds(20)));
    ASSERT_TRUE(s.wait_for(
        [&s](const std::string&) {
            s.send_keys({"G"});  // again at each look: records keep arriving while it runs
            return has(s.capture(), "nonfinite");
        },
        "the NaN at the end of the anomaly list", std::chrono::seconds(20)));
    // The straggling rank 3 stands out in the ranks view's throughput row.
    ASSERT_TRUE(s.send_keys({"2"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            for (const std::string& r : rows(screen))
                if (has(r, "train/throughput") && matches(r, R"(\b1 r3\b)")) return true;
            return false;
        },
        "the ranks view naming r3 as the throughput outlier"));
    ASSERT_TRUE(s.send_keys({"1"}));
    ASSERT_TRUE(s.send_keys({"n"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return (has(row(screen, 0), "train/grad_norm") || has(row(screen, 0), "train/loss")) &&
                   has(screen, "step") && has(screen, "70");
        },
        "the first anomaly's chart at step 70"));
    ASSERT_TRUE(s.send_keys({"q"}));
    ASSERT_TRUE(s.wait_for("EXIT=0"));
    EXPECT_TRUE(has(s.capture(), "the run is in")) << s.capture();
}

// --- 2b. comparing runs -----------------------------------------------------------------------

// Three runs of two ranks from the same seed (rank_events): "base"; "nan", whose rank 1 loss is
// NaN at step 300; "spike", whose rank 0 grad norm spikes at step 200. Each is ROOT/<run>/rank_R.
std::string write_compare_fixture(const std::string& root) {
    for (const char* run : {"base", "nan", "spike"}) {
        for (int rank = 0; rank < 2; ++rank) {
            const std::string d = root + "/" + run + "/rank_" + std::to_string(rank);
            make_dirs(d);
            const bool nan = std::string_view(run) == "nan" && rank == 1;
            const bool spike = std::string_view(run) == "spike" && rank == 0;
            write_file(d + "/events.out.tfevents.1",
                       rank_events(rank, 400, nan ? 300 : -1, spike ? 200 : -1));
        }
    }
    return root;
}

// The compare view: its title line names both runs.
bool is_compare(const std::string& s, const std::string& a, const std::string& b) {
    return row(s, 0).starts_with("compare") && has(row(s, 0), "A " + a + " vs B " + b) &&
           matches(status_line(s), R"(tag \d+/\d+ · sort )");
}

// `runtop base=A new=B` opens on the comparison; it names the first divergence.
TEST_F(DashboardE2e, TwoRootsOpenOnTheComparison) {
    const std::string root = write_compare_fixture(tmp_ / "runs");
    TmuxSession s(runtop_line({"base=" + root + "/base", "new=" + root + "/nan"}), options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return is_compare(screen, "base", "new") &&
                   has(row(screen, 0), "1 of 4 tags diverge, first at step 300 (train/loss r1)");
        },
        "the compare view naming step 300 on rank 1"));
    // The diverging tag is the first row, marked without colour, its rank named.
    const std::string screen = s.capture();
    EXPECT_TRUE(matches(row(screen, 2), R"(^▲ train/loss .* 300 r1\b)")) << screen;
    ASSERT_TRUE(s.send_keys({"q"}));
}

// Three runs: the overview overlays them with a legend, `5` compares the first two, `]` and `[`
// choose the others, Enter opens the overlaid chart at the first divergence with its Δ strip,
// Esc comes back, `c` shows the configuration panel.
TEST_F(DashboardE2e, ChoosingRunsAndOpeningTheOverlaidChart) {
    const std::string root = write_compare_fixture(tmp_ / "runs");
    TmuxSession s(
        runtop_line({"base=" + root + "/base", "nan=" + root + "/nan", "spike=" + root + "/spike"}),
        options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return is_overview(screen) && matches(row(screen, 0), R"(base .*nan .*spike)");
        },
        "the overview with the three runs' legend"));
    ASSERT_TRUE(s.send_keys({"5"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return is_compare(screen, "base", "nan") && has(row(screen, 0), "first at step 300");
        },
        "base against nan"));
    ASSERT_TRUE(s.send_keys({"]"}));  // B: the next run
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return is_compare(screen, "base", "spike") &&
                   has(row(screen, 0), "first at step 200 (train/grad_norm r0)");
        },
        "base against spike"));
    ASSERT_TRUE(s.send_keys({"["}));  // A: the next run that is not B
    ASSERT_TRUE(
        s.wait_for([](const std::string& screen) { return is_compare(screen, "nan", "spike"); },
                   "nan against spike"));
    ASSERT_TRUE(s.send_keys({"["}));  // and on round to base, skipping spike
    ASSERT_TRUE(
        s.wait_for([](const std::string& screen) { return is_compare(screen, "base", "spike"); },
                   "base against spike again"));

    // g: the first row, the earliest divergence (sorted by divergence). Enter: the grad norm of
    // both runs overlaid, at the first divergence, Δ below.
    ASSERT_TRUE(s.send_keys({"g"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return is_compare(screen, "base", "spike") && has(status_line(screen), "tag 1/4");
        },
        "the first row selected"));
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return row(screen, 0).starts_with("compare: train/grad_norm") &&
                   has(row(screen, 0), "base vs spike") && has(screen, "Δ spike − base") &&
                   has(screen, "diverges at 200") && cursor_at(screen, 200);
        },
        "the overlaid chart at step 200 with its delta strip"));
    {
        // The readout names both runs' values at the cursor.
        const std::string screen = s.capture();
        EXPECT_TRUE(matches(screen, R"(\bbase\s+[0-9.]+)")) << screen;
        EXPECT_TRUE(matches(screen, R"(\bspike\s+[0-9.]+)")) << screen;
    }
    ASSERT_TRUE(s.send_keys({"Escape"}));
    ASSERT_TRUE(
        s.wait_for([](const std::string& screen) { return is_compare(screen, "base", "spike"); },
                   "back in the compare view"));
    ASSERT_TRUE(s.send_keys({"c"}));
    ASSERT_TRUE(s.wait_for("configuration, A base → B spike"));
    ASSERT_TRUE(s.send_keys({"q"}));
}

// --- 3. resize storm --------------------------------------------------------------------------

// A frame at 19x5 (under kMinWidth x kMinHeight): only the notice, nothing else.
bool only_too_small_notice(const std::string& screen) {
    int text_rows = 0;
    bool notice = false;
    for (const std::string& r : rows(screen)) {
        const std::size_t a = r.find_first_not_of(' ');
        if (a == std::string::npos) continue;
        ++text_rows;
        const std::string t = r.substr(a, r.find_last_not_of(' ') + 1 - a);
        if (t == "too small")
            notice = true;
        else if (!t.starts_with("19x5"))
            return false;
    }
    return notice && text_rows <= 2 && all_ascii(screen);
}

TEST_F(DashboardE2e, ResizeStormEndsInTheSameFrame) {
    TmuxSession s(runtop_line({fixture()}), options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
    // The frame without its status line (the ingest rate there changes with time).
    auto body = [](const std::string& screen) {
        std::vector<std::string> r = rows(screen);
        if (!r.empty()) r.pop_back();
        return r;
    };
    const std::vector<std::string> baseline = body(s.capture());
    ASSERT_EQ(baseline.size(), 39u);

    for (auto [w, h] : {std::pair{100, 30},
                        {80, 24},
                        {40, 10},
                        {20, 6},
                        {19, 5},
                        {60, 20},
                        {10, 3},
                        {20, 6},
                        {1, 1},
                        {150, 50},
                        {19, 5}})
        ASSERT_TRUE(s.resize(w, h)) << s.error();
    ASSERT_TRUE(s.wait_for(only_too_small_notice, "only the too-small notice at 19x5"));

    ASSERT_TRUE(s.resize(20, 6));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return rows(screen).size() == 6 && !has(screen, "too small") &&
                   !status_line(screen).empty();
        },
        "a frame at 20x6 (the minimum), not the notice"));

    ASSERT_TRUE(s.resize(120, 40));
    ASSERT_TRUE(s.wait_for(
        [&](const std::string& screen) {
            return overview_ready(screen) && body(screen) == baseline;
        },
        "the same overview as before the storm"));

    // The detail chart too.
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(
        s.wait_for([](const std::string& screen) { return is_detail(screen, "train/loss"); },
                   "the detail chart"));
    for (auto [w, h] : {std::pair{80, 24}, {19, 5}, {30, 8}, {19, 5}})
        ASSERT_TRUE(s.resize(w, h)) << s.error();
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) { return has(screen, "too small") && all_ascii(screen); },
        "the notice over the detail chart"));
    ASSERT_TRUE(s.resize(120, 40));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return is_detail(screen, "train/loss") && rows(screen).size() == 40;
        },
        "the detail chart back at 120x40"));

    ASSERT_TRUE(s.send_keys({"q"}));
    int status = -1;
    ASSERT_TRUE(s.wait_exit(&status));
    EXPECT_EQ(status, 0);
}

// --- 4. the terminal is restored on every way out ---------------------------------------------

struct ExitCase {
    const char* name;
    int signal;       // 0: the q key
    int exit_status;  // what the shell's $? says
};
void PrintTo(const ExitCase& c, std::ostream* os) {
    *os << c.name;
}

class DashboardExit : public DashboardE2e, public ::testing::WithParamInterface<ExitCase> {};

TEST_P(DashboardExit, RestoresTheTerminal) {
    const ExitCase c = GetParam();
    const std::string stty = tmp_ / "stty.txt";
    // No core file from SIGSEGV; the shell's $? and the terminal's modes once runtop is gone.
    const std::string line = "ulimit -c 0; printf 'BEFORE-MARKER\\n'; " + runtop_line({fixture()}) +
                             "; rc=$?; stty -a > " + shell_quote(stty) +
                             "; echo EXIT=$rc; exec sleep 30";
    TmuxSession s(line, options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
    EXPECT_FALSE(has(s.capture(), "BEFORE-MARKER"));  // the alternate screen
    {
        const std::optional<std::string> modes =
            s.tmux({"display-message", "-p", "-t", "e2e", "#{alternate_on}"});
        ASSERT_TRUE(modes) << s.error();
        EXPECT_EQ(*modes, "1\n");
    }
    // Widened before leaving: tmux then pushed the alternate screen into the scrollback, unless
    // it was cleared first.
    ASSERT_TRUE(s.resize(200, 40)) << s.error();
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            const std::string status = status_line(screen);
            const auto columns = std::count_if(status.begin(), status.end(), [](char ch) {
                return (static_cast<unsigned char>(ch) & 0xc0) != 0x80;  // code points
            });
            return overview_ready(screen) && columns > 150;
        },
        "the overview redrawn 200 columns wide"));

    if (c.signal == 0) {
        ASSERT_TRUE(s.send_keys({"q"}));
    } else {
        // runtop is the shell's one child.
        const std::vector<int> children = child_pids(s.pane_pid());
        ASSERT_EQ(children.size(), 1u) << "pane pid " << s.pane_pid();
        const int pid = children[0];
        ASSERT_TRUE(has(read_file("/proc/" + std::to_string(pid) + "/cmdline"), "runtop"));
        ASSERT_EQ(::kill(pid, c.signal), 0);
    }
    ASSERT_TRUE(s.wait_for("EXIT="));
    const std::string screen = s.capture();
    EXPECT_TRUE(has(screen, "BEFORE-MARKER")) << screen;  // the main screen again
    EXPECT_TRUE(has(screen, "EXIT=" + std::to_string(c.exit_status))) << screen;
    EXPECT_FALSE(has(screen, "train/loss")) << screen;
    EXPECT_FALSE(has(s.capture_history(), "train/loss")) << s.capture_history();

    // Cooked mode again.
    std::vector<std::string> flags;
    std::istringstream words(read_file(stty));
    for (std::string w; words >> w;)
        flags.push_back(w.back() == ';' ? w.substr(0, w.size() - 1) : w);
    auto flag = [&](const char* f) {
        return std::find(flags.begin(), flags.end(), f) != flags.end();
    };
    EXPECT_TRUE(flag("icanon")) << read_file(stty);
    EXPECT_TRUE(flag("echo")) << read_file(stty);
    EXPECT_TRUE(flag("isig")) << read_file(stty);
    EXPECT_FALSE(flag("-icanon") || flag("-echo") || flag("-isig")) << read_file(stty);

    // The screen modes as tmux sees them: main screen, cursor visible, no mouse reporting,
    // normal cursor keys and keypad, autowrap on.
    const std::optional<std::string> modes = s.tmux(
        {"display-message", "-p", "-t", "e2e",
         "alt=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_any_flag}#{mouse_button_flag}"
         "#{mouse_all_flag}#{mouse_standard_flag} keypad=#{keypad_cursor_flag}#{keypad_flag} "
         "wrap=#{wrap_flag} insert=#{insert_flag} origin=#{origin_flag}"});
    ASSERT_TRUE(modes) << s.error();
    EXPECT_EQ(*modes, "alt=0 cursor=1 mouse=0000 keypad=00 wrap=1 insert=0 origin=0\n");
    // Plain text again: what the shell prints next has no attributes or colours.
    for (const std::string& r : rows(s.capture(true)))
        if (has(r, "EXIT=")) {
            EXPECT_FALSE(has(r, "\x1b[")) << r;
        }
}

// Under AddressSanitizer the crash guard hands SIGSEGV on to ASan's handler (after restoring
// the terminal), which reports and exits 1 instead of dying of the signal.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kSegvStatus = 1;
#else
constexpr int kSegvStatus = 128 + SIGSEGV;
#endif

INSTANTIATE_TEST_SUITE_P(
    DashboardE2e, DashboardExit,
    ::testing::Values(ExitCase{"Quit", 0, 0}, ExitCase{"Segv", SIGSEGV, kSegvStatus},
                      ExitCase{"Term", SIGTERM, 0}, ExitCase{"Int", SIGINT, 0},
                      ExitCase{"Hup", SIGHUP, 0}, ExitCase{"SigQuit", SIGQUIT, 128 + SIGQUIT}),
    [](const ::testing::TestParamInfo<ExitCase>& info) { return std::string(info.param.name); });

// --- 5. untrusted tags are drawn, not obeyed ---------------------------------------------------

TEST_F(DashboardE2e, EscapeSequencesInTagsAreShownNotObeyed) {
    const std::string evil = "evil\x1b[2J\x1b]0;pwned\x07\r\x1b[10;10H/loss";
    // The run's directory name is untrusted too (the anomaly list shows runs).
    const std::string dir = tmp_ / "evil";
    const std::string run_dir = dir + "/run\x1b]2;pwned-run\x07\x1b[H";
    make_dirs(run_dir);
    std::string bytes = rank_events(0, 60);
    for (int step = 0; step < 60; ++step)
        bytes += frame_record(events::simple_scalar(
            evil, step == 59 ? std::nanf("") : 1.0f + static_cast<float>(step), step,
            1.7e9 + step));
    write_file(run_dir + "/events.out.tfevents.1", bytes);

    // The pane gets a title of its own first (OSC 2), so a title runtop let through would show.
    TmuxSession s("printf '\\033]2;e2e-title\\033\\\\'; exec " + runtop_line({dir}), options());
    ASSERT_STARTED(s);
    auto title = [&s] {
        std::optional<std::string> t =
            s.tmux({"display-message", "-p", "-t", "e2e", "#{pane_title}"});
        return t ? *t : "(" + s.error() + ")";
    };
    // Drawn whole: 40 rows, the status line at the bottom, the top-left card where it belongs.
    auto intact = [](const std::string& screen) {
        return rows(screen).size() == 40 && !status_line(screen).empty() &&
               !row(screen, 0).starts_with(" ");
    };
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return overview_ready(screen) && has(screen, "evil\\x1b[2J");
        },
        "the overview with the evil tag drawn visibly"));
    {
        const std::string screen = s.capture();
        EXPECT_TRUE(intact(screen)) << screen;
        EXPECT_TRUE(has(screen, "train/loss")) << screen;  // not cleared
        EXPECT_TRUE(has(status_line(screen), "5 cards")) << screen;
        EXPECT_EQ(title(), "e2e-title\n");
    }

    // Its detail chart: the title line starts with the tag, made visible.
    ASSERT_TRUE(s.send_keys({"/"}));
    ASSERT_TRUE(s.wait_for("filter tags (RE2):"));
    ASSERT_TRUE(s.send_text("^evil"));
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return has(status_line(screen), "filter ^evil") && has(status_line(screen), "1 card");
        },
        "the filter on the evil tag"));
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) { return is_detail(screen, "evil\\x1b[2J\\x1b]0;pwned"); },
        "the evil tag's detail chart"));
    EXPECT_TRUE(intact(s.capture())) << s.capture();
    // The ranks view and the anomaly list (tag and run) draw them too.
    ASSERT_TRUE(s.send_keys({"2"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) { return is_ranks(screen) && has(screen, "evil\\x1b"); },
        "the ranks view with the evil tag"));
    EXPECT_EQ(rows(s.capture()).size(), 40u);
    ASSERT_TRUE(s.send_keys({"4"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return is_anomalies(screen) && has(row(screen, 1), "evil\\x1b") &&
                   has(row(screen, 1), "run\\x1b");
        },
        "the anomaly list with the evil tag and run"));
    EXPECT_EQ(rows(s.capture()).size(), 40u);
    EXPECT_EQ(title(), "e2e-title\n");

    ASSERT_TRUE(s.send_keys({"q"}));
    int status = -1;
    ASSERT_TRUE(s.wait_exit(&status));
    EXPECT_EQ(status, 0);
    EXPECT_EQ(title(), "e2e-title\n");
}

// What the dashboard prints after it restored the terminal (the warnings it kept) is untrusted
// too: a file path is not a terminal command.
TEST_F(DashboardE2e, WarningsPrintedAtExitAreSanitised) {
    const std::string dir = tmp_ / "evilpath";
    const std::string bad_dir = dir + "/bad\x1b]2;pwned-path\x07";
    make_dirs(bad_dir);
    write_file(bad_dir + "/events.out.tfevents.1", std::string(100, '\x5a'));  // no record
    make_dirs(dir + "/good");
    write_file(dir + "/good/events.out.tfevents.1", rank_events(0, 50));

    TmuxSession s("printf '\\033]2;e2e-title\\033\\\\'; " + runtop_line({dir}) +
                      "; echo EXIT=$?; exec sleep 30",
                  options());
    ASSERT_STARTED(s);
    // The status line names the warning (sanitised, by the canvas).
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return overview_ready(screen) && has(status_line(screen), "1 warning");
        },
        "the overview with one warning"));
    ASSERT_TRUE(s.send_keys({"q"}));
    ASSERT_TRUE(s.wait_for("EXIT="));
    const std::optional<std::string> t =
        s.tmux({"display-message", "-p", "-t", "e2e", "#{pane_title}"});
    ASSERT_TRUE(t) << s.error();
    EXPECT_EQ(*t, "e2e-title\n") << s.capture();
    EXPECT_TRUE(has(s.capture(), "bad\\x1b]2;pwned-path")) << s.capture();  // shown, visibly
}

// A narrow terminal still shows what is typed at the `/` prompt (its end, at least).
TEST_F(DashboardE2e, NarrowPromptShowsTheTypedText) {
    TmuxSession s(runtop_line({fixture()}), options(40, 12));
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for("train/loss"));
    ASSERT_TRUE(s.send_keys({"/"}));
    ASSERT_TRUE(s.wait_for("filter tags (RE2):"));
    ASSERT_TRUE(s.send_text("grad"));
    ASSERT_TRUE(s.wait_for("train/grad_norm"));  // the preview applied it
    EXPECT_TRUE(s.wait_for("filter tags (RE2): grad", 2s));
}

// The terminal goes away (the pane is killed: SIGHUP, then no tty): runtop ends at once, no
// process left spinning on a dead terminal.
TEST_F(DashboardE2e, EndsWhenTheTerminalGoesAway) {
    TmuxSession s("exec " + runtop_line({fixture()}), options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
    const int pid = s.pane_pid();
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(has(read_file("/proc/" + std::to_string(pid) + "/cmdline"), "runtop"));
    // The session's one pane: the server closes the pty, sends SIGHUP and exits (a second
    // window to keep it up crashes tmux 3.3a's server here); whoever reaps runtop then, its
    // state in /proc says whether it is still running.
    s.tmux({"kill-pane", "-t", "e2e"});
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    auto running = [pid] {
        const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
        const std::size_t close = stat.rfind(')');
        return close != std::string::npos && stat.size() > close + 2 && stat[close + 2] != 'Z';
    };
    while (running() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    EXPECT_FALSE(running()) << "runtop (pid " << pid << ") still runs after its terminal closed";
}

// --- 6. through ssh ----------------------------------------------------------------------------

class DashboardE2eSsh : public SshLocalhostTest {
  protected:
    void SetUp() override {
        REQUIRE_TOOL("tmux");
        SshLocalhostTest::SetUp();
    }
};

TEST_F(DashboardE2eSsh, WorksThroughSshTt) {
    TempDir data, config;
    write_fixture(data.path());
    const std::string line =
        ssh().command_line(data.path(), {{"LANG", "C.UTF-8"}, {"XDG_CONFIG_HOME", config.path()}},
                           runtop_line({data.path()}));
    TmuxSession s(line, TmuxOptions(120, 40));
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview through ssh")) << "sshd log:\n"
                                                                        << ssh().log();
    EXPECT_TRUE(has_braille(s.capture())) << s.capture();  // UTF-8 over ssh: braille

    ASSERT_TRUE(s.send_keys({"4"}));
    ASSERT_TRUE(s.wait_for(is_anomalies, "the anomaly list"));
    ASSERT_TRUE(s.send_keys({"1"}));
    ASSERT_TRUE(s.wait_for(is_overview, "the overview"));
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(
        s.wait_for([](const std::string& screen) { return is_detail(screen, "train/loss"); },
                   "the detail chart"));
    // The window change travels through ssh to the remote pty.
    ASSERT_TRUE(s.resize(80, 24));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& screen) {
            return is_detail(screen, "train/loss") && rows(screen).size() == 24 &&
                   status_line(screen).size() >= 70;
        },
        "the detail chart redrawn at 80x24"));
    ASSERT_TRUE(s.send_keys({"Escape"}));
    ASSERT_TRUE(s.wait_for(is_overview, "the overview at 80x24"));

    ASSERT_TRUE(s.send_keys({"q"}));
    int status = -1;
    ASSERT_TRUE(s.wait_exit(&status));
    EXPECT_EQ(status, 0) << s.capture_history();
}

// --- 7. glyph and colour tiers -----------------------------------------------------------------

TEST_F(DashboardE2e, AsciiDrawsNoBraille) {
    TmuxSession s(runtop_line({"--ascii", fixture()}), options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
    const std::string screen = s.capture();
    EXPECT_FALSE(has_braille(screen)) << screen;
    EXPECT_TRUE(all_ascii(screen)) << screen;
    // The detail chart too.
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(s.wait_for([](const std::string& sc) { return is_detail(sc, "train/loss"); },
                           "the detail chart"));
    EXPECT_FALSE(has_braille(s.capture())) << s.capture();
    EXPECT_TRUE(all_ascii(s.capture())) << s.capture();
}

TEST_F(DashboardE2e, ColoursByDefaultNoneWhenAskedNot) {
    // The control: colours in a 256-colour pane by default.
    {
        TmuxSession s(runtop_line({fixture()}), options());
        ASSERT_STARTED(s);
        ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
        EXPECT_TRUE(has_braille(s.capture()));
        EXPECT_FALSE(colour_sgrs(s.capture(true)).empty()) << s.capture(true);
    }
    // TERM=xterm and --color never.
    {
        TmuxSession s(runtop_line({"--color", "never", fixture()}), options().with_term("xterm"));
        ASSERT_STARTED(s);
        ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
        const std::vector<std::string> sgrs = colour_sgrs(s.capture(true));
        EXPECT_TRUE(sgrs.empty()) << "colour SGRs, e.g. " << (sgrs.empty() ? "" : sgrs[0]) << "\n"
                                  << s.capture(true);
    }
    // NO_COLOR=1 (colour auto).
    {
        TmuxSession s(runtop_line({fixture()}), options().with_env("NO_COLOR", "1"));
        ASSERT_STARTED(s);
        ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
        const std::vector<std::string> sgrs = colour_sgrs(s.capture(true));
        EXPECT_TRUE(sgrs.empty()) << "colour SGRs, e.g. " << (sgrs.empty() ? "" : sgrs[0]) << "\n"
                                  << s.capture(true);
    }
}

TEST_F(DashboardE2e, NonUtf8LocaleDrawsNoBraille) {
    TmuxSession s("LC_ALL=C LANG=C exec " + runtop_line({fixture()}), options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
    const std::string screen = s.capture();
    EXPECT_FALSE(has_braille(screen)) << screen;
    // Nothing but ASCII can be right: the locale has no other characters.
    EXPECT_TRUE(all_ascii(screen)) << screen;
}

// A $TERM this host's terminfo does not know (a new emulator's name over SSH; or no terminfo
// database at all, as in a bare container): the built-in xterm-256color stands in, in colour, and
// the status line says so once.
TEST_F(DashboardE2e, UnknownTermDrawsWithTheBuiltInEntry) {
    TmuxSession s(runtop_line({fixture()}), options().with_term("no-such-terminal-runtop"));
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
    ASSERT_TRUE(
        s.wait_for([](const std::string& sc) { return has(sc, "drawing as xterm-256color"); },
                   "the note about the stand-in entry"));
    EXPECT_TRUE(has_braille(s.capture()));
    EXPECT_FALSE(colour_sgrs(s.capture(true)).empty()) << s.capture(true);
}

// LANG names a UTF-8 locale this host does not have (carried over SSH): C.UTF-8 stands in for
// the character type, so the glyphs stay braille instead of falling to ASCII.
TEST_F(DashboardE2e, MissingUtf8LocaleStillDrawsBraille) {
    TmuxSession s("LC_ALL= LANG=xx_YY.UTF-8 exec " + runtop_line({fixture()}), options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for(overview_ready, "the overview, loaded"));
    EXPECT_TRUE(has_braille(s.capture())) << s.capture();
}

// --- 8. not a terminal --------------------------------------------------------------------------

TEST_F(DashboardE2e, NeedsATerminal) {
    // stdin /dev/null, stdout a pipe.
    const ProcessOutput r = run_process({testing::runtop_binary(), fixture()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(has(r.err, "needs a terminal")) << r.err;

    // stdout a file (run_runtop).
    const CommandResult f = run_runtop({fixture()});
    EXPECT_EQ(f.exit_code, 2);
    EXPECT_EQ(split_lines(f.err).size(), 1u) << f.err;
    EXPECT_TRUE(has(f.err, "needs a terminal")) << f.err;

    // stdout the pane's terminal, stdin not: still no dashboard, the terminal untouched.
    TmuxSession s(runtop_line({fixture()}) + " < /dev/null; echo EXIT=$?; exec sleep 30",
                  options());
    ASSERT_STARTED(s);
    ASSERT_TRUE(s.wait_for("EXIT="));
    const std::string screen = s.capture();
    EXPECT_TRUE(has(screen, "EXIT=2")) << screen;
    EXPECT_TRUE(has(screen, "needs a terminal")) << screen;
}

}  // namespace
}  // namespace runtop::testing
