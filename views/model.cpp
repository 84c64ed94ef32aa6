#include "views/model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "core/identity.h"

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

std::tuple<int, std::string, int, std::string> order_key(std::string_view tag) {
    const std::size_t slash = tag.find('/');
    const bool has_prefix = slash != std::string_view::npos;
    std::string prefix = has_prefix ? lower(tag.substr(0, slash)) : std::string();
    const std::size_t last = tag.rfind('/');
    const std::string leaf = lower(last == std::string_view::npos ? tag : tag.substr(last + 1));
    const int loss_like = leaf.find("loss") != std::string::npos ? 0 : 1;
    const int rank = prefix_rank(prefix, has_prefix);
    return {rank, std::move(prefix), loss_like, lower(tag)};
}

// Strips a mantissa's trailing zeros: "1.500" -> "1.5", "3.000" -> "3".
void trim_zeros(std::string& m) {
    if (m.find('.') == std::string::npos) return;
    while (!m.empty() && m.back() == '0') m.pop_back();
    if (!m.empty() && m.back() == '.') m.pop_back();
}

}  // namespace

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

void ViewModel::set_filter(SeriesFilter filter, std::string tag_regex, std::string rank_spec) {
    filter_ = std::move(filter);
    filter_tags_ = std::move(tag_regex);
    filter_ranks_ = std::move(rank_spec);
    filter_dirty_ = true;
    update();
}

void ViewModel::update() {
    const std::size_t count = store_.series_count();
    if (count == seen_ && !filter_dirty_) return;
    // Overlay indices in the order the Store first saw each (run, rank): stable for good.
    overlay_.resize(count);
    for (std::size_t id = seen_; id < count; ++id) {
        const SeriesKeyRef key = store_.at(static_cast<SeriesId>(id)).key();
        const int next = static_cast<int>(overlay_of_.size());
        overlay_[id] =
            overlay_of_.try_emplace(RunRank{std::string(key.run), key.rank}, next).first->second;
        const int next_run = static_cast<int>(run_colour_.size());
        if (run_colour_.try_emplace(std::string(key.run), next_run).second)
            add_run(std::string(key.run));
    }
    seen_ = count;
    filter_dirty_ = false;
    regroup();
}

void ViewModel::regroup() {
    selected_.clear();
    std::map<std::string_view, std::vector<SeriesId>> by_tag;
    std::set<std::string_view> runs;
    for (SeriesId id : store_.sorted_ids()) {
        const SeriesKeyRef key = store_.at(id).key();
        if (!filter_.selects(key)) continue;
        selected_.push_back(id);
        by_tag[key.tag].push_back(id);  // sorted ids: (run, rank) order within a tag
        runs.insert(key.run);
    }
    runs_ = runs.size();
    groups_.clear();
    groups_.reserve(by_tag.size());
    for (auto& [tag, ids] : by_tag) groups_.push_back({std::string(tag), std::move(ids)});
    std::sort(groups_.begin(), groups_.end(),
              [](const TagGroup& a, const TagGroup& b) { return card_order_less(a.tag, b.tag); });
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

std::uint64_t ViewModel::points() const {
    std::uint64_t n = 0;
    for (SeriesId id : selected_) n += store_.at(id).count();
    return n;
}

AlertCounts ViewModel::alert_counts() const {
    AlertCounts c;
    for (SeriesId id : selected_) {
        const AlertState& state = analyzer_.series_state(id);
        if (state.level == AlertLevel::kOk) continue;
        if (state.acknowledged) {
            ++c.acknowledged;
            continue;
        }
        c.alert += state.level == AlertLevel::kAlert;
        c.warn += state.level == AlertLevel::kWarn;
    }
    return c;
}

AlertLevel ViewModel::level(const TagGroup& group) const {
    AlertLevel worst = AlertLevel::kOk;
    for (SeriesId id : group.series) worst = std::max(worst, analyzer_.series_state(id).level);
    return worst;
}

bool ViewModel::selects(const AnomalyRecord& record) const {
    if (record.tag.empty()) return true;
    return filter_.selects(SeriesKey{record.run, record.rank, record.tag});
}

}  // namespace runtop::ui
