#include "views/model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "core/identity.h"
#include "views/canvas.h"

namespace runtop::ui {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// train/ first, then evaluation, then tags without a prefix, then every other prefix.
int prefix_rank(std::string_view prefix, bool has_prefix) {
    if (!has_prefix) return 2;
    if (prefix == "train" || prefix == "training") return 0;
    if (prefix == "eval" || prefix == "evaluation" || prefix == "val" || prefix == "valid" ||
        prefix == "validation" || prefix == "test" || prefix == "dev")
        return 1;
    return 3;
}

// A key whose byte order is natural order: each run of digits becomes its length (leading
// zeros dropped) then its digits, so "layers.2" sorts before "layers.10"; letters lower-cased.
std::string natural_key(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 8);
    for (std::size_t i = 0; i < s.size();) {
        if (s[i] < '0' || s[i] > '9') {
            const char c = s[i++];
            out += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
            continue;
        }
        std::size_t j = i;
        while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
        std::size_t k = i;
        while (k + 1 < j && s[k] == '0') ++k;  // "007" is 7; "0" stays
        // A small byte first: below every printable character, as digits are in ASCII.
        out += static_cast<char>(std::min<std::size_t>(j - k, 31));
        out.append(s.substr(k, j - k));
        i = j;
    }
    return out;
}

// A leaf as a loss is named: lower case, spaces and dashes as underscores ("lm loss" ->
// "lm_loss").
std::string loss_name(std::string_view leaf) {
    std::string out = lower(leaf);
    for (char& c : out)
        if (c == ' ' || c == '-') c = '_';
    return out;
}

// The training loss, as the frameworks name it: `loss` (MindFormers, nanoGPT), `train/loss`
// (Hugging Face, Oumi), `lm loss` (Megatron), `train_loss` (DeepSpeed's Train/Samples/,
// Lightning, with _step/_epoch), `training_loss`, `total_loss`; not under an evaluation prefix.
// Not any tag holding "loss": `Train/Samples/loss_scale` is not a loss.
bool training_loss(std::string_view prefix_lower, bool has_prefix, std::string_view leaf) {
    if (has_prefix && prefix_rank(prefix_lower, true) == 1) return false;
    const std::string l = loss_name(leaf);
    for (std::string_view name : {"loss", "train_loss", "training_loss", "lm_loss", "total_loss",
                                  "train_loss_step", "train_loss_epoch", "train_lm_loss"})
        if (l == name) return true;
    return false;
}

// Within a prefix group, losses first: a leaf that is "loss" or ends in "_loss".
bool loss_leaf(std::string_view leaf) {
    const std::string l = loss_name(leaf);
    return l == "loss" || l.ends_with("_loss");
}

std::tuple<int, int, std::string, int, std::string> order_key(std::string_view tag) {
    const std::size_t slash = tag.find('/');
    const bool has_prefix = slash != std::string_view::npos;
    std::string prefix = has_prefix ? lower(tag.substr(0, slash)) : std::string();
    const std::size_t last = tag.rfind('/');
    const std::string_view leaf = last == std::string_view::npos ? tag : tag.substr(last + 1);
    const int first = training_loss(prefix, has_prefix, leaf) ? 0 : 1;
    const int rank = prefix_rank(prefix, has_prefix);
    return {first, rank, natural_key(prefix), loss_leaf(leaf) ? 0 : 1, natural_key(tag)};
}

// Strips a mantissa's trailing zeros: "1.500" -> "1.5", "3.000" -> "3".
void trim_zeros(std::string& m) {
    if (m.find('.') == std::string::npos) return;
    while (!m.empty() && m.back() == '0') m.pop_back();
    if (!m.empty() && m.back() == '.') m.pop_back();
}

}  // namespace

bool is_training_loss(std::string_view tag) {
    return std::get<0>(order_key(tag)) == 0;
}

