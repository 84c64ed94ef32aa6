#include "readers/msprobe_csv_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <deque>
#include <optional>
#include <unordered_map>

#include "core/heap_bytes.h"
#include "core/identity.h"
#include "readers/number_text.h"

namespace runtop {
namespace {

// Strips "_<a>-<b>" (and a following "_part_<k>") from the end of a stem; "" if absent.
std::string_view strip_range(std::string_view stem, std::string_view marker) {
    std::size_t part = stem.rfind("_part_");
    if (part != std::string_view::npos && all_digits(stem.substr(part + 6)))
        stem = stem.substr(0, part);
    std::size_t dash = stem.rfind('-');
    if (dash == std::string_view::npos || !all_digits(stem.substr(dash + 1))) return {};
    std::size_t us = stem.rfind(marker, dash);
    if (us == std::string_view::npos || us == 0) return {};
    if (!all_digits(stem.substr(us + marker.size(), dash - us - marker.size()))) return {};
    return stem.substr(0, us);
}

// memcmp, without handing it the null pointer of an empty view.
bool same_bytes(const char* p, std::string_view s) {
    return s.empty() || std::memcmp(p, s.data(), s.size()) == 0;
}

// Digits as a number; false when too long for 64 bits.
bool parse_index(std::string_view digits, std::uint64_t& out) {
    if (digits.empty() || digits.size() > 18) return false;
    out = 0;
    for (char c : digits) out = out * 10 + static_cast<std::uint64_t>(c - '0');
    return true;
}

bool is_ident(std::string_view s) {
    if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

// msProbe's monitor CSV, the first layout or monitor_v2's; either way a tag ends in the op.
SourceId msprobe_source(bool v2) {
    static const SourceId kV1 = source_id({"msprobe-csv", StepAxis::kSteps, true});
    static const SourceId kV2 = source_id({"msprobe-v2-csv", StepAxis::kSteps, true});
    return v2 ? kV2 : kV1;
}

}  // namespace

std::string msprobe_csv_prefix(std::string_view basename, bool v2) {
    if (!basename.ends_with(".csv")) return {};
    std::string_view stem = basename.substr(0, basename.size() - 4);
    std::string_view prefix = strip_range(stem, v2 ? "_step" : "_");
    if (!is_ident(prefix)) return {};
    // "foo_step0-9.csv" is a v2 name; as a v1 name its prefix would end in "_step".
    if (!v2 && strip_range(stem, "_step").size()) return {};
    return std::string(prefix);
}

std::optional<StepRange> msprobe_step_range(std::string_view basename) {
    bool v2 = !msprobe_csv_prefix(basename, true).empty();
    if (!v2 && msprobe_csv_prefix(basename, false).empty()) return std::nullopt;
    // The name is one of msProbe's, so "<prefix><marker><a>-<b>[_part_<k>].csv" holds.
    std::string_view stem = basename.substr(0, basename.size() - 4);
    std::string_view part;
    if (std::size_t at = stem.rfind("_part_");
        at != std::string_view::npos && all_digits(stem.substr(at + 6))) {
        part = stem.substr(at);
        stem = stem.substr(0, at);
    }
    std::string_view marker = v2 ? "_step" : "_";
    std::size_t dash = stem.rfind('-');
    std::size_t us = stem.rfind(marker, dash);
    std::string_view a = stem.substr(us + marker.size(), dash - us - marker.size());
    std::string_view b = stem.substr(dash + 1);
    StepRange out;
    if (!parse_index(a, out.first) || !parse_index(b, out.last)) return std::nullopt;
    out.series = fmt::format("{}{}#{}.csv", stem.substr(0, us), marker, part);
    return out;
}

MsProbeCsvReader::MsProbeCsvReader(SourceFile file, PointSink& sink, MsProbeKeyTables* tables)
    : CsvFileReader(std::move(file), sink),
      tables_(tables),
      v2_(file_.format == SourceFormat::kMsProbeV2Csv),
      source_(msprobe_source(v2_)) {
    prefix_ = msprobe_csv_prefix(base_name(file_.path), v2_);
}

CsvFileReader::Header MsProbeCsvReader::on_header(std::span<const std::string_view> fields,
                                                  std::string& why) {
    if (prefix_.empty()) {
        why = "not an msProbe monitor CSV file name";
        return Header::kRejected;
    }
    vpp_col_ = name_col_ = step_col_ = micro_col_ = scope_col_ = -1;
    op_cols_.clear();
    op_names_.clear();
    for (std::size_t i = 0; i < fields.size(); ++i) {
        std::string_view f = fields[i];
        int col = static_cast<int>(i);
        if (f == "vpp_stage")
            vpp_col_ = col;
        else if (f == "name" || f == "module_name")
            name_col_ = col;
        else if (f == "step")
            step_col_ = col;
        else if (f == "micro_step")
            micro_col_ = col;
        else if (f == "scope")
            scope_col_ = col;
        else if (f == "shape" || f == "dtype")
            continue;  // text, not a statistic
        else {
            op_cols_.push_back(col);
            op_names_.emplace_back(f);
        }
    }
    if (name_col_ < 0 || step_col_ < 0) {
        why = "header has no name and step columns, not an msProbe monitor CSV";
        return Header::kRejected;
    }
    // A header written again (after dynamic_on re-enabled collection) may name other ops.
    on_restart();
    return Header::kAccepted;
}

struct MsProbeKeyTables::KeyTable {
    std::deque<MsProbeCsvReader::RowKey> keys;
    std::unordered_map<std::string_view, MsProbeCsvReader::RowKey*> index;
    std::uint64_t bytes = 0;  // what its rows hold, estimated as they are added
};

std::uint64_t MsProbeKeyTables::bytes() const {
    // A table's name (about 64 bytes) and its map node; then what its rows hold.
    std::uint64_t n = tables_.size() * 112;
    for (const std::shared_ptr<KeyTable>& t : kept_) n += sizeof(KeyTable) + t->bytes;
    return n;
}

MsProbeKeyTables::MsProbeKeyTables(std::size_t keep) : keep_(keep) {}
MsProbeKeyTables::~MsProbeKeyTables() = default;

std::shared_ptr<MsProbeKeyTables::KeyTable> MsProbeKeyTables::table(const std::string& name) {
    std::weak_ptr<KeyTable>& known = tables_[name];
    std::shared_ptr<KeyTable> t = known.lock();
    const bool fresh = !t;
    if (fresh) {
        t = std::make_shared<KeyTable>();
        known = t;
    }
    if (keep_ == 0) {
        if (fresh) kept_.push_back(t);
        return t;
    }
    // The last joined at the back: a short list, searched when a file starts or reads on.
    if (auto it = std::find(kept_.begin(), kept_.end(), t); it != kept_.end()) kept_.erase(it);
    kept_.push_back(t);
    if (kept_.size() > keep_) kept_.pop_front();
    return t;
}

void MsProbeCsvReader::join_table() {
    if (!tables_) {
        table_ = std::make_shared<KeyTable>();
        return;
    }
    // Rows of different layouts or op columns are different series: a table each.
    std::string name =
        fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}{}", static_cast<int>(v2_), file_.rank, file_.run,
                    prefix_, micro_col_ >= 0 ? 'm' : '-', scope_col_ >= 0 ? 's' : '-');
    for (const std::string& op : op_names_) name.append("\x1f").append(op);
    table_ = tables_->table(name);
}

