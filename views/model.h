// What the views read (DESIGN.md §3 "view models"): the Store's series and the Analyzer's alert
// states, pace and anomaly log, seen through the current filter and arranged the way the views
// show them. Views only read it (a `const ViewModel&`); the app owns it, changes the filter and
// calls update() after ingesting, before drawing.
//
// A card of the overview is one tag; its series are that tag in every (run, rank) the filter
// selects. Each (run, rank) keeps one overlay index for as long as the model lives (the order in
// which the Store first saw it), so a rank keeps its colour whatever the filter or the page.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/incidents.h"
#include "core/distribution.h"
#include "core/run_labels.h"
#include "core/series_filter.h"
#include "core/store/store.h"
#include "views/glyphs.h"

namespace runtop::ui {

struct RunRank {
    std::string run;
    int rank = kNoRank;
    auto operator<=>(const RunRank&) const = default;
    bool operator==(const RunRank&) const = default;
};

// One overview card.
struct TagGroup {
    std::string tag;
    std::vector<SeriesId> series;  // the tag in each selected (run, rank), in (run, rank) order
    // A histogram tag (core/distribution.h): `tag` is the histogram's, `series` its median
    // series; ViewModel::band() finds each one's other quantiles.
    bool distribution = false;
};

// What the app knows about ingest and the views show in the status line.
struct IngestInfo {
    std::size_t roots = 0;
    std::uint64_t files = 0;
    // Series a filter at ingest never stored (snapshot --filter): hidden as well.
    std::size_t skipped_series = 0;
    // The dashboard's live state (snapshot leaves these alone: a one-shot read).
    std::vector<std::string> watching;  // how the roots are watched (inotify, polling): `?` says
    bool live = false;
    bool following = true;      // false: paused by the user, new data waits
    bool backfilling = false;   // still reading what was on disk at start
    double rate = 0;            // points per second taken in, over the last seconds
    std::uint64_t waiting = 0;  // points read but not yet taken in
    double now = 0;             // the wall clock (seconds) the stall durations are told from
    std::string note;           // the latest reader warning (file and reason)
    // This frame answers a key: views may reuse what they queried for a recent frame even if
    // data arrived since (the app draws a data frame right after), so keys stay fast while a
    // large job streams in.
    bool key_frame = false;
    std::uint64_t warnings = 0;  // reader warnings so far
};

struct AlertCounts {
    std::size_t alert = 0;  // selected series in each state, not acknowledged
    std::size_t warn = 0;
    std::size_t acknowledged = 0;  // selected series in alert or warn the user acknowledged
    // Series the view's filter hides that were judged all the same (a filter set in the
    // dashboard; one at ingest never reads them): in each state, not acknowledged.
    std::size_t hidden_alert = 0;
    std::size_t hidden_warn = 0;
};

class ViewModel {
  public:
    ViewModel(const Store& store, const Analyzer& analyzer);
    ViewModel(const ViewModel&) = delete;
    ViewModel& operator=(const ViewModel&) = delete;

    const Store& store() const { return store_; }
    const Analyzer& analyzer() const { return analyzer_; }

    // The filter and the text it was made from (--filter / `/`, --ranks / `r`, --runs / `R`;
    // "" = none).
    void set_filter(SeriesFilter filter, std::string tag_regex, std::string rank_spec,
                    std::string run_patterns = {});
    const SeriesFilter& filter() const { return filter_; }
    const std::string& filter_tags() const { return filter_tags_; }
    const std::string& filter_ranks() const { return filter_ranks_; }
    const std::string& filter_runs() const { return filter_runs_; }
    // What a node `nN` in a rank filter holds (--ranks-per-node), for the `r` prompt.
    int ranks_per_node() const { return ranks_per_node_; }
    void set_ranks_per_node(int n) { ranks_per_node_ = n; }
    // How many times the filter was set: between two equal counts, a card's series only grow
    // (views that reuse what they queried tell a rank joining from a rank filtered out).
    std::uint64_t filter_changes() const { return filter_changes_; }