bool card_order_less(std::string_view a, std::string_view b) {
    auto ka = order_key(a), kb = order_key(b);
    if (ka != kb) return ka < kb;
    return a < b;  // tags equal but for case: still a strict order
}

std::string short_value(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    if (value == 0) return "0";
    const double a = std::fabs(value);
    if (a >= 1e-3 && a < 9999.5) return fmt::format("{:.4g}", value);
    if (a >= 9999.5 && a < 1e18) {
        static constexpr const char* kSuffix[] = {"", "k", "M", "G", "T", "P", "E"};
        int group = static_cast<int>(std::floor(std::log10(a) / 3));
        for (;; ++group) {
            const double m = value / std::pow(10.0, 3 * group);
            std::string text = fmt::format("{:.4g}", m);
            if (std::fabs(std::stod(text)) < 1000 || group >= 6) return text + kSuffix[group];
        }
    }
    // 1.234e-04 -> 1.234e-4, 3.000e-04 -> 3e-4.
    std::string text = fmt::format("{:.3e}", value);
    const std::size_t e = text.find('e');
    std::string mantissa = text.substr(0, e);
    trim_zeros(mantissa);
    const int exponent = std::stoi(text.substr(e + 1));
    return mantissa + "e" + std::to_string(exponent);
}

std::string short_step(std::int64_t step) {
    if (step > -100000 && step < 100000) return std::to_string(step);
    return short_value(static_cast<double>(step));
}

ViewModel::ViewModel(const Store& store, const Analyzer& analyzer)
    : store_(store), analyzer_(analyzer) {
    update();
}

void ViewModel::set_filter(SeriesFilter filter, std::string tag_regex, std::string rank_spec,
                           std::string run_patterns) {
    filter_ = std::move(filter);
    filter_tags_ = std::move(tag_regex);
    filter_ranks_ = std::move(rank_spec);
    filter_runs_ = std::move(run_patterns);
    filter_dirty_ = true;
    ++filter_changes_;
    update();
}

void ViewModel::update() {
    const std::size_t count = store_.series_count();
    if (count == seen_ && !filter_dirty_) return;
    if (filter_dirty_) {
        unselect_all();
        for (std::size_t id = 0; id < seen_; ++id) consider(static_cast<SeriesId>(id));
    }
    overlay_.resize(count);
    for (std::size_t id = seen_; id < count; ++id) {
        const SeriesKeyRef key = store_.at(static_cast<SeriesId>(id)).key();
        overlay_[id] = slot_of(key);
        add_to_band(static_cast<SeriesId>(id));
        consider(static_cast<SeriesId>(id));
    }
    seen_ = count;
    filter_dirty_ = false;
    order_groups();
    order_slots();
    runs_ = selected_runs_.size();
    selected_stale_ = true;
    bytes_ = count_bytes();
}

std::uint64_t ViewModel::count_bytes() const {
    // A pass over (run, rank)s and cards, not series: a few thousand at a job's size.
    std::uint64_t n = overlay_.capacity() * sizeof(int) + selected_.capacity() * sizeof(SeriesId) +
                      slots_.capacity() * sizeof(Slot) + groups_.capacity() * sizeof(TagGroup) +
                      slot_order_.capacity() * sizeof(int);
    for (const Slot& slot : slots_) n += slot.ids.capacity() * sizeof(SeriesId);
    for (const TagGroup& group : groups_)
        n += group.series.capacity() * sizeof(SeriesId) + group.tag.capacity();
    // A map node: three pointers and a colour, then the entry.
    n += bands_.size() * (4 * sizeof(void*) + sizeof(decltype(bands_)::value_type));
    return n;
}