void MsProbeCsvReader::on_restart() {
    table_.reset();
    last_ = nullptr;
}

void MsProbeCsvReader::let_go_of_shared() {
    // Joined again by name when rows come (new_row_key); a table of its own is kept.
    if (tables_) on_restart();
}

MsProbeCsvReader::RowKey& MsProbeCsvReader::new_row_key(std::string_view vpp, std::string_view name,
                                                        std::string_view micro,
                                                        std::string_view scope) {
    if (!table_) join_table();
    if (auto it = table_->index.find(scratch_); it != table_->index.end()) return *it->second;
    RowKey& k = table_->keys.emplace_back();
    k.key = scratch_;
    k.vpp_len = static_cast<std::uint32_t>(vpp.size());
    k.name_len = static_cast<std::uint32_t>(name.size());
    k.micro_len = static_cast<std::uint32_t>(micro.size());
    // The series name: [<slug>/<scope>/ | <prefix>/][<vpp>:]<name>[:<micro>]/<op>
    std::string base = prefix_ + "/";
    if (v2_ && scope_col_ >= 0) base.append(scope).push_back('/');
    if (!vpp.empty() && vpp != "0" && vpp != "-1") base.append(vpp).push_back(':');
    base.append(name);
    if (micro_col_ >= 0 && !micro.empty()) base.append(":").append(micro);
    base.push_back('/');
    k.ids.reserve(op_names_.size());
    SeriesKey series{file_.run, file_.rank, base};
    for (const std::string& op : op_names_) {
        series.tag.resize(base.size());  // reuses the tag's buffer for every op
        series.tag += op;
        k.ids.push_back(sink_.series(series, source_));
        k.any_kept |= k.ids.back() != kSkippedSeries;
    }
    table_->index.emplace(k.key, &k);
    // The row, its key and ids on the heap (short keys are inline), its index node and bucket.
    table_->bytes +=
        sizeof(RowKey) + string_heap_bytes(k.key) + k.ids.capacity() * sizeof(SeriesId) + 40;
    return k;
}

