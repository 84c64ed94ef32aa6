#include "views/anomaly_readout.h"

#include <algorithm>
#include <string_view>

#include "core/analysis/analyzer.h"
#include "core/format.h"

namespace runtop::ui {
namespace {

constexpr int kGap = 2;  // columns between two fields on a line

// Bytes of the longest prefix of sanitised `text` that fits in `columns` (0: not even one code
// point does).
std::size_t fitting_bytes(std::string_view text, int columns) {
    int used = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t next = i + 1;
        while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80)
            ++next;
        const int w = display_width(text.substr(i, next - i));
        if (used + w > columns) break;
        used += w;
        i = next;
    }
    return i;
}

// Text laid out on lines of `width` columns, left to right; with no spans to fill, it only
// counts the lines (the layout asks that of every row).
class Flow {
  public:
    Flow(int width, std::vector<ReadoutSpan>* spans) : width_(std::max(1, width)), spans_(spans) {}

    int x() const { return x_; }
    int width() const { return width_; }
    void space(int n) { x_ += n; }
    void new_line() {
        if (x_ == 0) return;
        ++line_;
        x_ = 0;
    }
    // Sanitised `text` of `columns` from here on, on the next lines for what does not fit.
    void put(std::string_view text, int columns, Style style) {
        if (x_ >= width_) new_line();
        if (columns <= width_ - x_) {
            if (spans_) spans_->push_back({line_, x_, std::string(text), style});
            x_ += columns;
            return;
        }
        while (!text.empty()) {
            if (x_ >= width_) new_line();
            std::size_t n = fitting_bytes(text, width_ - x_);
            if (n == 0 && x_ > 0) {
                new_line();
                continue;
            }
            if (n == 0) n = fitting_bytes(text, 2);  // a wide glyph on a 1-column line
            if (n == 0) n = text.size();
            const std::string_view piece = text.substr(0, n);
            if (spans_) spans_->push_back({line_, x_, std::string(piece), style});
            x_ += display_width(piece);
            text.remove_prefix(n);
        }
    }
    int lines() const { return line_ + (x_ > 0 ? 1 : 0); }

  private:
    int width_;
    std::vector<ReadoutSpan>* spans_;
    int line_ = 0, x_ = 0;
};

// Untrusted text as it is drawn (visible()) and its columns; printable ASCII, nearly every
// tag and message, is taken as it is.
struct Clean {
    explicit Clean(std::string_view raw) {
        bool plain = true;
        for (char c : raw) plain = plain && c >= 0x20 && c < 0x7f;
        if (plain) {
            text = raw;
            columns = static_cast<int>(raw.size());
        } else {
            owned = visible(raw);
            text = owned;
            columns = display_width(owned);
        }
    }
    std::string owned;
    std::string_view text;
    int columns = 0;
};

// "label value", on this line when it fits whole, else on the next.
void field(Flow& flow, std::string_view label, std::string_view value, Style value_style) {
    const Clean text(value);
    const int label_columns = static_cast<int>(label.size());  // ASCII
    const int need = label_columns + 1 + text.columns;
    if (flow.x() > 0) {
        if (flow.x() + kGap + need > flow.width())
            flow.new_line();
        else
            flow.space(kGap);
    }
    flow.put(label, label_columns, {Role::kDim});
    flow.space(1);
    flow.put(text.text, text.columns, value_style);
}

// The message on lines of its own, broken at spaces (a word longer than a line, within it).
void message(Flow& flow, std::string_view raw) {
    flow.new_line();
    const Clean text(raw);
    const bool plain = text.owned.empty();
    std::string_view rest = text.text;
    while (!rest.empty()) {
        const std::size_t space = rest.find(' ');
        const std::string_view word = rest.substr(0, space);
        rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        if (word.empty()) continue;
        const int columns = plain ? static_cast<int>(word.size()) : display_width(word);
        if (flow.x() > 0) {
            if (flow.x() + 1 + columns > flow.width())
                flow.new_line();
            else
                flow.space(1);
        }
        flow.put(word, columns, {Role::kText});
    }
}

// The readout into `flow`.
void lay_out(Flow& flow, const AnomalyLog& log, const LogEntry& entry, bool acknowledged,
             GlyphTier tier) {
    const AnomalyRecord& r = log.records()[entry.index];
    const Style value{Role::kText};
    field(flow, "step", anomaly_steps_text(r), value);
    field(flow, "run", r.run.empty() ? "-" : r.run, value);
    field(flow, "rank", r.rank == kNoRank ? std::string("-") : std::to_string(r.rank), value);
    field(flow, "tag", r.tag.empty() ? "-" : r.tag, value);
    field(flow, "value", format_value(r.value), value);
    field(flow, "rule", r.rule, value);
    // The severity as the table's badge: it reads without colour.
    const std::string severity(severity_name(entry.severity));
    const AlertLevel level = alert_level(entry.severity);
    if (acknowledged) {
        field(flow, "severity", "ack " + severity, {Role::kDim});
    } else {
        std::string badge;
        append_utf8(badge, level == AlertLevel::kAlert ? marks(tier).alert : marks(tier).warn);
        field(flow, "severity", badge + " " + severity,
              {level == AlertLevel::kAlert ? Role::kAlert : Role::kWarn, true, true});
    }
    field(flow, "source", anomaly_source_name(r.source), value);
    message(flow, anomaly_message_text(log, entry));
}

}  // namespace

AnomalyReadout anomaly_readout(const AnomalyLog& log, const LogEntry& entry, bool acknowledged,
                               GlyphTier tier, int width) {
    AnomalyReadout out;
    Flow flow(width, &out.spans);
    lay_out(flow, log, entry, acknowledged, tier);
    out.lines = flow.lines();
    return out;
}

int anomaly_readout_lines(const AnomalyLog& log, const LogEntry& entry, bool acknowledged,
                          GlyphTier tier, int width) {
    Flow flow(width, nullptr);
    lay_out(flow, log, entry, acknowledged, tier);
    return flow.lines();
}

void draw_anomaly_readout(Canvas& canvas, const AnomalyReadout& readout, int top, int rows,
                          bool ascii) {
    if (rows <= 0) return;
    canvas.fill(0, top, canvas.width(), 1, ascii ? U'-' : U'─', {Role::kBorder});
    const int lines = rows - 1;
    for (const ReadoutSpan& s : readout.spans)
        if (s.line < lines) canvas.text(s.x, top + 1 + s.line, s.text, s.style);
    // Too short for the whole readout: say that more was left out.
    if (readout.lines > lines && lines > 0)
        canvas.put(canvas.width() - 1, top + lines, ascii ? U'~' : U'…', {Role::kDim});
}

}  // namespace runtop::ui
