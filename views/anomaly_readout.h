// The readout of the anomaly list's selected row (views/anomaly_view.h), at the bottom of the
// view: every field whole, where the table may have cut it (step, run, rank, tag, value, rule,
// severity, source), then the whole message, wrapped to the canvas's width:
//
//   ────────────────────────────────────────────────────────────────────────────────
//   step 280  run fx/monitor_output  rank 1  tag grad_reduced/layers.0.bias/norm
//   value nan  rule AnomalyNan  severity ▲ alert  source msprobe
//   Rule AnomalyNan reports anomaly signal in ('0:layers.0.bias/rank1/post_grad',
//   'norm') at step 280, current value nan, history mean 0.373.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/anomaly_log.h"
#include "views/canvas.h"
#include "views/glyphs.h"

namespace runtop::ui {

// A piece of text on one of the readout's lines (0: the first below its rule).
struct ReadoutSpan {
    int line = 0;
    int x = 0;
    std::string text;  // sanitised (visible()): drawn as it is measured
    Style style;
};

struct AnomalyReadout {
    std::vector<ReadoutSpan> spans;
    int lines = 0;  // the lines the fields and the message take at this width
};

// Fields flow on lines as whole as the width allows (one longer than a line continues on the
// next); the message starts a line of its own and wraps at spaces.
AnomalyReadout anomaly_readout(const AnomalyLog& log, const LogEntry& entry, bool acknowledged,
                               GlyphTier tier, int width);
// anomaly_readout(...).lines, without making the spans.
int anomaly_readout_lines(const AnomalyLog& log, const LogEntry& entry, bool acknowledged,
                          GlyphTier tier, int width);

// Draws `readout` on rows [top, top + rows): a rule, then its lines. Lines past the rows are
// left out and the last one drawn ends in an ellipsis (a canvas too short for the whole).
void draw_anomaly_readout(Canvas& canvas, const AnomalyReadout& readout, int top, int rows,
                          bool ascii);

}  // namespace runtop::ui