MsProbeCsvReader::RowKey& MsProbeCsvReader::row_key(std::span<const std::string_view> fields) {
    auto cell = [&](int col) {
        return col < 0 ? std::string_view() : fields[static_cast<std::size_t>(col)];
    };
    std::string_view vpp = cell(vpp_col_), name = cell(name_col_), micro = cell(micro_col_),
                     scope = cell(scope_col_);
    // The predicted row: compared cell by cell where the key keeps them.
    if (last_ && last_->next) {
        const RowKey& k = *last_->next;
        const char* p = k.key.data();
        if (k.vpp_len == vpp.size() && k.name_len == name.size() && k.micro_len == micro.size() &&
            k.key.size() == vpp.size() + name.size() + micro.size() + scope.size() + 3 &&
            same_bytes(p + k.vpp_len + 1, name) && same_bytes(p, vpp) &&
            same_bytes(p + k.vpp_len + k.name_len + 2, micro) &&
            same_bytes(p + k.vpp_len + k.name_len + k.micro_len + 3, scope))
            return *(last_ = last_->next);
    }
    scratch_.clear();
    scratch_.append(vpp).push_back('\x1f');
    scratch_.append(name).push_back('\x1f');
    scratch_.append(micro).push_back('\x1f');
    scratch_.append(scope);
    RowKey& found = new_row_key(vpp, name, micro, scope);
    if (last_) last_->next = &found;
    last_ = &found;
    return found;
}

void MsProbeCsvReader::on_row(std::span<const std::string_view> fields) {
    if (fields.size() != header().size()) {
        // PyTorch comm-op rows in other_*.csv are one column short (FORMATS.md §1.3), and a
        // dynamic re-configuration can append rows of another width under the old header.
        bad_row(fmt::format("{} fields where the header has {}", fields.size(), header().size()));
        return;
    }
    std::int64_t step;
    if (!parse_step(fields[static_cast<std::size_t>(step_col_)], step)) {
        bad_row("step is not an integer");
        return;
    }
    // The row is checked as far as any row is (width, step) before its key says whether the
    // sink keeps anything of it: the bad-row counts do not depend on the filter.
    RowKey& key = row_key(fields);
    if (!key.any_kept) return;
    const double wall = wall_time();
    for (std::size_t i = 0; i < op_cols_.size(); ++i) {
        if (key.ids[i] == kSkippedSeries) continue;
        std::string_view cell = fields[static_cast<std::size_t>(op_cols_[i])];
        double v;
        if (cell.empty() || !parse_value(cell, v)) continue;  // "id" of a non-scalar is empty
        sink_.append(key.ids[i], Point{step, wall, v});
        ++values_;
    }
}

}  // namespace runtop
