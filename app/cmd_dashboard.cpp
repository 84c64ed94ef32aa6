// `runtop [OPTIONS] [NAME=]PATH...`: the interactive dashboard (DESIGN.md §3-5).
//
// One thread runs the event loop: a poll() over the terminal's input, the signal self-pipe and
// the ingest thread's eventfd, with a timeout for the once-a-second tick (stall judgement, the
// ingest rate). The readers run on the ingest thread (app/ingest_thread.h); the loop replays
// their batches into the Store and the Analyzer in slices of at most kIngestSliceMs, reading keys
// between slices, so a key is answered within 50 ms even while gigabytes backfill. When a frame
// is drawn is the FrameScheduler's (app/frame_scheduler.h); the terminal layer writes only the
// cells that differ.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/compare_options.h"
#include "app/config.h"
#include "app/frame_scheduler.h"
#include "app/incident_watch.h"
#include "app/ingest_thread.h"
#include "app/inputs.h"
#include "app/rules_file.h"
#include "app/signal_pipe.h"
#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/format.h"
#include "core/store/store.h"
#include "views/screen.h"
#include "views/terminal/notify.h"
#include "views/terminal/terminal.h"

namespace runtop {

const std::vector<OptionSpec> kDashboardOptions = {
    {"filter", "RE", "only tags matching the regex (RE2, case-insensitive; `/` changes it)"},
    {"ranks", "SPEC",
     "only these ranks: 0-7, 0,2,5, !3, 0-15,!7, or nodes: n3, n0-1, !n2 (`r` "
     "changes it)"},
    kRanksPerNodeOption,
    {"runs", "PATTERN[,PATTERN]",
     "only these runs: globs on the run's path or its end (ds_pipe_job, csv_monitor/*, *seed*), "
     "!PATTERN leaves out (`R` changes it)"},
    {"theme", "NAME", "dark (default), light, mono, cvd, or a theme file"},
    {"color", "auto|never|always", "colours (default auto: from TERM, COLORTERM, NO_COLOR)"},
    {"ascii", "", "ASCII glyphs only (default: braille when the locale is UTF-8)"},
    {"no-mouse", "", "leave the mouse to the terminal (select and paste)"},
    {"notify", "off|bell|desktop",
     "on each new major incident: ring the bell or send a desktop notification (default off)"},
    {"poll", "MS",
     "poll with stat() every MS ms (default 500) instead of inotify; network filesystems are "
     "polled anyway",
     true},
    {"rules", "FILE",
     "alert rules (JSON); default: ~/.config/runtop/rules.json if it exists, else the built-in "
     "rules"},
    {"config", "FILE", "the config file (default $XDG_CONFIG_HOME/runtop/config.json)"},
    kMemoryOption,
    kLogFormatOption,
    kToleranceOption,
    kAlignOption,
    kByOption,
    {"help", "", "show this help"},
};

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kIngestSliceMs = 10;  // ingest between two looks at the keyboard
constexpr int kTickMs = 1000;
constexpr std::size_t kSeriesPerBudgetCheck = 2048;  // StoreLimits::series_per_check
// After an ingest slice, or in a loop with nothing else to do: time for the budget rounds a check
// left owed (Store::keep_budget).
constexpr int kBudgetSliceMs = 5;

double wall_now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

int ms_until(Clock::time_point t) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now());
    return static_cast<int>(std::max<long long>(0, left.count()));
}

// Points per second over the last few seconds, from what the loop applied.
class ApplyRate {
  public:
    void add(std::uint64_t points) { current_ += points; }
    // Called once a second: the rate over the last (up to) 3 seconds.
    double tick() {
        window_.push_back(current_);
        current_ = 0;
        if (window_.size() > 3) window_.pop_front();
        double sum = 0;
        for (std::uint64_t n : window_) sum += static_cast<double>(n);
        return sum / static_cast<double>(window_.size());
    }

  private:
    std::deque<std::uint64_t> window_;
    std::uint64_t current_ = 0;
};

