#include "views/chart_plot.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>

#include <fmt/format.h>

#include "views/model.h"

namespace runtop::ui {
namespace {

// Braille dot bits of dot column (0 left, 1 right) at dot row r (0 bottom .. 3 top).
constexpr unsigned kBrailleDot[2][4] = {{0x40, 0x04, 0x02, 0x01}, {0x80, 0x20, 0x10, 0x08}};

}  // namespace

DotShape dot_shape(GlyphTier tier) {
    switch (tier) {
        case GlyphTier::kBraille:
            return {2, 4};
        case GlyphTier::kBlocks:
            return {1, 2};
        case GlyphTier::kAscii:
            return {1, 3};
    }
    return {1, 1};
}

DotGrid::DotGrid(int cells_w, int cells_h, GlyphTier tier)
    : tier_(tier),
      shape_(dot_shape(tier)),
      w_(std::max(0, cells_w)),
      h_(std::max(0, cells_h)),
      cells_(static_cast<std::size_t>(w_) * static_cast<std::size_t>(h_)) {}

void DotGrid::span(int x, int y0, int y1, int group, int priority, Style style) {
    if (x < 0 || x >= dot_w() || dot_h() == 0) return;
    if (y0 > y1) std::swap(y0, y1);
    y0 = std::max(y0, 0);
    y1 = std::min(y1, dot_h() - 1);
    const int cx = x / shape_.x, side = x % shape_.x;
    for (int y = y0; y <= y1;) {
        const int row_from_bottom = y / shape_.y;
        const int cy = h_ - 1 - row_from_bottom;
        // The dots of this span inside this cell.
        unsigned bits = 0;
        const int top = std::min(y1, (row_from_bottom + 1) * shape_.y - 1);
        for (; y <= top; ++y) {
            const int r = y % shape_.y;
            bits |= tier_ == GlyphTier::kBraille ? kBrailleDot[side][r] : 1u << r;
        }
        DotCell& c = cells_[index(cx, cy)];
        if (c.bits == 0 || priority > c.priority) {
            if (c.bits != 0 && c.group != group) c.bits = 0;  // occluded
            c.bits = static_cast<std::uint8_t>(c.bits | bits);
            c.group = group;
            c.priority = priority;
            c.style = style;
        } else if (c.group == group) {
            c.bits = static_cast<std::uint8_t>(c.bits | bits);
        }
    }
}

char32_t DotGrid::glyph(int cx, int cy) const {
    const unsigned bits = cells_[index(cx, cy)].bits;
    if (bits == 0) return U' ';
    switch (tier_) {
        case GlyphTier::kBraille:
            return static_cast<char32_t>(0x2800 + bits);
        case GlyphTier::kBlocks:
            return bits == 1 ? U'▄' : bits == 2 ? U'▀' : U'█';
        case GlyphTier::kAscii:
            // bottom '.', middle '-', top '\'', more than one level '|' (':' with a gap).
            switch (bits) {
                case 1:
                    return U'.';
                case 2:
                    return U'-';
                case 4:
                    return U'\'';
                case 5:
                    return U':';
                default:
                    return U'|';
            }
    }
    return U'?';
}

void DotGrid::render(Canvas& canvas, int x0, int y0) const {
    for (int cy = 0; cy < h_; ++cy)
        for (int cx = 0; cx < w_; ++cx)
            if (!empty(cx, cy)) canvas.put(x0 + cx, y0 + cy, glyph(cx, cy), style(cx, cy));
}

double range_fraction(double v, const SparkRange& r) {
    double t;
    if (r.log) {
        if (!(v > 0)) return 0;
        const double span = std::log(r.hi) - std::log(r.lo);
        t = span > 0 ? (std::log(v) - std::log(r.lo)) / span : 0.5;
    } else {
        const double span = r.hi / 2 - r.lo / 2;
        t = span > 0 ? (v / 2 - r.lo / 2) / span : 0.5;
    }
    if (!(t > 0)) return 0;
    return std::min(t, 1.0);
}

int dot_row(double v, const SparkRange& r, int dot_h) {
    return std::clamp(static_cast<int>(range_fraction(v, r) * dot_h), 0, dot_h - 1);
}

std::vector<double> nice_ticks(double lo, double hi, int max_ticks) {
    std::vector<double> out;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo)) return out;
    max_ticks = std::max(2, max_ticks);
    const double raw = (hi - lo) / max_ticks;
    if (!(raw > 0) || !std::isfinite(raw)) return out;
    // step = m * 10^e; a tick is k * m * 10^e, computed as (k * m) / 10^-e when e < 0 so
    // that 0.6 is 0.6, not 3 * 0.2 = 0.6000000000000001.
    const int e = static_cast<int>(std::floor(std::log10(raw)));
    const double mag = std::pow(10.0, e), inv = std::pow(10.0, -e);
    double m = 1;
    for (double c : {1.0, 2.0, 5.0, 10.0}) {
        m = c;
        if (c * mag >= raw) break;
    }
    const double step = m * mag;
    auto tick = [&](double k) { return e < 0 ? k * m / inv : k * m * mag; };
    const double first = std::ceil(lo / step);
    for (double k = first;; ++k) {
        double v = tick(k);
        if (v > hi + step * 1e-9) break;
        if (std::fabs(v) < step * 1e-9) v = 0;  // no "-0" or 1e-17 for zero
        out.push_back(v);
        if (out.size() > 100) break;
    }
    return out;
}

