#include "app/thread_stores.h"

#include <algorithm>
#include <iterator>

#include "app/inputs.h"
#include "app/ordered_blocks.h"

namespace runtop {

ThreadStores::ThreadStores(const SeriesFilter& filter, StoreLimits limits)
    : filter_(filter), limits_(limits) {}

void ThreadStores::make(std::size_t count) {
    sources_.reset();
    sinks_.clear();
    stores_.clear();
    StoreLimits each = limits_;
    each.memory_bytes = limits_.memory_bytes / count;
    for (std::size_t k = 0; k < count; ++k) {
        stores_.push_back(std::make_unique<Store>(each));
        sinks_.push_back(std::make_unique<FilteringSink>(filter_, *stores_.back()));
    }
    sources_ = std::make_unique<SourceSet>(*sinks_[0]);
    std::vector<PointSink*> more;
    for (std::size_t k = 1; k < count; ++k) more.push_back(sinks_[k].get());
    sources_->split_between(std::move(more));
}

std::size_t ThreadStores::read(const std::vector<RootSpec>& roots, std::uint64_t process_bytes,
                               std::size_t threads) {
    make(std::max<std::size_t>(1, threads));
    // Nothing is said until it is known whether this read stands.
    read_quietly(*sources_, roots, process_bytes, threads);
    if (stores_.size() > 1 && sources_->split_strayed()) {
        make(1);
        read_quietly(*sources_, roots, process_bytes, threads);
    }
    return say_what_was_read(*sources_);
}

std::vector<const Series*> ThreadStores::sorted() const {
    // Each Store sorted on a thread of its own (the read's threads are idle now: a serial sort
    // of 512k series was a twentieth of an unpinned ls), then merged in order.
    if (stores_.empty()) return {};  // nothing read yet
    std::vector<std::vector<const Series*>> each(stores_.size());
    in_parts(stores_.size(), stores_.size(), [&](std::size_t, std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            const Store& store = *stores_[k];
            const std::vector<SeriesId> ids = store.sorted_ids();
            each[k].reserve(ids.size());
            for (SeriesId id : ids) each[k].push_back(&store.at(id));
        }
    });
    std::vector<const Series*> all = std::move(each[0]);
    for (std::size_t k = 1; k < each.size(); ++k) {
        const std::vector<const Series*>& one = each[k];
        std::vector<const Series*> merged;
        merged.reserve(all.size() + one.size());
        std::merge(all.begin(), all.end(), one.begin(), one.end(), std::back_inserter(merged),
                   [](const Series* a, const Series* b) { return a->key() < b->key(); });
        all.swap(merged);
    }
    return all;
}

std::size_t ThreadStores::config_texts() const {
    std::size_t n = 0;
    for (const auto& store : stores_) n += store->config_texts().size();
    return n;
}

std::size_t ThreadStores::imported_anomalies() const {
    std::size_t n = 0;
    for (const auto& store : stores_) n += store->imported_anomalies().size();
    return n;
}

std::vector<const Store*> ThreadStores::stores() const {
    std::vector<const Store*> all;
    for (const auto& store : stores_) all.push_back(store.get());
    return all;
}

}  // namespace runtop