int ViewModel::slot_of(SeriesKeyRef key) {
    // Readers hand over a (run, rank)'s series together: one lookup in the map for most runs
    // of them.
    const std::pair<std::string_view, int> rr{key.run, key.rank};
    if (last_slot_.second >= 0 && last_slot_.first == rr) return last_slot_.second;
    auto [it, fresh] = slot_of_.try_emplace(rr, static_cast<int>(slots_.size()));
    if (fresh) {
        // Overlay indices in the order the Store first saw each (run, rank): stable for good.
        slots_.push_back({RunRank{std::string(key.run), key.rank}, {}, 0});
        const auto before = [this](int a, int b) { return slots_[a].key < slots_[b].key; };
        slot_order_.insert(
            std::upper_bound(slot_order_.begin(), slot_order_.end(), it->second, before),
            it->second);
        const int next_run = static_cast<int>(run_colour_.size());
        if (run_colour_.try_emplace(std::string(key.run), next_run).second)
            add_run(std::string(key.run));
    }
    last_slot_ = {rr, it->second};
    return it->second;
}

void ViewModel::unselect_all() {
    for (Slot& slot : slots_) {
        slot.ids.clear();
        slot.sorted = 0;
    }
    groups_.clear();
    group_at_.clear();
    ordered_groups_ = 0;
    selected_runs_.clear();
    selected_count_ = 0;
}

void ViewModel::consider(SeriesId id) {
    const Series& series = store_.at(id);
    const SeriesKeyRef key = series.key();
    if (!filter_.selects(key)) return;
    ++selected_count_;
    slots_[static_cast<std::size_t>(overlay_[id])].ids.push_back(id);
    ++selected_runs_[key.run];
    // A histogram's card is its median's (keyed by the median's own tag, so a scalar of the
    // histogram's name keeps a card of its own); its other quantiles have none.
    const int quantile = series.source().quantile;
    if (quantile >= 0 && quantile != kMedianQuantile) return;
    auto [at, fresh] = group_at_.try_emplace(key.tag, groups_.size());
    if (fresh) {
        if (quantile == kMedianQuantile)
            groups_.push_back(
                {std::string(*distribution_base(key.tag, kMedianQuantile)), {}, true});
        else
            groups_.push_back({std::string(key.tag), {}});
    }
    put_in_group(groups_[at->second], id);
}

void ViewModel::add_to_band(SeriesId id) {
    const Series& series = store_.at(id);
    const int quantile = series.source().quantile;
    if (quantile < 0) return;
    const SeriesKeyRef key = series.key();
    const std::optional<std::string_view> base = distribution_base(key.tag, quantile);
    if (!base) return;
    auto [it, fresh] = bands_.try_emplace({overlay_[id], *base});
    if (fresh) it->second.fill(kSkippedSeries);
    it->second[static_cast<std::size_t>(quantile)] = id;
}

std::array<SeriesId, kDistributionQuantiles> ViewModel::band(SeriesId median) const {
    std::array<SeriesId, kDistributionQuantiles> none;
    none.fill(kSkippedSeries);
    if (median >= overlay_.size()) return none;
    const Series& series = store_.at(median);
    const std::optional<std::string_view> base =
        distribution_base(series.key().tag, kMedianQuantile);
    if (series.source().quantile != kMedianQuantile || !base) return none;
    auto it = bands_.find({overlay_[median], *base});
    return it == bands_.end() ? none : it->second;
}

void ViewModel::put_in_group(TagGroup& group, SeriesId id) {
    // (run, rank) order; a job's ranks mostly arrive in that order, so mostly at the end.
    const auto before = [this](SeriesId a, SeriesId b) {
        return slots_[static_cast<std::size_t>(overlay_[a])].key <
               slots_[static_cast<std::size_t>(overlay_[b])].key;
    };
    std::vector<SeriesId>& ids = group.series;
    if (ids.empty() || before(ids.back(), id))
        ids.push_back(id);
    else
        ids.insert(std::upper_bound(ids.begin(), ids.end(), id, before), id);
}