    GlyphTier glyphs() const { return glyphs_; }
    bool ascii() const { return glyphs_ == GlyphTier::kAscii; }
    void set_glyphs(GlyphTier tier) { glyphs_ = tier; }

    IngestInfo ingest;

    // Takes in series the Store gained since the last call and re-applies the filter when it
    // changed. Its cost follows the new series, not every series: during a backfill of millions
    // of series it runs after every slice of ingest, between keys.
    void update();
    // What it holds per series (overlay indices, each card's and (run, rank)'s ids, the
    // selection), counted by update(): the dashboard charges it to the Store's budget.
    std::uint64_t memory_bytes() const { return bytes_; }

    // Series the filter selects, in (run, rank, tag) order.
    const std::vector<SeriesId>& selected() const;
    std::size_t selected_count() const { return selected_count_; }  // selected().size(), no pass
    // The (run, rank)s with a selected series, in order: one per slot, not a pass over series.
    std::vector<RunRank> run_ranks() const;
    std::size_t hidden() const { return seen_ - selected_count_ + ingest.skipped_series; }
    // Cards in display order: the training loss first (`loss`, `train/loss`, `lm loss`,
    // `train_loss`...), then tag prefix groups (train/, then eval-like, then tags without a
    // prefix, then the other prefixes), losses first within a group, each in natural order
    // (`layers.2` before `layers.10`).
    const std::vector<TagGroup>& groups() const { return groups_; }
    // The card of `tag`, nullptr when the filter hides it or no series has it.
    const TagGroup* group(std::string_view tag) const;
    // Stable per (run, rank): a colour index for Role series_role().
    int overlay_index(SeriesId id) const;
    RunRank run_rank(SeriesId id) const;
    // run_rank(id) == rr, without making a RunRank (a pass over 1,024 ranks a card a frame).
    bool has_run_rank(SeriesId id, const RunRank& rr) const;

    // Runs. The roots' display names, in command-line order, order the run list (`runtop
    // base=A new=B`: base first); the app sets them once, before ingest.
    void set_root_names(std::vector<std::string> names);
    const std::vector<std::string>& root_names() const { return root_names_; }
    // Every run the Store has, whatever the filter: by root (command-line order), then by name.
    const std::vector<std::string>& run_names() const { return run_names_; }
    // Stable per run for as long as the model lives (the order the Store first saw them): a
    // colour index for series_role(), so a run keeps its colour in every view. -1: unknown run.
    int run_colour(std::string_view run) const;
    // How every view names a run: its last path component, told apart from the other runs'
    // (core/run_labels.h: "ds_pipe_job (csv_monitor)"), in at most `columns` (-1: whole). Cut,
    // both halves keep a share, so what tells it apart stays: "ds_p…(csv_moni…)". A run the model
    // does not know: its last path component.
    std::string run_label(std::string_view run, int columns = -1) const;

    // Over the selected series.
    std::size_t runs() const { return runs_; }
    std::uint64_t points() const;
    AlertCounts alert_counts() const;
    AlertLevel level(const TagGroup& group) const;  // the worst state of its series
    // The nine quantile series of a histogram's median series (a distribution card's series),
    // whatever the filter; kSkippedSeries where there is none (a filter at ingest dropped it, or
    // `median` is no median).
    std::array<SeriesId, kDistributionQuantiles> band(SeriesId median) const;
    // Whether the anomaly views show a record (run-level records, with no tag: when the run is).
    bool selects(const AnomalyRecord& record) const;
    // The anomaly log grouped into incidents (core/analysis/incidents.h), whatever the filter.
    // Found again only when the log changed: logs reach hundreds of thousands of records, and
    // the status line asks every frame.
    const IncidentReport& incidents() const;

