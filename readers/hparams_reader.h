// Lightning's hparams.yaml (beside metrics.csv in version_<N>/): the module's hyperparameters,
// written by PyYAML (yaml.dump, block style). Each becomes a config text `hparams/<key>`.
//
// No YAML library: the subset PyYAML writes for hyperparameters is read by hand.
//   key: value              plain, 'single' or "double" quoted (quotes and escapes removed);
//                           flow values ("[1, 2]", "{}") kept as written; "# comments" dropped
//   key:                    nesting by indentation, flattened to dotted keys: optimizer.lr
//     child: value
//   key:                    a list of scalars, joined into the value: "[a, b]"
//   - a
//   - b
//   key: |  (or >)          block scalars, lines joined with "\n" (or " ")
//   long plain or quoted    continuation lines joined with " "
//   {}  ---  ...            an empty document, document markers
// A line it cannot read (a list of mappings, a nested list, a line that is not `key: value`,
// tabs in the indentation) is skipped with the lines below it; ONE warning names the first,
// and everything else is kept.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "readers/whole_file_reader.h"

namespace runtop {

struct HparamsYaml {
    struct Entry {
        std::string key;  // dotted
        std::string value;
    };
    std::vector<Entry> entries;  // in file order
    struct Problem {
        std::size_t line;  // 1-based
        std::string reason;
    };
    std::vector<Problem> problems;
};
HparamsYaml parse_hparams_yaml(std::string_view text);

class HparamsReader final : public WholeFileReader {
  public:
    HparamsReader(SourceFile file, PointSink& sink);

  private:
    ParseOutcome parse(std::string_view text, bool settled) override;
};

}  // namespace runtop
