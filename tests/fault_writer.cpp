#include "tests/fault_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "core/series_key.h"
#include "readers/crc32c.h"
#include "writers/event_writer.h"
#include "writers/file_output.h"
#include "writers/msprobe_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop::testing {
namespace {

// Event times: fixed, so two runs of a seed write the same bytes (the file names carry the
// host and pid, as PyTorch's do).
constexpr double kWallBase = 1'700'000'000;
constexpr const char* kEventTags[] = {"loss", "grad_norm"};
constexpr const char* kCsvHeader = "step,train_loss,val_loss\n";
constexpr const char* kMsProbeNames[] = {"fc1.weight", "fc2.weight"};

[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("fault writer: " + what + ": " + std::strerror(errno));
}

void append_number(std::string& out, double v) {
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, end);
}

void pause_ms(int ms) {
    if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

}  // namespace

FaultWriter::FaultWriter(std::string root, std::string outside, std::uint64_t seed)
    : root_(std::move(root)), outside_(std::move(outside)), rng_(seed) {
    if (!runtop::make_dirs(root_) || !runtop::make_dirs(outside_)) fail("cannot create " + root_);
}

FaultWriter::~FaultWriter() {
    for (Stream& st : streams_)
        if (st.fd >= 0) ::close(st.fd);
}

double FaultWriter::next_value() {
    // Past 2^24 halves a float32 no longer holds every one: values would collide.
    if (++serial_ >= (std::uint64_t{1} << 24))
        throw std::runtime_error("fault writer: more than 2^24 values; shorten the run");
    return static_cast<double>(serial_) / 2;
}

void FaultWriter::set_split(double probability, int max_pause_ms) {
    split_probability_ = probability;
    max_pause_ms_ = max_pause_ms;
}

int FaultWriter::random(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
}

FaultWriter::Stream& FaultWriter::stream(int s) {
    return streams_.at(static_cast<std::size_t>(s));
}

std::string FaultWriter::path_of(int s) const {
    return streams_.at(static_cast<std::size_t>(s)).path();
}

FaultWriter::Stream FaultWriter::new_stream(Kind kind, const std::string& rel_dir, std::string run,
                                            int rank) const {
    Stream st;
    st.kind = kind;
    st.dir = rel_dir.empty() ? root_ : root_ + "/" + rel_dir;
    st.run = std::move(run);
    st.rank = rank;
    return st;
}

int FaultWriter::add_event_stream(const std::string& rel_dir, std::string run, int rank,
                                  std::string tag_prefix) {
    Stream st = new_stream(Kind::kEvents, rel_dir, std::move(run), rank);
    st.tag_prefix = std::move(tag_prefix);
    st.name = events::event_file_name(kWallBase, 0);
    streams_.push_back(std::move(st));
    open_new_file(streams_.back());
    return static_cast<int>(streams_.size() - 1);
}

int FaultWriter::add_csv_stream(const std::string& rel_dir, std::string run) {
    Stream st = new_stream(Kind::kCsv, rel_dir, std::move(run), kNoRank);
    st.name = "metrics.csv";
    streams_.push_back(std::move(st));
    open_new_file(streams_.back());
    return static_cast<int>(streams_.size() - 1);
}

int FaultWriter::add_msprobe_stream(const std::string& rel_dir, std::string run, int rank) {
    Stream st = new_stream(Kind::kMsProbe, rel_dir, std::move(run), rank);
    if (!runtop::make_dirs(st.dir)) fail("cannot create " + st.dir);
    streams_.push_back(std::move(st));
    return static_cast<int>(streams_.size() - 1);
}

std::string FaultWriter::header_bytes(const Stream& st) const {
    return st.kind == Kind::kEvents ? frame_record(events::file_version(kWallBase)) : kCsvHeader;
}