// Stalled runs and their quiet minutes, summed: a stall is worth a frame as it starts, ends or
// its quiet time reaches another minute.
struct StallMinutes {
    std::int64_t shown = 0;
    bool changed(const Analyzer& analyzer, double now) {
        std::int64_t minutes = 0;
        for (const RunStatus& r : analyzer.runs())
            if (r.stalled) minutes += 1 + static_cast<std::int64_t>((now - r.last_arrival) / 60);
        const bool differs = minutes != shown;
        shown = minutes;
        return differs;
    }
};

// The once-a-second update: stall judgement, the ingest rate and what the status line shows;
// new warnings are kept for after the terminal is restored. True when the status line changed.
bool tick(ui::ViewModel& model, Analyzer& analyzer, IngestThread& ingest, ApplyRate& rate,
          StallMinutes& stalls, bool live, bool following, std::vector<std::string>& warnings) {
    const ui::IngestInfo before = model.ingest;
    model.ingest.now = wall_now();
    analyzer.set_now(model.ingest.now);
    const std::size_t alerts_before = analyzer.log().size();
    if (live) analyzer.tick();
    const IngestTotals totals = ingest.totals();
    model.ingest.files = totals.files;
    model.ingest.watching = ingest.watching();
    model.ingest.rate = rate.tick();
    model.ingest.waiting = following ? 0 : ingest.waiting_points();
    model.ingest.skipped_series = ingest.skipped_series();
    for (std::string& m : ingest.take_messages()) {
        ++model.ingest.warnings;
        model.ingest.note = m;
        warnings.push_back(std::move(m));
    }
    const bool stalls_changed = stalls.changed(analyzer, model.ingest.now);
    return before.files != model.ingest.files || before.rate != model.ingest.rate ||
           before.skipped_series != model.ingest.skipped_series ||
           before.watching != model.ingest.watching || before.waiting != model.ingest.waiting ||
           before.warnings != model.ingest.warnings || stalls_changed ||
           alerts_before != analyzer.log().size();
}

int fail(const std::string& message) {
    std::fprintf(stderr, "runtop: %s\n", message.c_str());
    return kExitError;
}

// Everything the command line and the config file decide, checked before the screen opens.
struct Settings {
    DashboardConfig config;
    WatchOptions watch;
    Selection selection;
    StoreLimits limits;
    LoadedRules rules;
    CompareOptions compare;
};

Result<Settings> settings_from(const Args& args) {
    Result<DashboardConfig> config = load_config(args.get("config"));
    if (!config) return config.error();
    Settings s;
    s.config = std::move(*config);
    DashboardConfig& c = s.config;
    if (args.has("theme")) c.theme = args.get("theme");
    if (args.has("color")) c.color = args.get("color");
    if (c.color != "auto" && c.color != "never" && c.color != "always")
        return Error{"--color must be auto, never or always, not '" + c.color + "'"};
    if (args.has("notify")) c.notify = args.get("notify");
    if (ui::NotifyMode mode; !ui::parse_notify_mode(c.notify, mode))
        return Error{"--notify must be off, bell or desktop, not '" + c.notify + "'"};
    if (args.has("ascii")) c.ascii = true;
    if (args.has("no-mouse")) c.mouse = false;
    if (args.has("poll")) {
        c.poll_ms = 500;
        if (!args.get("poll").empty()) {
            Result<long long> ms = parse_integer("poll", args.get("poll"), 10, 3'600'000);
            if (!ms) return ms.error();
            c.poll_ms = static_cast<int>(*ms);
        }
    }
    if (c.poll_ms > 0) {
        s.watch.mode = WatchMode::kPoll;
        s.watch.poll_interval_ms = c.poll_ms;
    }
    Result<Selection> selection = selection_from_args(args);
    if (!selection) return selection.error();
    s.selection = std::move(*selection);
    Args limit_args = args;
    if (!args.has("memory")) limit_args.values["memory"] = c.memory;
    Result<StoreLimits> limits = store_limits_from_args(limit_args);
    if (!limits) return limits.error();
    s.limits = *limits;
    // Keys first: the budget's rounds over millions of series go a slice at a time
    // (~2,000 series, a few ms), between keys.
    s.limits.series_per_check = kSeriesPerBudgetCheck;
    Result<LoadedRules> rules = load_rules(args.get("rules"));
    if (!rules) return rules.error();
    s.rules = std::move(*rules);
    Result<CompareOptions> compare = compare_options_from_args(args);
    if (!compare) return compare.error();
    s.compare = *compare;
    return s;
}