void ViewModel::order_groups() {
    if (ordered_groups_ == groups_.size()) return;
    // Each card's order key made once, not at every comparison.
    using Key = decltype(order_key(""));
    std::vector<std::pair<Key, std::size_t>> order;
    order.reserve(groups_.size());
    for (std::size_t i = 0; i < groups_.size(); ++i)
        order.emplace_back(order_key(groups_[i].tag), i);
    std::sort(order.begin(), order.end(), [this](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first < b.first;
        return groups_[a.second].tag < groups_[b.second].tag;
    });
    std::vector<TagGroup> sorted;
    sorted.reserve(groups_.size());
    std::vector<std::size_t> moved_to(groups_.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        moved_to[order[i].second] = i;
        sorted.push_back(std::move(groups_[order[i].second]));
    }
    groups_ = std::move(sorted);
    for (auto& [tag, at] : group_at_) at = moved_to[at];
    ordered_groups_ = groups_.size();
}

void ViewModel::order_slots() {
    for (Slot& slot : slots_) {
        if (slot.sorted == slot.ids.size()) continue;
        const auto by_tag = [this](SeriesId a, SeriesId b) {
            return store_.at(a).key().tag < store_.at(b).key().tag;
        };
        const auto middle = slot.ids.begin() + static_cast<std::ptrdiff_t>(slot.sorted);
        std::sort(middle, slot.ids.end(), by_tag);
        std::inplace_merge(slot.ids.begin(), middle, slot.ids.end(), by_tag);
        slot.sorted = slot.ids.size();
    }
}

std::vector<RunRank> ViewModel::run_ranks() const {
    std::vector<RunRank> out;
    for (int s : slot_order_)
        if (!slots_[static_cast<std::size_t>(s)].ids.empty())
            out.push_back(slots_[static_cast<std::size_t>(s)].key);
    return out;
}

const std::vector<SeriesId>& ViewModel::selected() const {
    if (selected_stale_) {
        selected_.clear();
        selected_.reserve(selected_count_);
        for (int s : slot_order_) {
            const std::vector<SeriesId>& ids = slots_[static_cast<std::size_t>(s)].ids;
            selected_.insert(selected_.end(), ids.begin(), ids.end());
        }
        selected_stale_ = false;
    }
    return selected_;
}

// The root a run belongs to: its name is the root's name, or the root's name then "/".
static std::size_t root_position(const std::vector<std::string>& roots, std::string_view run) {
    std::size_t best = roots.size(), best_len = 0;
    for (std::size_t i = 0; i < roots.size(); ++i) {
        const std::string& r = roots[i];
        const bool under = run_in_root(run, r);
        if (under && (best == roots.size() || r.size() > best_len)) best = i, best_len = r.size();
    }
    return best;
}

bool ViewModel::run_before(std::string_view a, std::string_view b) const {
    const std::size_t ra = root_position(root_names_, a), rb = root_position(root_names_, b);
    return ra != rb ? ra < rb : a < b;
}

void ViewModel::set_root_names(std::vector<std::string> names) {
    root_names_ = std::move(names);
    std::sort(run_names_.begin(), run_names_.end(),
              [this](const std::string& a, const std::string& b) { return run_before(a, b); });
}

void ViewModel::add_run(const std::string& run) {
    auto before = [this](std::string_view a, std::string_view b) { return run_before(a, b); };
    run_names_.insert(std::upper_bound(run_names_.begin(), run_names_.end(), run, before), run);
    std::vector<std::string>& group = runs_by_base_[std::string(run_base_name(run))];
    group.push_back(run);
    const std::vector<RunLabel> labels = run_labels(group);
    for (std::size_t i = 0; i < group.size(); ++i) run_labels_[group[i]] = labels[i];
}

std::string ViewModel::run_label(std::string_view run, int columns) const {
    const auto it = run_labels_.find(run);
    const RunLabel label =
        it != run_labels_.end() ? it->second : RunLabel{std::string(run_base_name(run)), {}};
    const std::string text = label.text();
    if (columns < 0 || display_width(text) <= columns) return text;
    if (label.part.empty() || columns < 6) return fit(text, columns, ascii());
    // "base(part)": the part, what tells the run apart, gets two thirds of what the parentheses
    // leave, or what a short base leaves; the base the rest.
    const int inside = columns - 2;
    const int part_w = std::min(display_width(label.part),
                                std::max(inside * 2 / 3, inside - display_width(label.base)));
    return fit(label.base, inside - part_w, ascii()) + "(" + fit(label.part, part_w, ascii()) + ")";
}

