// `runtop formats`: the log formats this process knows (the user's, then the built-in ones),
// and `runtop formats --test FILE`: what each line of a file yields, as the log reader reads it.
#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include <fmt/format.h>

#include "app/commands.h"
#include "app/inputs.h"
#include "core/format.h"
#include "core/series_key.h"
#include "readers/log_file_reader.h"
#include "readers/log_format_catalog.h"
#include "readers/log_line.h"
#include "readers/msprobe_anomaly_reader.h"
#include "readers/trainer_state_lookup.h"

namespace runtop {

const std::vector<OptionSpec> kFormatsOptions = {
    {"test", "FILE",
     "print what each line of FILE yields (format, step, rank, metrics), then a summary; exit 0 "
     "some line matched, 1 none did"},
    kLogFormatOption,
    {"help", "", "show this help"},
};

namespace {

void list(const LogFormatCatalog& catalog) {
    std::size_t width = 4;
    for (const LogFormat& f : catalog.formats) width = std::max(width, f.name().size());
    std::printf("%-*s  %s\n", static_cast<int>(width), "NAME", "DESCRIPTION");
    for (const LogFormat& f : catalog.formats) {
        const bool builtin = f.origin() == kBuiltinLogFormatOrigin;
        std::printf("%-*s  %s%s\n", static_cast<int>(width), visible(f.name()).c_str(),
                    visible(f.description()).c_str(),
                    builtin ? "" : visible(fmt::format(" ({})", f.origin())).c_str());
    }
    const std::string dir = user_log_formats_dir();
    std::printf(
        "\nYour own: one JSON file a format in %s (docs/howto.md, \"A log format of "
        "your own\"); tried before the built-in ones.\n",
        dir.empty() ? "$XDG_CONFIG_HOME/runtop/formats" : visible(dir).c_str());
}

// What the reader makes of each line of `path`, printed line by line.
int test(const LogFormatCatalog& catalog, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "runtop formats: %s: cannot be opened\n", visible(path).c_str());
        return kExitError;
    }
    std::vector<std::uint64_t> ordinals(catalog.formats.size(), 0);
    std::vector<std::int64_t> strides(catalog.formats.size(), 0);
    std::map<std::string, std::uint64_t> by_format;
    std::uint64_t lines = 0, matched = 0, long_lines = 0;
    std::string raw, scratch;
    LogRecord record;
    while (std::getline(in, raw)) {
        ++lines;
        if (raw.size() > LogFileReader::kMaxLineBytes) {
            ++long_lines;
            std::printf("%llu: skipped: longer than %zu MiB\n",
                        static_cast<unsigned long long>(lines), LogFileReader::kMaxLineBytes >> 20);
            continue;
        }
        const LogLine clean = clean_log_line(raw, scratch);
        const int index = match_log_line(catalog.formats, clean.text, ordinals, record);
        if (index < 0) continue;
        const LogFormat& format = catalog.formats[static_cast<std::size_t>(index)];
        ++matched;
        ++by_format[format.name()];
        const int rank = record.rank >= 0 ? record.rank : clean.rank;
        std::string out = fmt::format("{}: {}", lines, format.name());
        if (format.msprobe_anomalies()) {
            ImportedAnomaly a;
            if (anomaly_from_alarm(clean.text, a))
                out += fmt::format(" step {} rank {} anomaly {} {} {}", a.step,
                                   a.rank == kNoRank ? rank : a.rank, a.rule, a.op, a.raw_tag);
            std::printf("%s\n", visible(out).c_str());
            continue;
        }
        std::int64_t step = record.step;
        if (!format.stride_key().empty()) {
            std::int64_t& stride = strides[static_cast<std::size_t>(index)];
            if (stride == 0) {
                stride = trainer_state_integer(path, format.stride_key());
                if (stride <= 0) stride = 1;
            }
            step *= stride;
        }
        out += fmt::format(" step {}", step);
        if (rank >= 0) out += fmt::format(" rank {}", rank);
        for (const auto& [name, value] : record.metrics)
            out += fmt::format(" | {}{}={}", format.prefix(), name, value);
        std::printf("%s\n", visible(out).c_str());
    }
    std::string summary;
    for (const auto& [name, n] : by_format)
        summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", name, n);
    std::printf("%s: %llu lines, %llu matched%s%s%s\n", visible(path).c_str(),
                static_cast<unsigned long long>(lines), static_cast<unsigned long long>(matched),
                summary.empty() ? "" : (" (" + summary + ")").c_str(),
                long_lines ? fmt::format(", {} longer than 1 MiB skipped", long_lines).c_str() : "",
                matched ? "" : "; no format matched: runtop reads nothing from this file");
    return matched ? kExitOk : kExitFound;
}

}  // namespace

int cmd_formats(const Args& args) {
    if (!args.positional.empty()) {
        std::fprintf(stderr, "runtop formats: takes no paths (got '%s'; --test FILE tries one)\n",
                     visible(args.positional.front()).c_str());
        return kExitError;
    }
    if (Status formats = log_formats_from_args(args); !formats) {
        std::fprintf(stderr, "runtop formats: %s\n", visible(formats.error().message).c_str());
        return kExitError;
    }
    for (const std::string& e : take_log_format_errors())
        std::fprintf(stderr, "runtop: %s (the format is left out)\n", visible(e).c_str());
    const LogFormatCatalog& catalog = log_formats();
    if (args.has("test")) return test(catalog, args.get("test"));
    list(catalog);
    return kExitOk;
}

}  // namespace runtop