std::string FaultWriter::records(Stream& st, int n, std::vector<LedgerPoint>& points) {
    std::string out;
    for (int i = 0; i < n; ++i) {
        const std::int64_t step = st.next_step;
        if (st.kind == Kind::kEvents) {
            const std::string tag = st.tag_prefix + kEventTags[st.records % 2];
            const double v = next_value();
            out += frame_record(
                events::simple_scalar(tag, static_cast<float>(v), step, kWallBase + step));
            points.push_back({st.run, st.rank, tag, step, v});
            if (st.records % 2 == 1) ++st.next_step;
        } else {  // kCsv
            out += std::to_string(step);
            out += ',';
            const double loss = next_value();
            append_number(out, loss);
            points.push_back({st.run, st.rank, "train_loss", step, loss});
            out += ',';
            if (step % 3 == 0) {  // sparse, as Lightning logs validation less often
                const double val = next_value();
                append_number(out, val);
                points.push_back({st.run, st.rank, "val_loss", step, val});
            }
            out += '\n';
            ++st.next_step;
        }
        ++st.records;
    }
    return out;
}

void FaultWriter::open_new_file(Stream& st) {
    if (st.dir_deleted) {
        st.dir_deleted = false;
        if (st.kind == Kind::kEvents) st.name = events::event_file_name(kWallBase, ++st.file_index);
    }
    if (!runtop::make_dirs(st.dir)) fail("cannot create " + st.dir);
    const std::string path = st.path();
    st.fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (st.fd < 0) fail("cannot create " + path);
    on_disk_[path];
    write_or_throw(st, header_bytes(st));
}

void FaultWriter::ensure_open(Stream& st) {
    if (st.fd < 0) open_new_file(st);
}

void FaultWriter::write_or_throw(Stream& st, std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(st.fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("cannot write " + st.path());
        done += static_cast<std::size_t>(n);
    }
}

void FaultWriter::made_durable(const std::string& path, std::vector<LedgerPoint>& points) {
    std::vector<std::size_t>& held = on_disk_[path];
    for (LedgerPoint& p : points) {
        held.push_back(ledger_.size());
        ledger_.push_back(std::move(p));
    }
    points.clear();
}

void FaultWriter::complete(Stream& st) {
    if (!st.half) return;
    write_or_throw(st, st.half->bytes);
    made_durable(st.path(), st.half->points);
    st.half.reset();
}

bool FaultWriter::half_pending(int s) const {
    return streams_.at(static_cast<std::size_t>(s)).half.has_value();
}

void FaultWriter::tick() {
    call(hooks_.tick);
    const auto now = std::chrono::steady_clock::now();
    for (Stream& st : streams_)
        if (st.half && st.half->due <= now) complete(st);
}

void FaultWriter::complete_all() {
    for (Stream& st : streams_) complete(st);
}

void FaultWriter::write_msprobe_step(Stream& st) {
    msprobe::MonitorCsvWriter writer(st.dir, {"norm"}, 1);
    const std::int64_t step = st.next_step++;
    std::vector<msprobe::Row> rows;
    std::vector<LedgerPoint> points;
    for (const char* name : kMsProbeNames) {
        const double v = next_value();
        rows.push_back(msprobe::Row{0, name, -1, {v}, "[4, 8]"});
        points.push_back({st.run, st.rank, std::string("grad_reduced/") + name + "/norm", step, v});
    }
    if (Status written = writer.write_step("grad_reduced", false, step, rows); !written)
        throw std::runtime_error("fault writer: " + written.error().message);
    made_durable(writer.path_for("grad_reduced", step), points);
}

void FaultWriter::append(int s, int n) {
    Stream& st = stream(s);
    if (st.kind == Kind::kMsProbe) {
        for (int i = 0; i < n; ++i) write_msprobe_step(st);
        return;
    }
    complete(st);
    ensure_open(st);
    for (int i = 0; i < n; ++i) {
        std::vector<LedgerPoint> points;
        write_or_throw(st, records(st, 1, points));
        made_durable(st.path(), points);
    }
}

void FaultWriter::append_block(int s, int n) {
    Stream& st = stream(s);
    complete(st);
    ensure_open(st);
    std::vector<LedgerPoint> points;
    write_or_throw(st, records(st, n, points));
    made_durable(st.path(), points);
}