int ViewModel::run_colour(std::string_view run) const {
    auto it = run_colour_.find(run);
    return it == run_colour_.end() ? -1 : it->second;
}

int ViewModel::overlay_index(SeriesId id) const {
    return id < overlay_.size() ? overlay_[id] : 0;
}

const TagGroup* ViewModel::group(std::string_view tag) const {
    for (const TagGroup& g : groups_)
        if (g.tag == tag) return &g;
    return nullptr;
}

RunRank ViewModel::run_rank(SeriesId id) const {
    const SeriesKeyRef key = store_.at(id).key();
    return {std::string(key.run), key.rank};
}

bool ViewModel::has_run_rank(SeriesId id, const RunRank& rr) const {
    const SeriesKeyRef key = store_.at(id).key();
    return key.rank == rr.rank && key.run == rr.run;
}

std::uint64_t ViewModel::points() const {
    // Every series selected: the Store's running sum, not a pass over millions of series.
    if (selects_all()) return store_.total_points();
    std::uint64_t n = 0;
    for (SeriesId id : selected()) n += store_.at(id).count();
    return n;
}

const IncidentReport& ViewModel::incidents() const {
    const AnomalyLog& log = analyzer_.log();
    std::uint64_t counts = 0;  // a pass of additions: far cheaper than grouping the log again
    for (const AnomalyRecord& r : log.records()) counts += r.count;
    const IncidentsKey key{counts, log.size(), log.ordered().size()};
    if (incidents_key_ == key) return incidents_;
    // While a live job streams in, the log changes every frame: grouped again at most once a
    // second (and not for a key's frame), so loading a large job is not slowed by it.
    constexpr double kRegroupSeconds = 1.0;
    if (incidents_key_ && ingest.live &&
        (ingest.key_frame || ingest.now - incidents_at_ < kRegroupSeconds))
        return incidents_;
    incidents_ = find_incidents(log);
    incidents_key_ = key;
    incidents_at_ = ingest.now;
    return incidents_;
}

AlertCounts ViewModel::alert_counts() const {
    AlertCounts c;
    if (selects_all() && analyzer_.series_count() <= seen_) {
        // Every series selected (and the Analyzer knows no other): its running counts.
        const Analyzer::LevelCounts& n = analyzer_.level_counts();
        return {n.alert, n.warn, n.acknowledged};
    }
    for (SeriesId id : selected()) {
        const AlertState& state = analyzer_.series_state(id);
        if (state.level == AlertLevel::kOk) continue;
        if (state.acknowledged) {
            ++c.acknowledged;
            continue;
        }
        c.alert += state.level == AlertLevel::kAlert;
        c.warn += state.level == AlertLevel::kWarn;
    }
    // The Analyzer's running counts cover every series it judged: the rest is what the filter
    // hides.
    const Analyzer::LevelCounts& all = analyzer_.level_counts();
    c.hidden_alert = all.alert > c.alert ? all.alert - c.alert : 0;
    c.hidden_warn = all.warn > c.warn ? all.warn - c.warn : 0;
    return c;
}

AlertLevel ViewModel::level(const TagGroup& group) const {
    AlertLevel worst = AlertLevel::kOk;
    for (SeriesId id : group.series) worst = std::max(worst, analyzer_.series_state(id).level);
    return worst;
}

bool ViewModel::selects(const AnomalyRecord& record) const {
    if (record.tag.empty()) return filter_.selects_run(record.run);
    return filter_.selects(SeriesKey{record.run, record.rank, record.tag});
}

}  // namespace runtop::ui