std::vector<double> log_ticks(double lo, double hi, int max_ticks) {
    std::vector<double> out;
    if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi)) return nice_ticks(lo, hi, max_ticks);
    max_ticks = std::max(2, max_ticks);
    const int e0 = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
    const int e1 = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
    const int decades = e1 - e0 + 1;
    if (decades >= 3 || (decades == 2 && max_ticks < 6)) {
        const int every = (decades + max_ticks - 1) / max_ticks;
        for (int e = e0; e <= e1; ++e)
            if ((e - e0) % every == 0) out.push_back(std::pow(10.0, e));
        return out;
    }
    for (int e = e0 - 1; e <= e1; ++e)
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * std::pow(10.0, e);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
        }
    if (out.size() >= 2 && static_cast<int>(out.size()) <= max_ticks) return out;
    return nice_ticks(lo, hi, max_ticks);
}

std::vector<std::int64_t> step_ticks(std::int64_t lo, std::int64_t hi, int max_ticks) {
    std::vector<std::int64_t> out;
    if (hi < lo) return out;
    if (hi == lo) return {lo};
    max_ticks = std::max(2, max_ticks);
    const double raw = static_cast<double>(hi - lo) / max_ticks;
    double mag = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * mag;
        if (step >= raw) break;
    }
    const auto s = std::max<std::int64_t>(1, static_cast<std::int64_t>(step));
    std::int64_t first = lo >= 0 ? (lo + s - 1) / s * s : -((-lo) / s * s);
    for (std::int64_t v = first; v <= hi && out.size() <= 100; v += s) out.push_back(v);
    return out;
}

double time_tick_interval(double span, int max_ticks) {
    static constexpr std::array<double, 22> kIntervals = {
        1,    2,    5,    10,    15,    30,    60,    120,    300,    600,     900,
        1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000, 31536000};
    max_ticks = std::max(1, max_ticks);
    for (double i : kIntervals)
        if (span / i <= max_ticks) return i;
    double i = kIntervals.back();
    while (span / i > max_ticks) i *= 10;
    return i;
}

std::string relative_time_text(double seconds, bool coarse) {
    if (!std::isfinite(seconds)) return "?";
    const char* sign = seconds < 0 ? "-" : "+";
    auto s = static_cast<std::int64_t>(std::llround(std::fabs(seconds)));
    const std::int64_t d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60, sec = s % 60;
    if (d > 0)
        return coarse && h == 0 ? fmt::format("{}{}d", sign, d)
                                : fmt::format("{}{}d{}h", sign, d, h);
    if (h > 0)
        return coarse && m == 0 ? fmt::format("{}{}h", sign, h)
                                : fmt::format("{}{}h{}m", sign, h, m);
    if (m > 0)
        return coarse && sec == 0 ? fmt::format("{}{}m", sign, m)
                                  : fmt::format("{}{}m{}s", sign, m, sec);
    return fmt::format("{}{}s", sign, sec);
}

std::string wall_time_text(double unix_time, bool seconds, bool date) {
    if (!std::isfinite(unix_time)) return "?";
    const auto t = static_cast<std::time_t>(std::floor(unix_time));
    std::tm tm{};
    localtime_r(&t, &tm);
    std::string out;
    if (date) out = fmt::format("{:02}-{:02} ", tm.tm_mon + 1, tm.tm_mday);
    out += seconds ? fmt::format("{:02}:{:02}:{:02}", tm.tm_hour, tm.tm_min, tm.tm_sec)
                   : fmt::format("{:02}:{:02}", tm.tm_hour, tm.tm_min);
    return out;
}

long local_utc_offset(double unix_time) {
    if (!std::isfinite(unix_time)) return 0;
    const auto t = static_cast<std::time_t>(std::floor(unix_time));
    std::tm tm{};
    localtime_r(&t, &tm);
    return tm.tm_gmtoff;
}

