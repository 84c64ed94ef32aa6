#include "app/dump_text.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "app/inputs.h"
#include "app/ordered_blocks.h"
#include "core/format.h"
#include "core/json/json_writer.h"

namespace runtop {
namespace {

// Points a block: enough that handing a block over costs nothing next to formatting it.
constexpr std::size_t kBlockPoints = std::size_t{1} << 15;
// Points decoded at a time from a series' chunks.
constexpr std::size_t kBatch = 1024;

// What every line of a series starts with: `run,rank,tag,` or `{"run":...,"tag":"..."`.
std::string line_prefix(DumpFormat format, const SeriesKeyRef& key) {
    std::string prefix;
    if (format == DumpFormat::kJsonl) {
        JsonWriter w(prefix);
        w.begin_object().key("run").string(key.run).key("rank");
        key.rank == kNoRank ? w.null() : w.integer(key.rank);
        w.key("tag").string(key.tag);  // the object goes on with the point's fields
        return prefix;
    }
    append_csv_field(prefix, visible(key.run));
    prefix += ',';
    if (key.rank != kNoRank) prefix += std::to_string(key.rank);
    prefix += ',';
    append_csv_field(prefix, visible(key.tag));
    prefix += ',';
    return prefix;
}

void append_integer(std::string& out, std::int64_t v) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    out.append(digits, end);
}

// A line's fields after its prefix. Wall times repeat (a CSV's rows share their file's
// mtime): the last one's text is reused.
class PointText {
  public:
    explicit PointText(DumpFormat format) : format_(format) {}
    void append(std::string& out, const std::string& prefix, std::int64_t step, double wall,
                double value) {
        out += prefix;
        if (format_ == DumpFormat::kJsonl) {
            out += ",\"step\":";
            append_integer(out, step);
            out += ",\"wall_time\":";
            append_wall(out, wall);
            out += ",\"value\":";
            append_json_number(out, value);
            out += "}\n";
            return;
        }
        append_integer(out, step);
        out += ',';
        append_wall(out, wall);
        out += ',';
        append_value(out, value);
        out += '\n';
    }

  private:
    void append_wall(std::string& out, double wall) {
        std::uint64_t bits;
        std::memcpy(&bits, &wall, sizeof bits);
        if (!have_wall_ || bits != wall_bits_) {
            wall_text_.clear();
            if (format_ == DumpFormat::kJsonl)
                append_json_number(wall_text_, wall, true);
            else
                append_shortest(wall_text_, wall);
            wall_bits_ = bits;
            have_wall_ = true;
        }
        out += wall_text_;
    }

    DumpFormat format_;
    std::string wall_text_;
    std::uint64_t wall_bits_ = 0;
    bool have_wall_ = false;
};

// Points [first, first + count) of one series.
struct Piece {
    std::size_t series;  // its index in dump_points()' list
    std::size_t first;
    std::size_t count;
};

}  // namespace

std::string dump_header(DumpFormat format) {
    return format == DumpFormat::kCsv ? "run,rank,tag,step,wall_time,value\n" : "";
}

void append_dump_line(std::string& out, DumpFormat format, const SeriesKeyRef& key,
                      const Point& p) {
    PointText(format).append(out, line_prefix(format, key), p.step, p.wall_time, p.value);
}

void dump_points(const std::vector<const Series*>& series, DumpFormat format, std::size_t threads) {
    // Blocks of about kBlockPoints points: a long series is cut, short ones go together.
    std::vector<Piece> pieces;
    std::vector<std::size_t> block_starts;  // into pieces
    std::size_t in_block = kBlockPoints;
    for (std::size_t id = 0; id < series.size(); ++id) {
        const std::size_t n = series[id]->retained();
        for (std::size_t first = 0; first < n;) {
            if (in_block >= kBlockPoints) {
                block_starts.push_back(pieces.size());
                in_block = 0;
            }
            const std::size_t count = std::min(n - first, kBlockPoints - in_block);
            pieces.push_back({id, first, count});
            first += count;
            in_block += count;
        }
    }
    block_starts.push_back(pieces.size());

    std::string out = dump_header(format);
    make_in_order(
        block_starts.size() - 1, threads,
        [&](std::size_t b, std::string& text) {
            PointText point(format);
            std::int64_t steps[kBatch];
            double walls[kBatch], values[kBatch];
            for (std::size_t p = block_starts[b]; p < block_starts[b + 1]; ++p) {
                const Piece& piece = pieces[p];
                const Series& s = *series[piece.series];
                const std::string prefix = line_prefix(format, s.key());
                for (std::size_t done = 0; done < piece.count;) {
                    const std::size_t k = std::min(kBatch, piece.count - done);
                    s.read(piece.first + done, k, steps, walls, values);
                    for (std::size_t i = 0; i < k; ++i)
                        point.append(text, prefix, steps[i], walls[i], values[i]);
                    done += k;
                }
            }
        },
        [&](std::string& text) { write_block(out, text); });
    flush_output(out, true);
}

}  // namespace runtop
