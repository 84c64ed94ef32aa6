#include "views/view_common.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/format.h"

namespace runtop::ui {
namespace {

std::string badge_text(AlertLevel level, GlyphTier tier, std::string_view text) {
    if (level == AlertLevel::kOk) return {};
    std::string out;
    append_utf8(out, level == AlertLevel::kAlert ? marks(tier).alert : marks(tier).warn);
    if (!text.empty()) {
        out += ' ';
        out += text;
    }
    return out;
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
    return short_step(static_cast<std::int64_t>(n)) + " " + std::string(n == 1 ? one : many);
}

}  // namespace

bool too_small(const Canvas& canvas) {
    return canvas.width() < kMinWidth || canvas.height() < kMinHeight;
}

void draw_too_small(Canvas& canvas, std::string_view view_name) {
    canvas.clear();
    const std::string lines[] = {
        "too small",
        fmt::format("{}x{}, {} needs {}x{}", canvas.width(), canvas.height(), view_name, kMinWidth,
                    kMinHeight),
    };
    const int h = canvas.height();
    const int top = std::max(0, (h - 2) / 2);
    for (int i = 0; i < 2 && top + i < h; ++i) {
        const std::string text = fit(lines[i], canvas.width(), true);
        const int x = std::max(0, (canvas.width() - display_width(text)) / 2);
        canvas.text(x, top + i, text, {i == 0 ? Role::kWarn : Role::kDim, i == 0});
    }
}

void draw_status(Canvas& canvas, const ViewModel& model, std::string_view right) {
    const int y = canvas.height() - 1;
    const int w = canvas.width();
    const Style base{Role::kStatus};
    canvas.fill(0, y, w, 1, U' ', base);
    int end = w;
    if (!right.empty()) {
        const int used = canvas.text_right(w, y, fit(right, w / 2, model.ascii()), base);
        end = w - used - 2;
    }

    struct Segment {
        std::string text;
        Style style;
    };
    std::vector<Segment> segments;
    const AlertCounts alerts = model.alert_counts();
    if (alerts.alert == 0 && alerts.warn == 0) {
        segments.push_back({"no alerts", {Role::kOk}});
    } else {
        if (alerts.alert > 0)
            segments.push_back({badge_text(AlertLevel::kAlert, model.glyphs(),
                                           fmt::format("{} alert", alerts.alert)),
                                {Role::kAlert, true, true}});
        if (alerts.warn > 0)
            segments.push_back(
                {badge_text(AlertLevel::kWarn, model.glyphs(), fmt::format("{} warn", alerts.warn)),
                 {Role::kWarn, true, true}});
    }
    // What the filter hides changes everything else: it comes right after the alerts.
    if (!model.filter_tags().empty())
        segments.push_back({"filter " + model.filter_tags(), {Role::kAccent}});
    if (!model.filter_ranks().empty())
        segments.push_back({"ranks " + model.filter_ranks(), {Role::kAccent}});
    segments.push_back({plural(model.runs(), "run", "runs"), base});
    std::string series = plural(model.selected().size(), "series", "series");
    if (model.hidden() > 0) series += fmt::format(" ({} hidden)", model.hidden());
    segments.push_back({std::move(series), base});
    segments.push_back({plural(model.points(), "point", "points"), base});
    if (model.ingest.roots > 0)
        segments.push_back({plural(model.ingest.roots, "root", "roots") + ", " +
                                plural(model.ingest.files, "file", "files"),
                            base});

    int x = 0;
    for (const Segment& s : segments) {
        if (x >= end) break;
        x += canvas.text(x, y, fit(s.text, end - x, model.ascii()), s.style);
        x += 2;
    }
}

char32_t trend_glyph(int direction, bool ascii) {
    if (direction > 0) return ascii ? U'^' : U'↑';
    if (direction < 0) return ascii ? U'v' : U'↓';
    return ascii ? U'-' : U'→';
}

int trend_direction(double before, double now) {
    if (!std::isfinite(before) || !std::isfinite(now)) return 0;
    const double scale = std::max(std::fabs(before), std::fabs(now));
    if (scale == 0 || std::fabs(now - before) < 0.02 * scale) return 0;
    return now > before ? 1 : -1;
}

int badge_width(AlertLevel level, GlyphTier tier, std::string_view text) {
    return display_width(badge_text(level, tier, text));
}

int draw_badge(Canvas& canvas, int x, int y, AlertLevel level, GlyphTier tier,
               std::string_view text) {
    if (level == AlertLevel::kOk) return 0;
    const Style style{level == AlertLevel::kAlert ? Role::kAlert : Role::kWarn, true, true};
    return canvas.text(x, y, badge_text(level, tier, text), style);
}

}  // namespace runtop::ui