// A filter as typed: --filter / `/`, --ranks / `r`, --runs / `R` ("" = none).
struct FilterTexts {
    std::string tags, ranks, runs;
    int ranks_per_node = kDefaultRanksPerNode;  // what `nN` in `ranks` means
    bool any() const { return !tags.empty() || !ranks.empty() || !runs.empty(); }
    Result<SeriesFilter> make() const {
        return SeriesFilter::make(tags, ranks, runs, ranks_per_node);
    }
    bool operator==(const FilterTexts&) const = default;
};

FilterTexts filter_of(const ui::ViewModel& model) {
    return {model.filter_tags(), model.filter_ranks(), model.filter_runs(), model.ranks_per_node()};
}

// What reads the files and keeps what they hold, for one filter at ingest. Started with
// --filter / --ranks / --runs, the dashboard reads only the series they select (a one-tag view
// of a million series costs what that tag costs); when the user changes the filter (`/`, `r`,
// `R`), everything is read again from the files with the new one: the log directory is the
// database.
struct Pipeline {
    Store store;
    Analyzer analyzer;
    AnalyzingSink sink;
    IngestThread ingest;
    ui::ViewModel model;
    FilterTexts filter;  // the filter at ingest (none: every series is read)

    Pipeline(const Settings& s, FilterTexts texts, std::optional<SeriesFilter> only)
        : store(s.limits),
          analyzer(s.rules.rules),
          sink(analyzer, &store),
          ingest(s.selection.roots, s.watch, std::move(only)),
          model(store, analyzer),
          filter(std::move(texts)) {
        bound_whole_process(store);
    }
    bool filters() const { return filter.any(); }
};

// The pipeline for the filter `texts` (already checked: the model holds it).
std::unique_ptr<Pipeline> make_pipeline(const Settings& s, const FilterTexts& texts) {
    std::optional<SeriesFilter> only;
    if (texts.any()) {
        Result<SeriesFilter> filter = texts.make();
        if (filter) only = std::move(*filter);
    }
    return std::make_unique<Pipeline>(s, only ? texts : FilterTexts{}, std::move(only));
}

// The model and the screen state the first frame shows.
void start_model(ui::ViewModel& model, const Settings& s, const FilterTexts& texts,
                 ui::GlyphTier glyphs) {
    model.set_ranks_per_node(texts.ranks_per_node);
    Result<SeriesFilter> filter = texts.make();
    if (filter) model.set_filter(std::move(*filter), texts.tags, texts.ranks, texts.runs);
    model.set_glyphs(glyphs);
    std::vector<std::string> root_names;
    for (const RootSpec& root : s.selection.roots) root_names.push_back(root.name);
    model.set_root_names(std::move(root_names));
    model.ingest.roots = s.selection.roots.size();
    model.ingest.live = true;
    model.ingest.backfilling = true;
    model.ingest.now = wall_now();
}

ui::UiState start_state(const Settings& s, std::string note) {
    ui::UiState state;
    state.detail.smoothing = s.config.smoothing;
    // `runtop base=A new=B` opens on the comparison.
    state.view = ui::initial_view(s.selection.roots.size());
    state.compare.options = s.compare;
    // The config file's first warning is the first frame's note, else the terminal's (e.g. the
    // built-in xterm-256color stands in for $TERM).
    state.flash = s.config.warnings.empty() ? std::move(note) : s.config.warnings.front();
    return state;
}

