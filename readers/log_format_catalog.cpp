#include "readers/log_format_catalog.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "core/config_home.h"

namespace runtop {
namespace {

// A user's format file larger than this is no format.
constexpr std::uintmax_t kMaxFormatFileBytes = 1 << 20;

Result<std::string> read_small_file(const std::filesystem::path& path) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return Error{fmt::format("{}: {}", path.string(), ec.message())};
    if (size > kMaxFormatFileBytes)
        return Error{
            fmt::format("{}: larger than {} KiB", path.string(), kMaxFormatFileBytes >> 10)};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{fmt::format("{}: cannot be opened", path.string())};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::unique_ptr<LogFormatCatalog>& process_catalog() {
    static std::unique_ptr<LogFormatCatalog> catalog;
    return catalog;
}

}  // namespace

std::string user_log_formats_dir() {
    return user_config_path("formats");
}

LogFormatCatalog load_log_formats(const std::string& dir) {
    LogFormatCatalog catalog;
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    if (!dir.empty()) {
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end;
             it.increment(ec))
            if (it->path().extension() == ".json") files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& path : files) {
        Result<std::string> text = read_small_file(path);
        if (!text) {
            catalog.errors.push_back(text.error().message);
            continue;
        }
        Result<LogFormat> format = LogFormat::parse(*text, path.string());
        if (!format) {
            catalog.errors.push_back(format.error().message);
            continue;
        }
        const auto same = [&](const LogFormat& f) { return f.name() == format->name(); };
        if (std::any_of(catalog.formats.begin(), catalog.formats.end(), same)) {
            catalog.errors.push_back(fmt::format("{}: a format named '{}' is defined twice",
                                                 path.string(), format->name()));
            continue;
        }
        catalog.formats.push_back(std::move(*format));
    }
    for (const LogFormat& builtin : builtin_log_formats()) {
        const auto same = [&](const LogFormat& f) { return f.name() == builtin.name(); };
        if (std::none_of(catalog.formats.begin(), catalog.formats.end(), same))
            catalog.formats.push_back(builtin.copy());
    }
    return catalog;
}

Status force_log_format(LogFormatCatalog& catalog, std::string_view name) {
    for (LogFormat& f : catalog.formats) {
        if (f.name() != name) continue;
        LogFormat chosen = std::move(f);
        catalog.formats.clear();
        catalog.formats.push_back(std::move(chosen));
        catalog.forced = true;
        return ok_status();
    }
    std::string known;
    for (const LogFormat& f : catalog.formats) known += (known.empty() ? "" : ", ") + f.name();
    return Error{
        fmt::format("--log-format: no format named '{}' (known: {}; runtop formats "
                    "lists them)",
                    name, known)};
}

const LogFormatCatalog& log_formats() {
    // Readers are made on several threads: the default is built once, thread-safely, and the
    // process' own is set before any reader.
    if (const std::unique_ptr<LogFormatCatalog>& set = process_catalog()) return *set;
    static const LogFormatCatalog builtin = [] {
        LogFormatCatalog c;
        for (const LogFormat& f : builtin_log_formats()) c.formats.push_back(f.copy());
        return c;
    }();
    return builtin;
}

void set_log_formats(LogFormatCatalog catalog) {
    process_catalog() = std::make_unique<LogFormatCatalog>(std::move(catalog));
}

std::vector<std::string> take_log_format_errors() {
    static std::atomic<bool> taken{false};
    if (taken.exchange(true)) return {};
    return log_formats().errors;
}

}  // namespace runtop
