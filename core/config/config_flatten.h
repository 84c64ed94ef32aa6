// One piece of configuration text a run carries (core/point_sink.h ConfigText: a TensorBoard
// text summary, an hparams.yaml entry, a deepspeed_config.csv row...) as key → value items, so
// two runs' configurations can be compared key by key (core/config/config_diff.h).
//
// The key starts from the tag, without the "/text_summary" suffix TensorBoard's add_text
// appends (`config/text_summary` → `config`, MindSpore's `lr/text_summary` → `lr`). Then the
// first rule that fits the text decides:
//   1. a JSON object (HF's `args/text_summary`, configs dumped with json.dumps): one item per
//      leaf, `<tag>/<member>.<nested member>`; strings decoded, numbers as written (Python's
//      NaN and Infinity included), arrays as compact JSON ("[0.9, 0.999]"), an empty object
//      as "{}";
//   2. a markdown table of two columns (header row, `|-|-|` separator, rows: the TensorBoard
//      text plugin convention for hyperparameters): one item per row, `<tag>/<first cell>`;
//   3. `key=value` pairs, separated by spaces, commas or line breaks, two or more ("lr=0.003
//      batch=6 seed=1", "--lr=0.003 --seed=1"), or one or more inside a Python repr
//      ("Namespace(lr=0.003, seed=1)"): one item per pair, `<tag>/<key>`, a quoted value
//      unquoted. Quotes and brackets keep a value whole ("betas=(0.9, 0.999)"); a piece that
//      is not a pair ("lr=0.003 worked") makes it prose;
//   4. two or more `key: value` or `key=value` lines (blank lines and `#` comments aside, no
//      key twice), also as a markdown list ("- lr: 0.1") and with markdown marks around a key
//      or value ("**lr**", "`0.1`"): one item per line, `<tag>/<key>`;
//   5. anything else: one item, the tag, with the whole text.
// A key given twice (in JSON, in a table) keeps its last value, as Python's json does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace runtop {

struct ConfigItem {
    std::string key;
    std::string value;
    bool operator==(const ConfigItem&) const = default;
};

// The tag without a trailing "/text_summary".
std::string_view config_key_of_tag(std::string_view tag);

// The items of one text, in the order the text gives them.
std::vector<ConfigItem> flatten_config_text(std::string_view tag, std::string_view text);

}  // namespace runtop
