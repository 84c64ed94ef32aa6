#include "readers/source_set.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <utility>

#include "readers/discovery.h"
#include "readers/file_kinds.h"
#include "readers/log_format_catalog.h"

namespace runtop {

namespace {

void add_up(IngestTotals& t, const IngestTotals& more) {
    t.files += more.files;
    t.bytes += more.bytes;
    t.records += more.records;
    t.scalars += more.scalars;
    t.texts += more.texts;
    t.distributions += more.distributions;
    t.non_scalar_values += more.non_scalar_values;
    t.bad_data_crc += more.bad_data_crc;
    t.resyncs += more.resyncs;
    t.bytes_skipped += more.bytes_skipped;
    t.undecodable += more.undecodable;
    t.bad_rows += more.bad_rows;
    t.anomalies += more.anomalies;
    t.pending_files += more.pending_files;
    t.unreadable_files += more.unreadable_files;
    t.unreadable_dirs += more.unreadable_dirs;
    t.files_with_records += more.files_with_records;
}

}  // namespace

void SourceSet::report(std::string line) {
    messages_.push_back(std::move(line));
}

void SourceSet::rescan() {
    readable_roots_ = 0;
    unreadable_dirs_.assign(roots_.size(), 0);
    for (std::size_t ri = 0; ri < roots_.size(); ++ri) {
        const RootSpec& root = roots_[ri];
        Discovered found = discover(root);
        if (found.root_ok) ++readable_roots_;
        unreadable_dirs_[ri] = found.unreadable_dirs;
        std::string joined;
        for (std::string& e : found.errors) joined += e + "\n";
        std::string& previous = root_errors_[root.path];
        if (joined != previous) {
            for (std::string& e : found.errors) report(std::move(e));
            previous = joined;
        }
        for (SourceFile& file : found.files) add_file(std::move(file), ri);
    }
}

SourceSet::Entry* SourceSet::add_file(SourceFile file, std::size_t root) {
    std::optional<Released> resumed;
    if (auto r = released_.find(file.path); r != released_.end()) {
        if (!released_changed(file.path, r->second)) return nullptr;  // read, complete, let go
        resumed = r->second;
        released_.erase(r);
    }
    auto [it, inserted] = files_.try_emplace(file.path);
    if (!inserted) return &it->second;
    Entry& entry = it->second;
    entry.path = &it->first;
    entry.root = root;
    auto [run, fresh_run] =
        run_ids_.try_emplace(file.run, static_cast<std::uint32_t>(runs_.size()));
    if (fresh_run) runs_.push_back(std::move(file.run));
    entry.unread.run = run->second;
    entry.unread.rank = file.rank;
    entry.unread.format = file.format;
    if (resumed) {
        // The new reader counts the file from here: its bytes (the offset it goes on from) and
        // the file itself leave the released totals; its records stay there, read once.
        IngestTotals& t = released_totals_.at(root);
        --t.files;
        t.bytes -= resumed->at.tail.offset;
        if (resumed->had_records) --t.files_with_records;
        entry.had_records = resumed->had_records;
        entry.unread.resume = std::make_unique<ResumePoint>(resumed->at);
    }
    order_.push_back(&entry);
    return &entry;
}

SourceFile SourceSet::file_of(const Entry& entry) const {
    if (entry.reader) return entry.reader->file();
    return SourceFile{*entry.path, runs_[entry.unread.run], entry.unread.rank, entry.unread.format};
}

std::unique_ptr<SourceReader> SourceSet::make_reader(const Entry& entry, ReaderFactory& factory,
                                                     PointSink& sink) const {
    std::unique_ptr<SourceReader> reader = factory.make(file_of(entry), sink);
    if (entry.unread.resume) reader->resume_from(*entry.unread.resume);
    return reader;
}

void SourceSet::poll_entry(Entry& entry) {
    // A poll reads at most a budget of bytes: a big file takes several, with a look at the
    // stop flag between them.
    if (!entry.reader) {
        entry.reader = make_reader(entry, factory_, sink_);
        entry.unread = Unread{};
        if (!entry.reader) return;
    }
    entry.polled = true;
    while (true) {
        Status status = entry.reader->poll();
        note_poll(entry, status ? std::string() : status.error().message,
                  entry.reader->take_warnings());
        if (!status || !entry.reader->more() || stopped()) break;
    }
    index(entry);
}

void SourceSet::note_poll(Entry& entry, const std::string& error, std::vector<std::string> warnings,
                          std::vector<std::string>* lines) {
    auto say = [&](std::string line) {
        if (lines)
            lines->push_back(std::move(line));
        else
            report(std::move(line));
    };
    if (!error.empty() && error != entry.last_error) say(error);
    entry.last_error = error;
    for (std::string& w : warnings) say(std::move(w));
}

void SourceSet::index(Entry& entry) {
    // A reader whose file left the roots follows no path: nothing can be renamed to it.
    const FileId* id = entry.reader->file().path.empty() ? nullptr : entry.reader->identity();
    if (entry.is_indexed && id && *id == entry.indexed) return;
    if (entry.is_indexed) {
        auto it = by_id_.find(entry.indexed);
        if (it != by_id_.end() && it->second == &entry) by_id_.erase(it);
        entry.is_indexed = false;
    }
    if (!id) return;
    by_id_[*id] = &entry;
    entry.indexed = *id;
    entry.is_indexed = true;
}

void SourceSet::poll() {
    // A step file with a newer sibling (same directory and series, higher range) is complete:
    // once read, its reader is let go, so a one-shot read of msProbe's thousands of step files
    // holds readers for the files still growing only.
    // (directory, series) -> the highest last step; keys own their text (readers go).
    std::map<std::pair<std::string, std::string>, std::uint64_t> newest;
    auto range_of = [](const Entry& entry) {
        const std::string& path = entry.reader ? entry.reader->file().path : *entry.path;
        std::string dir = path.substr(0, path.size() - base_name(path).size());
        return std::make_pair(std::move(dir), step_range_of_name(base_name(path)));
    };
    for (const Entry* entry : order_) {
        auto [dir, range] = range_of(*entry);
        if (!range) continue;
        std::uint64_t& last = newest[{std::move(dir), range->series}];
        last = std::max(last, range->last);
    }
    // A copy: release() takes complete files out of order_ while the read goes on.
    const std::vector<Entry*> entries = order_;
    std::vector<Entry*> complete;
    auto read = [&](Entry& entry) {
        auto [dir, range] = range_of(entry);
        if (range && range->last < newest[{dir, range->series}]) {
            entry.complete = true;
            complete.push_back(&entry);
        }
        if (complete.size() >= 4096) release(std::exchange(complete, {}));
    };
    std::size_t fresh = 0;
    if (reader_threads_ > 1)
        for (const Entry* entry : entries)
            if (!entry->polled && !reader_shares_state(format_of(*entry))) ++fresh;
    if (fresh > 1) {
        if (fresh < entries.size() || !poll_split(entries, read)) poll_pooled(entries, read);
    } else {
        for (Entry* entry : entries) {
            if (stopped()) break;
            poll_entry(*entry);
            read(*entry);
        }
    }
    release(complete);
}

void SourceSet::poll_pooled(const std::vector<Entry*>& entries,
                            const std::function<void(Entry&)>& read) {
    std::vector<ReaderPool::Job> jobs;
    for (Entry* entry : entries) {
        const bool pooled = !entry->polled && !reader_shares_state(format_of(*entry));
        jobs.push_back({&entry->reader, pooled});
    }
    // A job's entry is released (read()) only once the pool is past it.
    pools_.push_back(std::make_unique<ReaderPool>(sink_, reader_threads_, stop_, pool_limits_));
    pools_.back()->run(
        std::move(jobs),
        [&](std::size_t i, ReaderFactory& factory, PointSink& sink) {
            return make_reader(*entries[i], factory, sink);
        },
        [&](std::size_t i) {
            poll_entry(*entries[i]);
            read(*entries[i]);
        },
        [&](std::size_t i, std::vector<ReaderPool::PollOutcome>& polls) {
            Entry& entry = *entries[i];
            entry.unread = Unread{};
            entry.polled = true;
            for (ReaderPool::PollOutcome& p : polls)
                note_poll(entry, p.error, std::move(p.warnings));
            index(entry);
            read(entry);
        });
}

bool SourceSet::poll_split(const std::vector<Entry*>& entries,
                           const std::function<void(Entry&)>& read) {
    const std::size_t threads = std::min(reader_threads_, split_sinks_.size() + 1);
    if (threads < 2) return false;
    // A group a (run, rank): every series of a file names its file's (ReaderPool::strayed).
    std::vector<ReaderPool::Group> groups;
    std::map<std::pair<std::uint32_t, int>, std::size_t> group_of;
    std::vector<ReaderPool::Job> jobs;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Unread& u = entries[i]->unread;
        auto [it, fresh] = group_of.try_emplace({u.run, u.rank}, groups.size());
        if (fresh) groups.push_back({runs_[u.run], u.rank, {}});
        groups[it->second].jobs.push_back(i);
        jobs.push_back({&entries[i]->reader, true});
    }
    // Fewer groups than two a thread leave a thread idle while another reads a big group:
    // the recording pool shares out files, not groups.
    if (groups.size() < 2 * threads) return false;
    std::vector<PointSink*> sinks{&sink_};
    sinks.insert(sinks.end(), split_sinks_.begin(), split_sinks_.begin() + (threads - 1));
    // Files end in any order; what they say is reported in read order, as one thread would.
    std::vector<std::vector<std::string>> lines(entries.size());
    std::vector<bool> ended(entries.size(), false);
    std::size_t said = 0;
    pools_.push_back(std::make_unique<ReaderPool>(sink_, threads, stop_, pool_limits_));
    pools_.back()->run_split(
        std::move(jobs), std::move(groups), sinks, factory_,
        [&](std::size_t i, ReaderFactory& factory, PointSink& sink) {
            return make_reader(*entries[i], factory, sink);
        },
        [&](std::size_t i, std::vector<ReaderPool::PollOutcome>& polls) {
            Entry& entry = *entries[i];
            entry.unread = Unread{};
            entry.polled = true;
            for (ReaderPool::PollOutcome& p : polls)
                note_poll(entry, p.error, std::move(p.warnings), &lines[i]);
            index(entry);
            read(entry);
            ended[i] = true;
            for (; said < ended.size() && ended[said]; ++said)
                for (std::string& line : std::exchange(lines[said], {})) report(std::move(line));
        });
    // Files not read (a stop) say nothing.
    return true;
}

