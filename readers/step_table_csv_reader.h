// CSVs with a `step` column and one column per metric:
// - DeepSpeed csv_monitor (FORMATS.md §2): `Train_Samples_<name>.csv` holds `step,<name>`,
//   CRLF, the header written again after each restart, step = samples consumed. Tag:
//   `Train/Samples/<name>` (`Train/Eigenvalues/<name>`), else the file's stem.
// - Lightning CSVLogger `metrics.csv` (FORMATS.md §6): sparse columns (empty cells are
//   absent values), tag = column name, the whole file rewritten when a new key appears.
// - any other CSV whose header has a `step` column, read like metrics.csv; one without is
//   not a metrics file and is left alone.
// A rewrite of the file is read again, but rows already delivered are recognised (by their
// non-empty (column, value) cells, whatever the column order) and not delivered twice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "readers/csv_file_reader.h"

namespace runtop {

// DeepSpeed's tag for a csv_monitor file name: "Train_Samples_lr.csv" -> "Train/Samples/lr".
std::string deepspeed_tag_of_file(std::string_view basename);

class StepTableCsvReader final : public CsvFileReader {
  public:
    StepTableCsvReader(SourceFile file, PointSink& sink);

  private:
    Header on_header(std::span<const std::string_view> fields, std::string& why) override;
    bool is_header_again(std::span<const std::string_view> fields) const override;
    void on_row(std::span<const std::string_view> fields) override;
    void on_restart() override { replay_ = 0; }

    std::string file_tag_;  // DeepSpeed: the tag of a two-column file, from its name
    int step_col_ = -1;
    std::vector<SeriesId> col_ids_;         // per column; unused for the step column
    std::vector<std::uint64_t> col_hash_;   // per column: hash of its name
    std::vector<std::uint64_t> delivered_;  // signature of every row delivered, in order
    std::size_t replay_ = SIZE_MAX;         // rows of a rewritten file matched so far
    std::uint64_t bad_cells_ = 0;
};

// DeepSpeed's `deepspeed_config.csv`: `key,value` rows, kept as the run's configuration.
class KeyValueCsvReader final : public CsvFileReader {
  public:
    KeyValueCsvReader(SourceFile file, PointSink& sink) : CsvFileReader(std::move(file), sink) {}

  private:
    Header on_header(std::span<const std::string_view> fields, std::string& why) override;
    bool is_header_again(std::span<const std::string_view>) const override { return false; }
    void on_row(std::span<const std::string_view> fields) override;
};

}  // namespace runtop