std::vector<LegendKey> mark_keys(const std::vector<ChartMarker>& markers, GlyphTier tier,
                                 bool clipped, bool log_non_positive) {
    const Marks& mk = marks(tier);
    const bool ascii = tier == GlyphTier::kAscii;
    bool nan = false, restart = false, alert = false, warn = false;
    for (const ChartMarker& m : markers) {
        nan |= m.nan;
        restart |= m.restart;
        alert |= m.anomaly == 2;
        warn |= m.anomaly == 1;
    }
    std::vector<LegendKey> keys;
    if (alert) keys.push_back({mk.alert, "alert", {Role::kAlert, true}});
    if (warn) keys.push_back({mk.warn, "warn", {Role::kWarn, true}});
    if (nan) keys.push_back({mk.nan, "nan/inf", {Role::kNan, true}});
    if (restart) keys.push_back({mk.restart, "restart", {Role::kAccent, true}});
    if (clipped) keys.push_back({mk.clipped_up, "clipped", {Role::kWarn, true}});
    if (log_non_positive)
        keys.push_back({mk.clipped_down, ascii ? "<=0" : "≤0", {Role::kWarn, true}});
    return keys;
}

int legend_keys_width(const std::vector<LegendKey>& keys) {
    int w = 0;
    for (const LegendKey& k : keys) w += (k.mark ? 2 : 0) + display_width(k.text) + 2;
    return w;
}

void draw_legend_keys(Canvas& canvas, int x, int y, const std::vector<LegendKey>& keys) {
    for (const LegendKey& k : keys) {
        if (k.mark) {
            canvas.put(x, y, k.mark, k.style);
            x += 2;
        }
        x += canvas.text(x, y, k.text, k.mark ? Style{Role::kDim} : k.style) + 2;
    }
}

bool clipped_range(std::vector<double>& values, const SparkRange& full, SparkRange& out) {
    if (values.size() < 5) return false;
    auto quantile = [&](double q) {
        const auto i = static_cast<std::ptrdiff_t>(q * static_cast<double>(values.size() - 1));
        std::nth_element(values.begin(), values.begin() + i, values.end());
        return values[static_cast<std::size_t>(i)];
    };
    const double p1 = quantile(0.01), p99 = quantile(0.99);
    SparkRange r = full;
    if (full.log) {
        const double a = std::log(p1), b = std::log(p99);
        const double pad = b > a ? 0.1 * (b - a) : std::log(2.0);
        r.lo = std::max(full.lo, std::exp(a - pad));
        r.hi = std::min(full.hi, std::exp(b + pad));
    } else {
        const double pad = p99 > p1 ? 0.1 * (p99 - p1) : (p1 == 0 ? 1 : std::fabs(p1) / 10);
        r.lo = std::max(full.lo, p1 - pad);
        r.hi = std::min(full.hi, p99 + pad);
    }
    if (!(r.hi > r.lo)) return false;
    out = r;
    return true;
}

ChartLayout make_chart_layout(int w, int h, int ylabel_w, bool delta_strip) {
    constexpr int kPanelWidth = 26;  // the readout at the right, separator included
    constexpr int kMinPlotWithPanel = 40;
    ChartLayout l;
    l.status_y = h - 1;
    const bool labels = h >= 8;
    const bool marks = h >= 9;
    const bool legend = h >= 11;
    l.ylabel_w = w >= 30 ? ylabel_w : 0;
    const int plot_x = l.ylabel_w + 1;
    const bool panel = w - kPanelWidth - plot_x - 1 >= kMinPlotWithPanel && h >= 10;
    const bool bottom = !panel && h >= 16;
    l.marks_y = marks ? 1 : -1;
    l.plot_x = plot_x;
    l.plot_y = marks ? 2 : 1;
    l.panel_x = panel ? w - kPanelWidth : -1;
    l.plot_w = std::max(1, (panel ? l.panel_x - 1 : w - 1) - plot_x);
    const int below = 1 + (labels ? 1 : 0) + (legend ? 1 : 0) + (bottom ? 2 : 0);
    const int rows = std::max(1, l.status_y - l.plot_y - below);
    l.strip_rows = delta_strip && rows >= 10 ? std::clamp(rows / 6, 2, 4) : 0;
    l.plot_h = rows - (l.strip_rows > 0 ? l.strip_rows + 1 : 0);
    l.strip_y = l.strip_rows > 0 ? l.plot_y + l.plot_h : -1;
    l.axis_y = l.plot_y + rows;
    int y = l.axis_y + 1;
    if (labels) l.labels_y = y++;
    if (legend) l.legend_y = y++;
    if (bottom) {
        l.bottom_y = y;
        l.bottom_h = 2;
    }
    return l;
}

