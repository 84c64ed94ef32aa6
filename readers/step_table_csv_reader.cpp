#include "readers/step_table_csv_reader.h"

#include <fmt/format.h>

#include "core/format.h"
#include "core/identity.h"
#include "readers/number_text.h"
#include "readers/samples_axis.h"

namespace runtop {
namespace {

std::uint64_t hash_bytes(std::string_view s, std::uint64_t seed) {
    std::uint64_t h = seed ^ 0xcbf29ce484222325ULL;  // FNV-1a, then a final mix
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

// DeepSpeed writes str() of what it was given; user code that logs a tensor gets
// "tensor(2.5, device='cuda:0')". The number inside is the value.
bool parse_cell(std::string_view cell, double& v) {
    if (parse_value(cell, v)) return true;
    if (cell.starts_with("tensor(")) {
        cell.remove_prefix(7);
        std::size_t end = cell.find_first_of(",)");
        return end != std::string_view::npos && parse_value(cell.substr(0, end), v);
    }
    return false;
}

// DeepSpeed's csv_monitor writes samples consumed as its `step`; Lightning's CSVLogger (and any
// CSV with a `step` column) writes the step, unless the column's tag says it counts samples.
SourceId step_table_source(SourceFormat format, std::string_view tag) {
    static const SourceId kDeepSpeed = source_id({"deepspeed-csv", StepAxis::kSamples});
    static const SourcesByTagAxis kLightning("lightning-csv");
    return format == SourceFormat::kDeepSpeedCsv ? kDeepSpeed : kLightning.of(tag);
}

}  // namespace

std::string deepspeed_tag_of_file(std::string_view basename) {
    std::string_view stem =
        basename.substr(0, basename.size() - (basename.ends_with(".csv") ? 4 : 0));
    for (std::string_view group : {"Train_Samples_", "Train_Eigenvalues_"}) {
        if (stem.starts_with(group) && stem.size() > group.size()) {
            std::string tag(group);
            tag[5] = '/';
            tag.back() = '/';
            return tag + std::string(stem.substr(group.size()));
        }
    }
    return std::string(stem);
}

StepTableCsvReader::StepTableCsvReader(SourceFile file, PointSink& sink)
    : CsvFileReader(std::move(file), sink) {
    if (file_.format == SourceFormat::kDeepSpeedCsv)
        file_tag_ = deepspeed_tag_of_file(base_name(file_.path));
}

bool StepTableCsvReader::is_header_again(std::span<const std::string_view> fields) const {
    if (step_col_ < 0 || fields.size() <= static_cast<std::size_t>(step_col_)) return false;
    return fields[static_cast<std::size_t>(step_col_)] == "step";
}

CsvFileReader::Header StepTableCsvReader::on_header(std::span<const std::string_view> fields,
                                                    std::string& why) {
    int step_col = -1;
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (fields[i] == "step") step_col = static_cast<int>(i);
    if (step_col < 0) {
        why = "header has no step column";
        return file_.format == SourceFormat::kPlainCsv ? Header::kNotOurs : Header::kRejected;
    }
    step_col_ = step_col;
    col_ids_.assign(fields.size(), 0);
    col_hash_.assign(fields.size(), 0);
    const bool named_by_file = !file_tag_.empty() && fields.size() == 2;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (static_cast<int>(i) == step_col_) continue;
        std::string tag = named_by_file ? file_tag_ : std::string(fields[i]);
        col_ids_[i] = sink_.series(SeriesKey{file_.run, file_.rank, tag},
                                   step_table_source(file_.format, tag));
        col_hash_[i] = hash_bytes(tag, 0x9e3779b97f4a7c15ULL);
    }
    return Header::kAccepted;
}

void StepTableCsvReader::on_row(std::span<const std::string_view> fields) {
    const std::size_t width = col_ids_.size();
    if (fields.size() != width) {
        bad_row(fmt::format("{} fields where the header has {}", fields.size(), width));
        return;
    }
    std::int64_t step;
    if (!parse_step(fields[static_cast<std::size_t>(step_col_)], step)) {
        bad_row("step is not an integer");
        return;
    }
    // The row's meaning, independent of column order: a rewrite may insert columns.
    std::uint64_t signature = hash_bytes(fields[static_cast<std::size_t>(step_col_)], 1);
    for (std::size_t i = 0; i < width; ++i)
        if (static_cast<int>(i) != step_col_ && !fields[i].empty())
            signature += hash_bytes(fields[i], col_hash_[i]);
    if (replay_ != SIZE_MAX) {
        if (replay_ < delivered_.size() && delivered_[replay_] == signature) {
            ++replay_;  // delivered before the rewrite
            return;
        }
        delivered_.resize(replay_);  // the rewrite diverges here: deliver from now on
        replay_ = SIZE_MAX;
    }
    delivered_.push_back(signature);
    const double wall = wall_time();
    for (std::size_t i = 0; i < width; ++i) {
        if (static_cast<int>(i) == step_col_ || fields[i].empty()) continue;
        if (col_ids_[i] == kSkippedSeries) continue;  // filtered out at ingest: not parsed
        double v;
        if (!parse_cell(fields[i], v)) {
            if (++bad_cells_ == 1)
                warn(
                    visible(fmt::format("{}: \"{}\" in column \"{}\" is not a number; such "
                                        "cells are skipped",
                                        file_.path, fields[i], header()[i])));
            continue;
        }
        sink_.append(col_ids_[i], Point{step, wall, v});
        ++values_;
    }
}

CsvFileReader::Header KeyValueCsvReader::on_header(std::span<const std::string_view> fields,
                                                   std::string&) {
    if (!(fields.size() == 2 && fields[0] == "key" && fields[1] == "value")) on_row(fields);
    return Header::kAccepted;
}

void KeyValueCsvReader::on_row(std::span<const std::string_view> fields) {
    if (fields.size() < 2) {
        bad_row("not a key,value row");
        return;
    }
    std::string value(fields[1]);
    for (std::size_t i = 2; i < fields.size(); ++i) value.append(",").append(fields[i]);
    sink_.config_text(
        ConfigText{file_.run, file_.rank, std::string(fields[0]), 0, std::move(value)});
}

}  // namespace runtop
