// `runtop snapshot`: read everything once, render one frame of a view into a canvas of the given
// size and print it (DESIGN.md §4). No terminal is needed: for scripts, CI logs and golden tests.
//
// The output depends only on the data and the flags, never on the caller's terminal or locale:
// glyphs are braille (UTF-8) unless --ascii, whatever LANG says (snapshot never calls
// setlocale), and colour is off unless --color always (then the dark theme at 256 colours).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "app/commands.h"
#include "app/compare_options.h"
#include "app/inputs.h"
#include "app/read_summary.h"
#include "app/rules_file.h"
#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/filtering_sink.h"
#include "core/format.h"
#include "core/store/store.h"
#include "views/canvas.h"
#include "views/detail_view.h"
#include "views/glyphs.h"
#include "views/model.h"
#include "views/screen.h"
#include "views/theme.h"

namespace runtop {

namespace {

// The views as --view takes them, from the view table: "overview|ranks|...".
std::string_view snapshot_views() {
    static const std::string names = ui::view_names("|");
    return names;
}

}  // namespace

const std::vector<OptionSpec> kSnapshotOptions = {
    {"size", "COLSxROWS", "canvas size (default 120x40)"},
    {"view", snapshot_views(),
     "the view to render (default: compare with two roots, else overview)"},
    {"tag", "TAG", "heatmap and detail: the tag shown (default: the first card's)"},
    {"step", "N", "detail: the cursor's step (default: the newest)"},
    {"keys", "KEYS",
     "keys pressed before the frame is drawn, as in the dashboard: names from `?` separated by "
     "spaces, other words typed (\"2 j Enter\", \"/ loss Enter\")"},
    {"filter", "RE",
     "only tags matching the regex (RE2, case-insensitive); the other series are not read, so "
     "the rules judge only the selected ones (the dashboard judges every series)"},
    kRanksOption,
    kRanksPerNodeOption,
    kRunsOption,
    {"ascii", "", "ASCII glyphs only (default: braille and other UTF-8, whatever the locale)"},
    {"color", "never|always", "ANSI colours (dark theme, 256 colours) with always; default never"},
    {"rules", "FILE",
     "alert rules (JSON); default: ~/.config/runtop/rules.json if it exists, else the built-in "
     "rules"},
    kToleranceOption,
    kAlignOption,
    kByOption,
    kMemoryOption,
    kLogFormatOption,
    {"help", "", "show this help"},
};

namespace {

struct Size {
    int cols = 120;
    int rows = 40;
};

Result<Size> parse_size(std::string_view text) {
    const std::size_t x = text.find_first_of("xX");
    const Error bad{"--size needs COLSxROWS, e.g. 120x40 (1-1000 columns, 1-1000 rows), not '" +
                    std::string(text) + "'"};
    if (x == std::string_view::npos) return bad;
    Result<long long> cols = parse_integer("size", text.substr(0, x), 1, 1000);
    Result<long long> rows = parse_integer("size", text.substr(x + 1), 1, 1000);
    if (!cols || !rows) return bad;
    return Size{static_cast<int>(*cols), static_cast<int>(*rows)};
}

int usage_error(const std::string& message) {
    std::fprintf(stderr, "runtop snapshot: %s\n", message.c_str());
    return kExitError;
}

}  // namespace

int cmd_snapshot(const Args& args) {
    Result<Size> size = parse_size(args.get("size", "120x40"));
    if (!size) return usage_error(size.error().message);
    Result<Selection> selection = selection_from_args(args);
    if (!selection) return usage_error(selection.error().message);
    // The dashboard's first view: compare with two roots.
    const std::string view =
        args.get("view", ui::view_name(ui::initial_view(selection->roots.size())));
    const std::optional<ui::ViewId> view_id = ui::view_named(view);
    if (!view_id)
        return usage_error("--view must be one of " + ui::view_names(", ") + ", not '" + view +
                           "'");
    const std::string color = args.get("color", "never");
    if (color != "never" && color != "always")
        return usage_error("--color must be never or always, not '" + color + "'");
    Result<CompareOptions> compare = compare_options_from_args(args);
    if (!compare) return usage_error(compare.error().message);
    Result<StoreLimits> limits = store_limits_from_args(args);
    if (!limits) return usage_error(limits.error().message);
    Result<LoadedRules> rules = load_rules(args.get("rules"));
    if (!rules) return usage_error(rules.error().message);
    for (const std::string& w : rules->rules.warnings)
        std::fprintf(stderr, "runtop: %s\n", visible(w).c_str());
    Result<ui::Theme> theme = ui::Theme{};
    if (color == "always") {
        theme = ui::load_theme("dark");
        if (!theme) return usage_error(theme.error().message);
    }

    // Only the selected series are read into the Store and judged: a one-tag frame of a
    // million series costs what that tag costs. The filter is also the view's (its status line
    // names it), and the series skipped count as hidden there.
    Store store(*limits);
    bound_whole_process(store);
    Analyzer analyzer(std::move(rules->rules));
    AnalyzingSink analyzing(analyzer, &store);
    FilteringSink sink(selection->filter, analyzing);
    sink.count_skipped();
    ui::ViewModel model(store, analyzer);
    // Runs in command-line order (`base=A new=B`: base is run A), known before any run is.
    std::vector<std::string> root_names;
    for (const RootSpec& root : selection->roots) root_names.push_back(root.name);
    model.set_root_names(std::move(root_names));
    SourceSet sources(sink);
    read_once(sources, selection->roots, *process_memory_from_args(args));  // checked above
    analyzer.finish();
    if (sources.readable_roots() == 0) return kExitError;
    if (std::string over = over_budget_text(store, memory_budget_text(args)); !over.empty())
        std::fprintf(stderr, "runtop: %s\n", over.c_str());

    // The sink reads the filter no more: the view takes it.
    model.set_ranks_per_node(selection->ranks_per_node);
    model.set_filter(std::move(selection->filter), args.get("filter"), args.get("ranks"),
                     args.get("runs"));
    model.set_glyphs(args.has("ascii") ? ui::GlyphTier::kAscii : ui::GlyphTier::kBraille);
    model.ingest.roots = selection->roots.size();
    model.ingest.files = sources.totals().files;
    model.ingest.skipped_series = sink.skipped_series();

    std::optional<std::int64_t> step;
    if (args.has("step")) {
        Result<long long> n = parse_integer("step", args.get("step"), INT64_MIN, INT64_MAX);
        if (!n) return usage_error(n.error().message);
        step = *n;
    }
    model.update();
    std::string tag = args.get("tag");
    if (tag.empty() && !model.groups().empty()) tag = model.groups().front().tag;

    // The frame the dashboard would show after these keys: the same state machine.
    ui::UiState state;
    state.compare.options = *compare;
    const int w = size->cols, h = size->rows;
    if (*view_id == ui::ViewId::kDetail) {  // no key shows it: Enter opens it on a tag
        ui::open_detail(state.detail, model, tag, std::nullopt, step);
        state.view = ui::ViewId::kDetail;
    } else {
        ui::show_view(state, *view_id, model, w, h);
        if (args.has("tag")) state.heatmap.tag = tag;  // --tag wins over the card carried over
    }
    for (const ui::InputEvent& e : ui::parse_key_script(args.get("keys"))) {
        if (ui::handle(state, e, model, analyzer, w, h).quit) break;
    }
    ui::Canvas canvas(w, h);
    ui::draw_screen(canvas, model, state);

    std::string out =
        color == "always" ? ui::to_ansi(canvas, *theme, ui::ColorTier::k256) : canvas.to_text();
    flush_output(out, true);
    return kExitOk;
}

}  // namespace runtop