bool SourceSet::split_strayed() const {
    for (const auto& pool : pools_)
        if (pool->strayed()) return true;
    return false;
}

ReaderPool::Stats SourceSet::pool_stats() const {
    ReaderPool::Stats all;
    for (const auto& pool : pools_) all.add(pool->stats());
    return all;
}

void SourceSet::follow_renames(const std::vector<FileEvent>& events) {
    if (by_id_.empty()) return;
    std::map<std::string, std::string> moves;  // from -> to
    for (const FileEvent& e : events) {
        if (e.change == FileChange::kRemoved || e.change == FileChange::kCompleted) continue;
        struct stat st;
        if (::stat(e.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        auto it = by_id_.find(FileId::of(st));
        if (it == by_id_.end()) continue;
        const std::string& from = it->second->reader->file().path;
        if (from == e.path || from.empty()) continue;
        // Still there as well: a second name (a hard link), not a move.
        struct stat old;
        if (::stat(from.c_str(), &old) == 0 && FileId::of(old) == FileId::of(st)) continue;
        // A file deleted and a new one given its inode number is not a rename.
        if (!it->second->reader->holds_what_was_read(e.path)) continue;
        moves[from] = e.path;
    }
    if (moves.empty()) return;
    std::vector<Files::node_type> moving;
    for (const auto& [from, to] : moves) {
        Files::node_type node = files_.extract(from);
        if (!node.empty()) moving.push_back(std::move(node));
    }
    for (Files::node_type& node : moving) {
        const std::string to = moves.at(node.key());
        // Whatever followed the target path before: its file was renamed out of the roots or
        // deleted. It reads what is left through its descriptor, then nothing more.
        if (Files::node_type displaced = files_.extract(to); !displaced.empty()) {
            if (!displaced.mapped().reader) {
                // Never read: nothing of it is owed; its path is the renamed file's now.
                std::erase(order_, &displaced.mapped());
            } else {
                displaced.mapped().reader->moved_to(std::string());
                to_drain_.push_back(&displaced.mapped());
                gone_.push_back(std::move(displaced));
            }
        }
        node.mapped().reader->moved_to(to);
        node.key() = to;
        files_.insert(std::move(node));
    }
}

void SourceSet::watch(WatchOptions options) {
    options.wanted = [](std::string_view rel_dir, std::string_view name) {
        return classify_file(rel_dir, name).has_value();
    };
    options.stop = stop_;
    options.step_range = step_range_of_name;
    std::vector<std::string> paths;
    for (const RootSpec& root : roots_) paths.push_back(root.path);
    watcher_ = Watcher::create(std::move(paths), std::move(options));
}

void SourceSet::on_watch_ready() {
    if (!watcher_) return;
    std::vector<FileEvent> events = watcher_->take_events();
    for (std::string& m : watcher_->take_messages()) report(std::move(m));
    follow_renames(events);
    // New files first get readers, then are read in read order (restarts replay in the order
    // they happened, whatever order the watcher found them in); changed files after.
    std::vector<std::pair<std::string, Entry*>> fresh;
    std::vector<Entry*> changed, complete;
    for (FileEvent& e : events) {
        if (stopped()) return;
        auto known = files_.find(e.path);
        if (known != files_.end()) {
            Entry& entry = known->second;
            if (e.change != FileChange::kCompleted)
                changed.push_back(&entry);
            else if (!entry.complete)
                complete.push_back(&entry);
            entry.complete = entry.complete || e.change == FileChange::kCompleted;
            continue;
        }
        if (e.change == FileChange::kRemoved) {
            released_.erase(e.path);
            continue;
        }
        if (e.change == FileChange::kCompleted) continue;
        const RootSpec& root = roots_.at(e.root);
        std::string_view base = base_name(e.path);
        std::optional<SourceFormat> format =
            e.path == root.path ? file_format_of_named_file(base) : classify_file(e.rel_dir, base);
        if (!format) continue;
        SourceFile file = source_file(root, e.path, e.rel_dir, *format);
        std::string key = read_order_key(file);
        if (Entry* entry = add_file(std::move(file), e.root))
            fresh.emplace_back(std::move(key), entry);
    }
    std::stable_sort(fresh.begin(), fresh.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    // What is left in files renamed out of the roots first: they are older than what took
    // their place.
    for (Entry* entry : std::exchange(to_drain_, {})) {
        if (stopped()) return;
        poll_entry(*entry);
    }
    // Complete files next, in read order: what landed in them just before their newer sibling
    // appeared belongs to earlier steps than anything in that sibling.
    std::vector<std::pair<std::string, Entry*>> in_order;
    in_order.reserve(complete.size());
    for (Entry* entry : complete) in_order.emplace_back(read_order_key(file_of(*entry)), entry);
    std::stable_sort(in_order.begin(), in_order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [key, entry] : in_order) {
        if (stopped()) return;
        poll_entry(*entry);
    }
    for (auto& [key, entry] : fresh) {
        if (stopped()) return;
        if (!entry->complete) poll_entry(*entry);
    }
    for (Entry* entry : changed) {
        if (stopped()) return;
        if (!entry->complete) poll_entry(*entry);
    }
    release(complete);
    // A file that could not be read (permission denied, a transient NFS error) may never
    // change again, so the watcher would never name it: retry such files now and then.
    auto now = std::chrono::steady_clock::now();
    if (now - last_retry_ >= std::chrono::seconds(1)) {
        last_retry_ = now;
        for (Entry* entry : order_)
            if (!entry->last_error.empty()) poll_entry(*entry);
    }
}

bool SourceSet::released_changed(const std::string& path, const Released& released) const {
    if (released.at.ignored) return false;  // left alone, as its reader would have
    struct stat st;
    // Gone, or no longer a file: nothing to read (a file created there later is named again).
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    // The watcher's record may be older than what the reader read: the same size is no change.
    return !(FileId::of(st) == released.at.tail.id &&
             static_cast<std::uint64_t>(st.st_size) == released.at.tail.offset);
}

void SourceSet::release(const std::vector<Entry*>& complete) {
    if (complete.empty()) return;
    released_totals_.resize(roots_.size());
    std::vector<std::string> paths;
    for (Entry* entry : complete) {
        if (!entry->reader) {  // not read (a stop came first): nothing to let go of
            entry->complete = false;
            continue;
        }
        const SourceReader& r = *entry->reader;
        // Kept while something is owed: a tail still pending, an error to retry, a file that
        // left its path (its reader follows the descriptor), more to read after a stop.
        std::optional<ResumePoint> at = r.resume_point();
        if (!at || !r.pending().empty() || !entry->last_error.empty() || r.more() ||
            !r.identity() || r.file().path.empty()) {
            entry->complete = false;
            continue;
        }
        IngestTotals mine;
        add_totals(*entry, mine);
        released_[r.file().path] = Released{*at, mine.files_with_records != 0};
        add_up(released_totals_.at(entry->root), mine);
        paths.push_back(r.file().path);
    }
    std::erase_if(order_, [](const Entry* e) { return e->complete; });
    for (const std::string& path : paths) {
        auto it = files_.find(path);
        if (it == files_.end()) continue;
        if (it->second.is_indexed) {
            auto id = by_id_.find(it->second.indexed);
            if (id != by_id_.end() && id->second == &it->second) by_id_.erase(id);
        }
        files_.erase(it);
    }
}

std::vector<std::string> SourceSet::take_messages() {
    std::vector<std::string> out = take_log_format_errors();  // a user's format files'
    for (std::string& m : out) m += " (the format is left out)";
    out.insert(out.end(), std::make_move_iterator(messages_.begin()),
               std::make_move_iterator(messages_.end()));
    messages_.clear();
    return out;
}

void SourceSet::add_totals(const Entry& entry, IngestTotals& t) const {
    // A text file is a data file once a line of it matched a log format.
    if (entry.reader ? !entry.reader->holds_data() : entry.unread.format == SourceFormat::kTextLog)
        return;
    ++t.files;
    if (!entry.reader) return;  // not read yet
    const SourceReader& r = *entry.reader;
    const std::uint64_t records = t.records, bad = t.bad_rows + t.undecodable;
    r.add_totals(t);
    if (entry.had_records || t.records - records > t.bad_rows + t.undecodable - bad)
        ++t.files_with_records;
    if (!r.pending().empty()) ++t.pending_files;
    if (!entry.last_error.empty()) ++t.unreadable_files;
}

IngestTotals SourceSet::totals() const {
    IngestTotals t;
    for (const IngestTotals& r : released_totals_) add_up(t, r);
    for (std::uint64_t n : unreadable_dirs_) t.unreadable_dirs += n;
    for (const Entry* entry : order_) add_totals(*entry, t);
    return t;
}

std::vector<IngestTotals> SourceSet::totals_by_root() const {
    std::vector<IngestTotals> out(roots_.size());
    for (std::size_t ri = 0; ri < unreadable_dirs_.size() && ri < out.size(); ++ri)
        out[ri].unreadable_dirs = unreadable_dirs_[ri];
    for (std::size_t ri = 0; ri < released_totals_.size() && ri < out.size(); ++ri)
        add_up(out[ri], released_totals_[ri]);
    for (const Entry* entry : order_) add_totals(*entry, out.at(entry->root));
    return out;
}

std::size_t SourceSet::readers() const {
    std::size_t n = 0;
    for (const Entry* entry : order_) n += entry->reader != nullptr;
    return n;
}

std::vector<std::string> SourceSet::pending() const {
    std::vector<std::string> out;
    for (const Entry* entry : order_)
        if (entry->reader && !entry->reader->pending().empty())
            out.push_back(entry->reader->file().path + ": " + entry->reader->pending());
    return out;
}

}  // namespace runtop
