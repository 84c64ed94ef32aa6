// runtop_benchgen --events-scale RxTxS DIR: TensorBoard event files with thousands of tags per
// rank (issue 17): R ranks, each one event file in DIR/rank_<r>/ holding T scalar tags x S
// steps, written as PyTorch's add_scalar does (writers/event_writer.h). Tags are per-parameter
// summaries of a Llama-style model ("grad_norm/layers.17.mlp.w3.weight"), four metrics per
// parameter. Each rank has its own values; one rank-local spike is injected (rank R/3, the
// grad_norm tag in the middle of the tags, at two thirds of the steps: x1000).
// Every value is a pure function of (rank, tag, step) in exact arithmetic (no libm), so the
// bytes are the same on every machine and a test can recompute each point it reads back.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"

namespace runtop::bench {

struct EventsScaleShape {
    int ranks = 8;
    int tags = 2000;
    long long steps = 1000;
};

// "8x2000x1000" (ranks x tags x steps); false when it does not parse.
bool parse_events_scale_shape(const std::string& text, EventsScaleShape& shape);

// The name of tag `index` (0 <= index < shape.tags): "<metric>/layers.<L>.<parameter>".
std::string events_scale_tag(int index);

// Where the one injected spike is.
struct EventsScaleSpike {
    int rank = 0;
    int tag = 0;  // index, a grad_norm tag
    long long step = 0;
};
EventsScaleSpike events_scale_spike(const EventsScaleShape& shape);

// The value written for (rank, tag, step), the spike included.
float events_scale_value(const EventsScaleShape& shape, int rank, int tag, long long step);

// The wall time written with (rank, tag, step).
double events_scale_wall_time(int rank, int tag, long long step);

struct EventsScaleWritten {
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    std::uint64_t series = 0;
    std::uint64_t points = 0;
};

// Writes the tree (DIR and its rank directories are created).
Result<EventsScaleWritten> write_events_scale(const std::string& dir,
                                              const EventsScaleShape& shape);

// The one line runtop_benchgen prints, fields in the places --msprobe-scale puts them (files,
// bytes, series, points, then the spike), so bench/scale_bench.sh reads both alike.
std::string describe_events_scale(const std::string& dir, const EventsScaleShape& shape,
                                  const EventsScaleWritten& written);

}  // namespace runtop::bench