void FaultWriter::append_split(int s) {
    Stream& st = stream(s);
    complete(st);
    ensure_open(st);
    std::vector<LedgerPoint> points;
    std::string bytes = records(st, 1, points);
    if (std::bernoulli_distribution(split_probability_)(rng_)) {
        auto cut = static_cast<std::size_t>(random(1, static_cast<int>(bytes.size()) - 1));
        write_or_throw(st, bytes.substr(0, cut));
        st.half = Half{
            bytes.substr(cut),
            std::chrono::steady_clock::now() + std::chrono::milliseconds(random(0, max_pause_ms_)),
            std::move(points)};
        return;
    }
    write_or_throw(st, bytes);
    made_durable(st.path(), points);
}

void FaultWriter::burst(Stream& st, int n) {
    for (int i = 0; i < n; ++i) {
        std::vector<LedgerPoint> points;
        std::string bytes = records(st, 1, points);
        // The last record is always whole: the rotation follows its write at once.
        if (i + 1 < n && std::bernoulli_distribution(split_probability_)(rng_)) {
            auto cut = static_cast<std::size_t>(random(1, static_cast<int>(bytes.size()) - 1));
            write_or_throw(st, bytes.substr(0, cut));
            pause_ms(random(0, max_pause_ms_));
            write_or_throw(st, bytes.substr(cut));
        } else {
            write_or_throw(st, bytes);
        }
        made_durable(st.path(), points);
    }
}

void FaultWriter::rotate_out(int s, int n) {
    Stream& st = stream(s);
    complete(st);
    ensure_open(st);
    call(hooks_.sync);
    call(hooks_.hold);
    burst(st, n);
    const std::string path = st.path();
    const std::string target = outside_ + "/" + st.name + "." + std::to_string(++outside_count_);
    ::close(st.fd);
    st.fd = -1;
    if (::rename(path.c_str(), target.c_str()) != 0) fail("cannot rename " + path);
    on_disk_.erase(path);
    open_new_file(st);
    call(hooks_.release);
}

void FaultWriter::rotate_in(int s, int n) {
    Stream& st = stream(s);
    complete(st);
    ensure_open(st);
    call(hooks_.sync);
    call(hooks_.hold);
    burst(st, n);
    const std::string path = st.path();
    const std::string target =
        path + ".old" + (st.rotations_in == 0 ? "" : std::to_string(st.rotations_in + 1));
    ++st.rotations_in;
    ::close(st.fd);
    st.fd = -1;
    if (::rename(path.c_str(), target.c_str()) != 0) fail("cannot rename " + path);
    on_disk_[target] = std::move(on_disk_[path]);
    on_disk_.erase(path);
    open_new_file(st);
    call(hooks_.release);
}

void FaultWriter::truncate_rewrite(int s) {
    Stream& st = stream(s);
    complete(st);
    ensure_open(st);
    call(hooks_.sync);
    struct stat before;
    if (::fstat(st.fd, &before) != 0) fail("cannot stat " + st.path());
    std::vector<LedgerPoint> points;
    std::string content = header_bytes(st);
    do {
        content += records(st, 1, points);
    } while (content.size() <= static_cast<std::size_t>(before.st_size));
    // Truncate and rewrite while runtop is held: a reader that only compares sizes sees a file
    // that grew, and the offset it kept now points into the middle of new records.
    call(hooks_.hold);
    if (::ftruncate(st.fd, 0) != 0) fail("cannot truncate " + st.path());
    on_disk_[st.path()].clear();
    write_or_throw(st, content);
    made_durable(st.path(), points);
    call(hooks_.release);
}

void FaultWriter::truncate_pause_rewrite(int s, int pause) {
    Stream& st = stream(s);
    complete(st);
    ensure_open(st);
    call(hooks_.sync);
    if (::ftruncate(st.fd, 0) != 0) fail("cannot truncate " + st.path());
    on_disk_[st.path()].clear();
    pause_ms(pause);
    std::vector<LedgerPoint> points;
    std::string content = header_bytes(st) + records(st, random(1, 12), points);
    write_or_throw(st, content);
    made_durable(st.path(), points);
}