// After the terminal is restored: the last 20 warnings (the config file's first).
void print_warnings(const std::vector<std::string>& warnings) {
    const std::size_t shown = std::min<std::size_t>(warnings.size(), 20);
    for (std::size_t i = warnings.size() - shown; i < warnings.size(); ++i)
        std::fprintf(stderr, "runtop: %s\n", visible(warnings[i]).c_str());
    if (warnings.size() > shown)
        std::fprintf(stderr, "runtop: (%zu earlier warnings not shown)\n", warnings.size() - shown);
}

}  // namespace

int cmd_dashboard(const Args& args) {
    Result<Settings> settings = settings_from(args);
    if (!settings) return fail(settings.error().message);
    const DashboardConfig& config = settings->config;
    if (!::isatty(STDIN_FILENO) || !::isatty(STDOUT_FILENO))
        return fail(
            "the dashboard needs a terminal; for scripts use 'runtop snapshot', 'runtop ls' or "
            "'runtop check'");

    ui::TerminalOptions topts;
    topts.color = config.color;
    topts.theme = config.theme;
    topts.ascii = config.ascii;
    topts.mouse = config.mouse;
    // Signals first: a resize between opening the screen and the loop is not lost.
    SignalPipe signals({SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGCONT});
    Result<std::unique_ptr<ui::Terminal>> opened = ui::Terminal::open(topts);
    if (!opened) return fail(opened.error().message);
    ui::Terminal& term = **opened;

    const FilterTexts started{args.get("filter"), args.get("ranks"), args.get("runs"),
                              settings->selection.ranks_per_node};
    std::unique_ptr<Pipeline> p = make_pipeline(*settings, started);
    p->ingest.start();
    start_model(p->model, *settings, started, term.glyph_tier());
    ui::UiState state = start_state(*settings, term.note());
    ui::Canvas canvas(term.width(), term.height());
    std::vector<std::string> warnings = config.warnings;  // printed once the terminal is back
    ApplyRate rate;
    StallMinutes stalls;
    bool live = false;
    FrameScheduler frames(std::chrono::milliseconds(config.refresh_ms));
    ui::NotifyMode notify = ui::NotifyMode::kOff;
    ui::parse_notify_mode(config.notify, notify);  // checked by settings_from
    const bool in_tmux = std::getenv("TMUX") != nullptr;
    IncidentWatch incidents;
    auto next_tick = Clock::now() + std::chrono::milliseconds(kTickMs);
    bool quit = false;

    while (!quit) {
        ui::ViewModel& model = p->model;
        // Draw first: a key's answer or a first frame goes out before anything else is done.
        pollfd key_check{term.input_fd(), POLLIN, 0};
        const bool key_pending = !frames.urgent() && ::poll(&key_check, 1, 0) > 0;
        if (const std::optional<FrameScheduler::Frame> frame =
                frames.due(Clock::now(), key_pending)) {
            if (canvas.width() != term.width() || canvas.height() != term.height())
                canvas.resize(term.width(), term.height());
            model.ingest.key_frame = frame->key_frame;
            const auto start = Clock::now();
            ui::draw_screen(canvas, model, state);
            term.present(canvas, frame->force);
            frames.drawn(*frame, start, Clock::now());
            // Between this frame and the next: a bell or notification per new major incident.
            if (notify != ui::NotifyMode::kOff)
                for (const std::string& text : incidents.fresh(
                         model.analyzer().log(), model.incidents(), model.ingest.backfilling))
                    term.write_between_frames(
                        ui::notification_bytes(notify, "runtop: " + text, in_tmux));
            if (ui::frame_owed(state)) frames.data_arrived();
        }

        int timeout = ms_until(next_tick);
        if ((state.follow && p->ingest.has_waiting()) || p->store.rounds_owed()) timeout = 0;
        if (const int frame_in = frames.wait_ms(Clock::now()); frame_in >= 0)
            timeout = std::min(timeout, frame_in);
        pollfd fds[3] = {{term.input_fd(), POLLIN, 0},
                         {signals.fd(), POLLIN, 0},
                         {p->ingest.notify_fd(), POLLIN, 0}};
        ::poll(fds, 3, timeout);
        if (fds[2].revents & POLLIN) {
            // Drained here, whether or not the batches are taken now (paused): the loop then
            // sleeps until the next batch, key or tick instead of spinning on a readable fd.
            std::uint64_t n;
            [[maybe_unused]] ssize_t r = ::read(p->ingest.notify_fd(), &n, sizeof n);
        }

        for (int sig : signals.take()) {
            if (sig == SIGWINCH || sig == SIGCONT) {
                term.resize();
                frames.resized();
            } else {
                quit = true;
            }
        }
        while (std::optional<ui::InputEvent> event = term.read_input()) {
            if (event->key == "Resize") {  // ncurses saw the size change before our SIGWINCH
                frames.resized();
                continue;
            }
            const ui::Outcome out =
                ui::handle(state, *event, model, p->analyzer, term.width(), term.height());
            if (out.quit) quit = true;
            if (out.redraw || out.force) frames.key_answered(out.force);
        }
        if (quit) break;
        // A filter the files were read with changed (and is no longer being typed): read them
        // again with the new one. Started without a filter, everything is in already.
        if (p->filters() && state.prompt.kind == ui::Prompt::Kind::kNone &&
            filter_of(model) != p->filter) {
            const FilterTexts texts = filter_of(model);
            const ui::IngestInfo before = model.ingest;
            p.reset();  // its reader thread stops first: one Store at a time
            p = make_pipeline(*settings, texts);
            p->ingest.start();
            start_model(p->model, *settings, texts, term.glyph_tier());
            p->model.ingest.warnings = before.warnings;
            p->model.ingest.note = before.note;
            ui::forget_queries(state);
            rate = ApplyRate();
            stalls = StallMinutes();
            live = false;
            frames.key_answered(false);
            continue;
        }

        model.ingest.following = state.follow;
        // Past the budget with rounds owed, the batches wait (the reader thread's queue is
        // bounded) while the rounds catch up: fed on, a 10 ms slice of appends outgrew what a
        // 5 ms slice of rounds folds, and 2 M series ran 100 MiB past the budget.
        const bool behind = p->store.behind_budget();
        if (state.follow && p->ingest.has_waiting() && !behind) {
            p->analyzer.set_now(wall_now());
            const std::uint64_t applied =
                p->ingest.apply(p->sink, Clock::now() + std::chrono::milliseconds(kIngestSliceMs));
            rate.add(applied);
            model.ingest.files = p->ingest.totals().files;
            model.update();
            // --memory bounds the view model and the reader thread's state too
            p->sink.set_other_bytes(model.memory_bytes() + p->ingest.memory_bytes());
            frames.data_arrived();
        }
        // The budget's rounds the checks left owed, given their own slice of time after each
        // ingest slice, and on their own once nothing is waiting: after a backfill they would
        // otherwise wait for the next point, holding what the budget does not allow (2 M
        // series: 1.76 GiB for good, where the finished rounds hold 1.63).
        if (p->store.rounds_owed())
            p->store.keep_budget(
                Clock::now() + std::chrono::milliseconds(behind ? kIngestSliceMs : kBudgetSliceMs));
        if (!live && p->ingest.backfilled()) {
            // What was on disk is in: from now on a run that stops writing is a stall.
            live = true;
            p->analyzer.set_now(wall_now());
            p->analyzer.set_live();
            model.ingest.backfilling = false;
            frames.status_changed();
        }

        if (Clock::now() >= next_tick) {
            next_tick = Clock::now() + std::chrono::milliseconds(kTickMs);
            if (tick(model, p->analyzer, p->ingest, rate, stalls, live, state.follow, warnings))
                frames.status_changed();
        }
    }

    opened->reset();  // the terminal as it was, before anything is printed
    print_warnings(warnings);
    return kExitOk;
}

}  // namespace runtop