void draw_chart_markers(Canvas& canvas, const ChartLayout& l,
                        const std::vector<ChartMarker>& markers, GlyphTier tier) {
    const Marks& mk = marks(tier);
    const int n = std::min(l.plot_w, static_cast<int>(markers.size()));
    for (int x = 0; x < n; ++x) {
        const ChartMarker& m = markers[static_cast<std::size_t>(x)];
        if (m.nan)
            canvas.put(l.plot_x + x, l.axis_y, mk.nan, {Role::kNan, true});
        else if (m.restart)
            canvas.put(l.plot_x + x, l.axis_y, mk.restart, {Role::kAccent, true});
        if (m.anomaly != 0 && l.marks_y >= 0)
            canvas.put(l.plot_x + x, l.marks_y, m.anomaly == 2 ? mk.alert : mk.warn,
                       {m.anomaly == 2 ? Role::kAlert : Role::kWarn, true});
    }
}

std::vector<double> y_ticks(const SparkRange& r, int plot_h) {
    const int max_ticks = std::max(2, plot_h / 2 + 1);
    return r.log ? log_ticks(r.lo, r.hi, max_ticks) : nice_ticks(r.lo, r.hi, max_ticks);
}

int tick_label_width(const std::vector<double>& ticks) {
    int w = 1;
    for (double t : ticks) w = std::max(w, display_width(short_value(t)));
    return w;
}

void draw_chart_axes(Canvas& canvas, const ChartLayout& l, const std::vector<double>& yticks,
                     const SparkRange& range, const std::vector<AxisTick>& xticks, int cursor,
                     GlyphTier tier) {
    const bool ascii = tier == GlyphTier::kAscii;
    const Style dim{Role::kDim};
    const int dots_y = dot_shape(tier).y;
    // y: the axis line, ticks and their labels.
    std::vector<int> tick_rows;
    for (double t : yticks) {
        const int cy = l.plot_h - 1 - dot_row(t, range, l.plot_h * dots_y) / dots_y;
        if (!tick_rows.empty() && tick_rows.back() == cy) continue;
        tick_rows.push_back(cy);
        if (l.ylabel_w > 0)
            canvas.text_right(l.ylabel_w, l.plot_y + cy, fit(short_value(t), l.ylabel_w, ascii),
                              dim);
    }
    for (int cy = 0; cy < l.plot_h; ++cy) {
        const bool tick = std::find(tick_rows.begin(), tick_rows.end(), cy) != tick_rows.end();
        canvas.put(l.ylabel_w, l.plot_y + cy, tick ? (ascii ? U'+' : U'┤') : (ascii ? U'|' : U'│'),
                   dim);
    }
    // x: the axis line with ticks, then the cursor.
    canvas.put(l.ylabel_w, l.axis_y, ascii ? U'+' : U'└', dim);
    canvas.fill(l.plot_x, l.axis_y, l.plot_w, 1, ascii ? U'-' : U'─', dim);
    for (const AxisTick& t : xticks) canvas.put(l.plot_x + t.x, l.axis_y, ascii ? U'+' : U'┬', dim);
    canvas.put(l.plot_x + cursor, l.axis_y, ascii ? U'+' : U'┴', {Role::kAccent, true});
}

void draw_x_labels(Canvas& canvas, const ChartLayout& l, const std::vector<AxisTick>& xticks,
                   int cursor, const std::string& cursor_label, int right) {
    if (l.labels_y < 0) return;
    std::vector<std::pair<int, int>> used;  // [from, to)
    auto place = [&](int center, const std::string& text, Style style, bool force) {
        const int tw = display_width(text);
        const int x = std::clamp(center - tw / 2, 0, std::max(0, right - tw));
        for (auto [a, b] : used)
            if (x < b + 1 && a < x + tw + 1 && !force) return;
        canvas.text(x, l.labels_y, text, style);
        used.emplace_back(x, x + tw);
    };
    place(l.plot_x + cursor, cursor_label, {Role::kAccent, true, true}, true);
    for (const AxisTick& t : xticks) place(l.plot_x + t.x, t.label, {Role::kDim}, false);
}

std::int64_t DetailGeometry::column_step(int column) const {
    if (columns <= 0) return lo;
    return column_start(lo, hi + 1, static_cast<unsigned>(columns),
                        static_cast<unsigned>(std::clamp(column, 0, columns)));
}

int DetailGeometry::column_of(std::int64_t step) const {
    if (columns <= 0) return 0;
    if (step <= lo) return 0;
    if (step > hi) return columns - 1;
    const auto d = static_cast<unsigned __int128>(static_cast<std::uint64_t>(step - lo));
    const auto width = static_cast<unsigned __int128>(static_cast<std::uint64_t>(hi + 1 - lo));
    const auto n = static_cast<unsigned __int128>(columns);
    const auto c = static_cast<std::int64_t>(((d + 1) * n + width - 1) / width) - 1;
    return static_cast<int>(std::clamp<std::int64_t>(c, 0, columns - 1));
}

int DetailGeometry::cell_of(std::int64_t step) const {
    return column_of(step) / std::max(1, dots_x);
}

}  // namespace runtop::ui