void FaultWriter::delete_dir(int s) {
    const std::string dir = stream(s).dir;
    for (Stream& st : streams_)
        if (st.dir == dir) complete(st);
    call(hooks_.sync);
    for (Stream& st : streams_) {
        if (st.dir != dir) continue;
        if (st.fd >= 0) ::close(st.fd);
        st.fd = -1;
        st.dir_deleted = true;
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (ec) throw std::runtime_error("fault writer: cannot delete " + dir + ": " + ec.message());
    const std::string prefix = dir + "/";
    for (auto it = on_disk_.lower_bound(prefix);
         it != on_disk_.end() && it->first.compare(0, prefix.size(), prefix) == 0;)
        it = on_disk_.erase(it);
}

void FaultWriter::corrupt(int s, Corruption kind) {
    Stream& st = stream(s);
    complete(st);
    ensure_open(st);
    std::string bytes;
    if (st.kind == Kind::kCsv) {
        // Rows runtop must skip: no step, too few fields, a step that is no integer.
        if (kind == Corruption::kGarbage)
            for (int i = random(1, 64); i > 0; --i) bytes += static_cast<char>('a' + random(0, 25));
        else if (kind == Corruption::kBadDataCrc)
            bytes = "1,2";
        else
            bytes = "x" + std::to_string(st.next_step) + ",-1.5,";
        write_or_throw(st, bytes + "\n");
        return;
    }
    if (kind == Corruption::kGarbage) {
        for (int i = random(1, 64); i > 0; --i) bytes += static_cast<char>(random(1, 255));
    } else {
        // A value the ledger never holds: printed, it shows as unexpected.
        const double bad = -next_value();
        bytes = frame_record(events::simple_scalar("loss", static_cast<float>(bad), st.next_step,
                                                   kWallBase + static_cast<double>(st.next_step)));
        if (kind == Corruption::kBadDataCrc)
            bytes[bytes.size() - 6] ^= 0x5a;  // in the payload
        else
            bytes[8] ^= 0x01;  // the length's checksum
    }
    write_or_throw(st, bytes);
}

void FaultWriter::oversized_header(int s, std::uint64_t length) {
    Stream& st = stream(s);
    complete(st);
    ensure_open(st);
    std::string header(12, '\0');
    std::memcpy(header.data(), &length, 8);
    const std::uint32_t crc = masked_crc32c(header.data(), 8);
    std::memcpy(header.data() + 8, &crc, 4);
    write_or_throw(st, header);
}

void FaultWriter::long_line(int s, std::size_t bytes, int pieces, int pause) {
    Stream& st = stream(s);
    complete(st);
    ensure_open(st);
    // One field and no step: no row, whether runtop reads it whole or skips it. Written a MiB
    // at a time from one buffer, so a line of hundreds of MB costs the test no more memory than
    // that (the RSS test forks runtop from this process: its pages count in the child's peak).
    const std::string chunk(std::size_t{1} << 20, 'x');
    const std::size_t piece = bytes / static_cast<std::size_t>(pieces) + 1;
    for (std::size_t at = 0; at < bytes;) {
        if (at > 0) pause_ms(pause);
        for (std::size_t end = std::min(bytes, at + piece); at < end;) {
            const std::size_t n = std::min(chunk.size(), end - at);
            write_or_throw(st, std::string_view(chunk).substr(0, n));
            at += n;
        }
    }
    pause_ms(pause);
    write_or_throw(st, "\n");
}

std::vector<LedgerPoint> FaultWriter::on_disk() const {
    std::vector<LedgerPoint> out;
    for (const auto& [path, held] : on_disk_)
        for (std::size_t i : held) out.push_back(ledger_[i]);
    return out;
}

}  // namespace runtop::testing
