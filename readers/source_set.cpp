#include "readers/source_set.h"

#include "readers/discovery.h"

namespace runtop {

void SourceSet::report(std::string line) {
    messages_.push_back(std::move(line));
}

void SourceSet::rescan() {
    readable_roots_ = 0;
    for (const RootSpec& root : roots_) {
        Discovered found = discover(root);
        if (found.root_ok) ++readable_roots_;
        std::string joined;
        for (std::string& e : found.errors) joined += e + "\n";
        std::string& previous = root_errors_[root.path];
        if (joined != previous) {
            for (std::string& e : found.errors) report(std::move(e));
            previous = joined;
        }
        for (SourceFile& file : found.files) {
            auto [it, inserted] = files_.try_emplace(file.path);
            if (!inserted) continue;
            it->second.reader = factory_.make(std::move(file), sink_);
            if (it->second.reader) order_.push_back(&it->second);
        }
    }
}

void SourceSet::poll() {
    for (Entry* entry : order_) {
        Status status = entry->reader->poll();
        if (!status) {
            if (status.error().message != entry->last_error) report(status.error().message);
            entry->last_error = status.error().message;
        } else {
            entry->last_error.clear();
        }
        for (std::string& w : entry->reader->take_warnings()) report(std::move(w));
    }
}

std::vector<std::string> SourceSet::take_messages() {
    std::vector<std::string> out;
    out.swap(messages_);
    return out;
}

IngestTotals SourceSet::totals() const {
    IngestTotals t;
    for (const Entry* entry : order_) {
        const SourceReader& r = *entry->reader;
        ++t.files;
        r.add_totals(t);
        if (!r.pending().empty()) ++t.pending_files;
        if (!entry->last_error.empty()) ++t.unreadable_files;
    }
    return t;
}

std::vector<std::string> SourceSet::pending() const {
    std::vector<std::string> out;
    for (const Entry* entry : order_)
        if (!entry->reader->pending().empty())
            out.push_back(entry->reader->file().path + ": " + entry->reader->pending());
    return out;
}

}  // namespace runtop
