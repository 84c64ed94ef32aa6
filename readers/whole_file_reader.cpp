#include "readers/whole_file_reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/format.h"
#include "core/json/json_value.h"
#include "readers/pread_full.h"

namespace runtop {
namespace {

// One buffer per thread for every whole-file reader (files are read one after the other);
// parse() gets a view of it and copies what it keeps.
std::string& scratch() {
    thread_local std::string buffer;
    return buffer;
}
constexpr std::size_t kKeptScratch = std::size_t{4} << 20;

}  // namespace

ParseOutcome ParseOutcome::from(const JsonError& error) {
    return error.incomplete() ? incomplete(error.describe()) : invalid(error.describe());
}

WholeFileReader::WholeFileReader(SourceFile file, PointSink& sink)
    : file_(std::move(file)), sink_(sink) {}

std::int64_t WholeFileReader::steady_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

std::vector<std::string> WholeFileReader::take_warnings() {
    std::vector<std::string> out;
    out.swap(warnings_);
    return out;
}

void WholeFileReader::warn(std::string line) {
    warnings_.push_back(visible(line));
}

void WholeFileReader::send_texts(std::vector<ConfigText> texts) {
    std::vector<bool> superseded(texts.size());
    {
        std::map<std::pair<int, std::string_view>, std::size_t> last;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            auto [it, inserted] = last.try_emplace({texts[i].rank, texts[i].tag}, i);
            if (!inserted) {
                superseded[it->second] = true;
                it->second = i;
            }
        }
    }
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (superseded[i]) continue;
        ConfigText& t = texts[i];
        auto [it, inserted] = sent_texts_.try_emplace({t.rank, t.tag});
        if (!inserted && it->second == t.text) continue;
        it->second = t.text;
        sink_.config_text(std::move(t));
        ++texts_;
    }
}

void WholeFileReader::add_totals(IngestTotals& t) const {
    t.bytes += bytes_;
    t.records += records_;
    t.scalars += scalars_;
    t.texts += texts_;
    t.anomalies += anomalies_;
}

Status WholeFileReader::poll() {
    struct stat st;
    if (::stat(file_.path.c_str(), &st) != 0) {
        int err = errno;
        if (err == ENOENT && seen_) {  // deleted (msProbe restarts, save_total_limit): keep
            pending_ = "file was removed";
            return ok_status();
        }
        return Error{file_.path + ": " + std::strerror(err)};
    }
    if (!S_ISREG(st.st_mode)) return Error{file_.path + ": not a regular file"};
    seen_ = true;
    const Signature sig{st.st_dev, st.st_ino, static_cast<std::uint64_t>(st.st_size),
                        st.st_mtim.tv_sec * std::int64_t{1000000000} + st.st_mtim.tv_nsec};
    if (have_parsed_ && sig == parsed_) {
        pending_.clear();
        return ok_status();
    }
    if (failing_ && sig == failed_) {
        // The same content failed before: wait for a change, or for it to settle.
        if (failure_settled_ || now() - failed_since_ms_ < kSettleMs) return ok_status();
        return read_and_parse(true);
    }
    return read_and_parse(false);
}

Status WholeFileReader::read_and_parse(bool settled) {
    int fd = ::open(file_.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int err = errno;
        if (err == ENOENT) {  // removed between stat and open
            pending_ = "file was removed";
            return ok_status();
        }
        return Error{file_.path + ": cannot open: " + std::strerror(err)};
    }
    // The signature of what is actually read: the file may have been replaced since stat().
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        return Error{file_.path + ": " + std::strerror(err)};
    }
    const Signature sig{st.st_dev, st.st_ino, static_cast<std::uint64_t>(st.st_size),
                        st.st_mtim.tv_sec * std::int64_t{1000000000} + st.st_mtim.tv_nsec};
    if (sig.size > kMaxBytes) {
        ::close(fd);
        pending_ = fmt::format("file is larger than {} MiB", kMaxBytes >> 20);
        return Error{
            fmt::format("{}: {} bytes, more than the {} MiB read from a file that is "
                        "rewritten whole; not read",
                        file_.path, sig.size, kMaxBytes >> 20)};
    }
    std::string& buf = scratch();
    buf.resize(sig.size);
    ssize_t n = pread_full(fd, buf.data(), buf.size(), 0);
    ::close(fd);
    if (n < 0) return Error{file_.path + ": read failed: " + std::strerror(static_cast<int>(-n))};
    // Fewer bytes than fstat said: the writer truncated it meanwhile; parse() sees what is there.
    const std::string_view text(buf.data(), static_cast<std::size_t>(n));

    mtime_ = static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9;
    ParseOutcome outcome =
        text.empty() && !settled ? ParseOutcome::incomplete("file is empty") : parse(text, settled);
    if (buf.size() > kKeptScratch) {  // do not keep a big file's buffer around
        buf.clear();
        buf.shrink_to_fit();
    }

    if (outcome.done()) {
        have_parsed_ = true;
        parsed_ = sig;
        parsed_id_ = FileId{sig.dev, sig.ino};
        failing_ = false;
        pending_.clear();
        bytes_ = text.size();
        ++parses_;
        return ok_status();
    }
    if (!failing_ || !(sig == failed_)) {
        failing_ = true;
        failed_ = sig;
        failed_since_ms_ = now();
        failure_settled_ = false;
    }
    pending_ = outcome.reason;
    if (settled) {
        failure_settled_ = true;
        warn(fmt::format("{}: {} (unchanged for {} s; read again when it changes)", file_.path,
                         outcome.reason, kSettleMs / 1000));
    }
    return ok_status();
}

}  // namespace runtop