  private:
    // The series of one (run, rank) that the filter selects; its index is the overlay index.
    struct Slot {
        RunRank key;
        std::vector<SeriesId> ids;  // [0, sorted) in tag order; later ones are new
        std::size_t sorted = 0;
    };
    // Every series of the Store is taken in and selected: running totals answer for them all.
    bool selects_all() const { return selected_count_ == seen_ && seen_ == store_.series_count(); }
    int slot_of(SeriesKeyRef key);  // the (run, rank)'s slot, made when new
    void consider(SeriesId id);     // selects it (card, slot, run) if the filter does
    void add_to_band(SeriesId id);  // a quantile series into its histogram's band
    void unselect_all();
    void put_in_group(TagGroup& group, SeriesId id);
    void order_groups();  // new cards into card order
    void order_slots();   // new series of each (run, rank) into tag order
    void add_run(const std::string& run);
    bool run_before(std::string_view a, std::string_view b) const;
    std::uint64_t count_bytes() const;

    const Store& store_;
    const Analyzer& analyzer_;
    SeriesFilter filter_;
    std::string filter_tags_, filter_ranks_, filter_runs_;
    int ranks_per_node_ = kDefaultRanksPerNode;
    GlyphTier glyphs_ = GlyphTier::kBraille;

    std::size_t seen_ = 0;      // Store series taken in
    bool filter_dirty_ = true;  // the filter changed since the last update
    std::vector<int> overlay_;  // per SeriesId: its slot
    // The Store interns run and tag names (core/store/series_index.h): these views stay valid.
    std::map<std::pair<std::string_view, int>, int> slot_of_;
    std::pair<std::pair<std::string_view, int>, int> last_slot_{{{}, kNoRank}, -1};
    std::vector<Slot> slots_;
    std::vector<int> slot_order_;  // slots in (run, rank) order
    std::vector<std::string> root_names_;
    std::vector<std::string> run_names_;
    std::map<std::string, int, std::less<>> run_colour_;
    std::map<std::string, RunLabel, std::less<>> run_labels_;
    // Runs by their last path component: a new run's label changes only those of its group.
    std::map<std::string, std::vector<std::string>, std::less<>> runs_by_base_;
    std::vector<TagGroup> groups_;  // [0, ordered_groups_) in card order, then new cards
    std::size_t ordered_groups_ = 0;
    std::unordered_map<std::string_view, std::size_t> group_at_;  // tag -> index in groups_
    std::map<std::string_view, std::size_t> selected_runs_;       // run -> selected series
    std::uint64_t filter_changes_ = 0;
    std::size_t selected_count_ = 0;
    std::size_t runs_ = 0;
    // selected(), made again from the slots when asked after a change.
    mutable std::vector<SeriesId> selected_;
    mutable bool selected_stale_ = false;
    std::uint64_t bytes_ = 0;  // memory_bytes()
    // incidents(), with what it was found from: the log changes as records are added (the
    // records held) or an episode grows (the records' points). Not the points judged: they
    // change every frame of a live run, the log seldom.
    struct IncidentsKey {
        std::uint64_t counts = 0;
        std::size_t records = 0, shown = 0;
        bool operator==(const IncidentsKey&) const = default;
    };
    mutable std::optional<IncidentsKey> incidents_key_;
    mutable IncidentReport incidents_;
    mutable double incidents_at_ = 0;  // IngestInfo::now when it was found
    // Per (slot, histogram tag): its quantile series. Tags are the Store's interned names.
    std::map<std::pair<int, std::string_view>, std::array<SeriesId, kDistributionQuantiles>> bands_;
};

// The training loss as the frameworks name it (`loss`, `train/loss`, `lm loss`, `train_loss`,
// ...; not under an evaluation prefix, not `loss_scale`): the card the overview puts first.
bool is_training_loss(std::string_view tag);

// Display order of tags (overview cards): see ViewModel::groups().
bool card_order_less(std::string_view a, std::string_view b);

// A number in a few columns: 4 significant digits; SI suffixes from 10^4 (12.35k, 3.2M ... P),
// a short exponent below 10^-3 (3e-4, 1.25e-5: learning rates read better so than in µ), and
// "nan", "inf", "-inf". ASCII only.
std::string short_value(double value);
// A step: whole below 10^5, else short_value.
std::string short_step(std::int64_t step);

}  // namespace runtop::ui
