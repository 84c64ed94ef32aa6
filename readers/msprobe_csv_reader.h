// msProbe monitor CSVs (FORMATS.md §1.2, §1.3, §1.8): one row per (module or parameter,
// step[, micro step]), one column per statistic ("op"). Every numeric op column becomes a
// series; `shape` and `dtype` are text and skipped. Columns are found by name, so headers
// with or without micro_step, with or without shape/dtype, in any order, all read alike.
//
// Tags (DESIGN.md §2):
//   monitor      `<prefix>_<a>-<b>.csv`      -> <prefix>/[<vpp>:]<name>[:<micro>]/<op>
//   monitor_v2   `<slug>_step<a>-<b>.csv`    -> <slug>/<scope>/[<vpp>:]<module>[:<micro>]/<op>
// with the vpp prefix only for a vpp_stage other than 0 (and -1, "unknown", in v2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "readers/csv_file_reader.h"
#include "readers/step_range.h"

namespace runtop {

// The prefix (or slug) of an msProbe CSV file name, or "" when the name is not one:
// "exp_avg_sq_0-4.csv" -> "exp_avg_sq", "actv_5-9_part_1.csv" -> "actv",
// "module_step0-9.csv" -> "module" (v2 when `v2`).
std::string msprobe_csv_prefix(std::string_view basename, bool v2);

// The step range of an msProbe CSV file name (v1 or v2), or nullopt when the name is not one:
// "grad_10-14.csv" -> {"grad_#.csv", 10, 14}; "actv_5-9_part_1.csv" -> {"actv_#_part_1.csv", 5, 9}.
std::optional<StepRange> msprobe_step_range(std::string_view basename);

// Every row key seen for one (run, rank, prefix, column layout), shared by the readers of one
// SourceSet (one sink): msProbe starts a new file every step_count_per_record steps with the
// same rows as the last one, so the readers of those files share one table instead of each
// asking the sink for every series again. Owned by the ReaderFactory; used from one thread.
class MsProbeKeyTables {
  public:
    // `keep`: how many tables outlive their readers, the most recently joined; 0: every one.
    // A reader pool's thread keeps a few (its files' ranks are near each other in read order):
    // keeping all would hold every rank's rows once more per thread.
    explicit MsProbeKeyTables(std::size_t keep = 0);
    ~MsProbeKeyTables();
    struct KeyTable;  // (defined in the .cpp)
    std::shared_ptr<KeyTable> table(const std::string& name);
    // What the tables it keeps hold (rows, keys, ids, indexes): a reader thread's share of the
    // process' memory that grows with the series (at 2 M msProbe series about 100 MB).
    std::uint64_t bytes() const;

  private:
    std::size_t keep_;
    std::unordered_map<std::string, std::weak_ptr<KeyTable>> tables_;
    std::deque<std::shared_ptr<KeyTable>> kept_;  // every one, or the `keep_` last joined
};

class MsProbeCsvReader final : public CsvFileReader {
  public:
    // Without `tables`, the reader keeps a table of its own.
    MsProbeCsvReader(SourceFile file, PointSink& sink, MsProbeKeyTables* tables = nullptr);
    using KeyTable = MsProbeKeyTables::KeyTable;
    void let_go_of_shared() override;

    // A row's identity: its vpp, name, micro step and scope cells, joined by '\x1f' (the
    // lengths kept to compare a row's cells in place), and the series of its op columns.
    struct RowKey {
        std::string key;
        std::uint32_t vpp_len = 0, name_len = 0, micro_len = 0;
        std::vector<SeriesId> ids;  // one per op column; kSkippedSeries when filtered out
        bool any_kept = false;      // else the row's values are not even parsed
        RowKey* next = nullptr;     // the row that followed it last time
    };

  private:
    Header on_header(std::span<const std::string_view> fields, std::string& why) override;
    void on_row(std::span<const std::string_view> fields) override;
    void on_restart() override;
    // Rows map to series by the header and the shared key table alone.
    bool resumes_from_header() const override { return true; }

    RowKey& row_key(std::span<const std::string_view> fields);
    RowKey& new_row_key(std::string_view vpp, std::string_view name, std::string_view micro,
                        std::string_view scope);
    void join_table();

    MsProbeKeyTables* tables_;
    bool v2_;
    std::string prefix_;
    SourceId source_;
    int vpp_col_ = -1, name_col_ = -1, step_col_ = -1, micro_col_ = -1, scope_col_ = -1;
    std::vector<int> op_cols_;
    std::vector<std::string> op_names_;

    // Rows come in the same order every step (hook registration order): predicting the next
    // row's key from the previous one makes most lookups a compare of the cells in place.
    std::shared_ptr<KeyTable> table_;
    RowKey* last_ = nullptr;
    std::string scratch_;
};

}  // namespace runtop
