#include "readers/trainer_state_lookup.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/json/json_value.h"
#include "readers/number_text.h"

namespace runtop {
namespace {

namespace fs = std::filesystem;

// trainer_state.json holds the whole log history: a long run's is megabytes, never this.
constexpr std::uintmax_t kMaxStateBytes = std::uintmax_t{256} << 20;

std::int64_t value_in(const fs::path& file, std::string_view key) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(file, ec);
    if (ec || size > kMaxStateBytes) return 0;
    std::ifstream in(file, std::ios::binary);
    if (!in) return 0;
    std::ostringstream text;
    text << in.rdbuf();
    const std::string json = text.str();
    const JsonParse parsed = parse_json(json);
    if (!parsed) return 0;
    std::int64_t v = 0;
    const JsonValue root = parsed.document().root();
    if (!root.is_object() || !root.get(key).integer(v) || v <= 0) return 0;
    return v;
}

// `dir`/trainer_state.json, else the one in its checkpoint-<N>/ with the largest N.
std::int64_t value_under(const fs::path& dir, std::string_view key) {
    std::error_code ec;
    if (fs::is_regular_file(dir / "trainer_state.json", ec))
        if (const std::int64_t v = value_in(dir / "trainer_state.json", key)) return v;
    std::int64_t newest = -1;
    fs::path newest_dir;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::int64_t n = 0;
        if (name.starts_with("checkpoint-") && parse_step(std::string_view(name).substr(11), n) &&
            n > newest && fs::is_regular_file(it->path() / "trainer_state.json", ec)) {
            newest = n;
            newest_dir = it->path();
        }
    }
    return newest >= 0 ? value_in(newest_dir / "trainer_state.json", key) : 0;
}

}  // namespace

std::int64_t trainer_state_integer(const std::string& log_path, std::string_view key) {
    const fs::path dir = fs::path(log_path).parent_path();
    if (const std::int64_t v = value_under(dir.empty() ? fs::path(".") : dir, key)) return v;
    if (dir.has_parent_path() && dir.parent_path() != dir)
        return value_under(dir.parent_path(), key);
    return 0;
}

}  // namespace runtop
