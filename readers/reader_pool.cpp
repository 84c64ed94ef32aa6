#include "readers/reader_pool.h"

#include <sched.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/point_recording.h"
#include "readers/open_file.h"
#include "readers/pool_sink.h"
#include "readers/reader_factory.h"
#include "readers/split_sink.h"

namespace runtop {

std::size_t default_reader_threads() {
    std::size_t n = 0;
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
        n = static_cast<std::size_t>(CPU_COUNT(&set));
    if (n == 0) n = std::thread::hardware_concurrency();
    return std::clamp<std::size_t>(n, 1, 4);
}

ReaderPoolLimits ReaderPoolLimits::for_process(std::uint64_t process_bytes) {
    // A recorded point takes 32 bytes (PointRecording's entry); series and texts are rarer.
    constexpr std::uint64_t kEntryBytes = 32;
    ReaderPoolLimits limits;
    const std::uint64_t bytes = process_bytes / 32;
    limits.chunk_entries = static_cast<std::size_t>(
        std::clamp<std::uint64_t>(bytes / limits.chunks / kEntryBytes, 1024, 1u << 15));
    limits.chunks = std::max<std::size_t>(
        limits.chunks, static_cast<std::size_t>(bytes / (limits.chunk_entries * kEntryBytes)));
    return limits;
}

struct ReaderPool::Worker {
    Worker(PointSink& target, std::size_t msprobe_tables)
        : sink(target), factory(std::max<std::size_t>(1, msprobe_tables)) {}
    PoolSink sink;
    ReaderFactory factory;             // its own msProbe key tables: they are used from one thread
    std::unique_ptr<SplitSink> split;  // in run_split(): its own sink
    std::thread thread;
};

// One file's progress through the pool, guarded by Shared::mutex.
struct ReaderPool::Slot {
    bool taken = false;  // by a pool thread or the calling thread
    Worker* worker = nullptr;
    // At most Limits::chunks_ahead. Not a deque: an empty std::deque allocates about 600 bytes.
    std::vector<PointRecording> chunks;
    std::vector<PollOutcome> polls;
    bool done = false;
    bool worker_waits = false;  // its pool thread waits for a chunk to go on with it
};

struct ReaderPool::Shared {
    std::vector<Job> jobs;
    const MakeReader* make = nullptr;
    // The files in flight, `ahead` of them, a ring: file i in slots[i % ahead] (no pool thread
    // takes file i before the replay is past file i - ahead, whose slot is then cleared).
    std::vector<Slot> slots;
    Slot& slot(std::size_t job) { return slots[job % slots.size()]; }
    const Slot& slot(std::size_t job) const { return slots[job % slots.size()]; }
    std::mutex mutex;
    std::condition_variable for_main;     // a chunk or a file's end arrived
    std::condition_variable for_workers;  // the replayed file moved on, or a chunk came back
    std::size_t next = 0;                 // the next job to take
    std::size_t head = 0;                 // the job being replayed
    std::size_t ahead = 0;                // how many jobs past `head` may be taken
    // Chunks in existence (being filled, queued or spare), at most `max_chunks`: the pool's
    // memory. The last one is kept for the file being replayed, so it can always move on.
    std::size_t chunks = 0;
    std::size_t max_chunks = 0;
    ReaderPool::Stats stats;            // of this run
    std::vector<PointRecording> spare;  // replayed chunks, emptied: reused, not paged in anew
    bool quit = false;
    // Pool threads waiting on for_workers, and how much room wakes them (see wake_workers).
    std::size_t sleepers = 0;
    std::size_t wake_chunks = 1;
    std::size_t wake_files = 1;

    // Files parsed on pool threads and what they recorded: files too small to pay for their
    // hand-over are then left to the calling thread (small_files()).
    std::uint64_t pooled_entries = 0;  // beside stats.pooled_files
    std::size_t probe_files = 0;
    std::size_t min_entries = 0;

    // msProbe's default of one CSV per step makes files of a few hundred points: handed over
    // one by one, they kept the calling thread (which stores every point) busier than reading
    // them itself (256k files of 320 points on 2 CPUs: 1.1x the time of one thread).
    bool small_files() const {
        return stats.pooled_files >= probe_files &&
               pooled_entries < stats.pooled_files * min_entries;
    }
    std::size_t free_chunks() const { return spare.size() + (max_chunks - chunks); }
    // Under the lock, after the calling thread made room (a chunk back, the head moved on):
    // whether to wake the pool threads. Only for a stretch of work, or for the file being
    // replayed: woken at every file replayed, a pool thread that had run ahead cost more in
    // wake-ups than in parsing (256k msProbe files of 12 KB on 2 CPUs: 4.8x the time of one
    // thread). The calling thread wakes them in any case before it waits itself.
    bool wake_workers() const {
        if (sleepers == 0) return false;
        if (head < jobs.size() && slot(head).worker_waits) return true;
        return free_chunks() >= wake_chunks && head + ahead >= next + wake_files;
    }

    bool chunk_for(std::size_t job) const {  // under the lock
        return free_chunks() > (job == head ? 0u : 1u);
    }
    PointRecording take_chunk() {  // under the lock, once chunk_for() said yes
        if (spare.empty()) {
            stats.peak_chunks = std::max(stats.peak_chunks, ++chunks);
            return PointRecording();
        }
        PointRecording chunk = std::move(spare.back());
        spare.pop_back();
        return chunk;
    }
    void give_back(PointRecording chunk) {  // under the lock
        chunk.clear();
        spare.push_back(std::move(chunk));
    }
};

ReaderPool::ReaderPool(PointSink& target, std::size_t threads, const std::function<bool()>& stop,
                       Limits limits)
    : target_(target), stop_(stop), limits_(limits) {
    for (std::size_t i = 1; i < threads; ++i)
        workers_.push_back(std::make_unique<Worker>(target, limits.msprobe_tables));
}

ReaderPool::~ReaderPool() = default;

void ReaderPool::run(std::vector<Job> jobs, const MakeReader& make, const ReadHere& read_here,
                     const Finish& finish) {
    Shared shared;
    shared.jobs = std::move(jobs);
    shared.make = &make;
    shared.ahead = std::max(workers_.size() + 1, limits_.files_ahead);
    shared.slots.resize(shared.ahead);
    shared.probe_files = std::max<std::size_t>(1, limits_.probe_files);
    shared.min_entries = limits_.min_points_a_file;
    shared.max_chunks = std::max(limits_.chunks, workers_.size() + 2);
    shared.wake_chunks = std::max<std::size_t>(1, shared.max_chunks / 4);
    shared.wake_files = std::max<std::size_t>(1, shared.ahead / 4);
    for (auto& w : workers_) w->thread = std::thread([this, &w, &shared] { work(*w, shared); });

    std::vector<PollOutcome> polls;
    for (std::size_t i = 0; i < shared.jobs.size(); ++i) {
        if (stop_ && stop_()) break;
        Slot& slot = shared.slot(i);
        Worker* worker = nullptr;
        {
            std::lock_guard lock(shared.mutex);
            if (!slot.taken) {
                // Not pooled, or no pool thread got to it yet: read it here.
                slot.taken = true;
                shared.next = std::max(shared.next, i + 1);
            } else {
                worker = slot.worker;
            }
        }
        if (!worker) {
            read_here(i);
        } else {
            while (true) {
                PointRecording chunk;
                bool last = false;
                bool wake = false;
                {
                    std::unique_lock lock(shared.mutex);
                    auto ready = [&] { return !slot.chunks.empty() || slot.done; };
                    if (!ready() && shared.sleepers > 0) shared.for_workers.notify_all();
                    shared.for_main.wait(lock, ready);
                    if (slot.chunks.empty()) {
                        polls = std::move(slot.polls);
                        break;
                    }
                    chunk = std::move(slot.chunks.front());
                    slot.chunks.erase(slot.chunks.begin());
                    last = slot.done && slot.chunks.empty();
                    if (last) polls = std::move(slot.polls);
                    wake = slot.worker_waits;  // room in this file's queue
                }
                if (wake) shared.for_workers.notify_all();
                chunk.replay(target_, worker->sink.target_ids());
                {
                    std::lock_guard lock(shared.mutex);
                    shared.give_back(std::move(chunk));
                    wake = shared.wake_workers();
                }
                if (wake) shared.for_workers.notify_all();
                if (last) break;
            }
            finish(i, polls);
        }
        bool wake = false;
        {
            std::lock_guard lock(shared.mutex);
            slot = Slot{};  // for file i + ahead
            shared.head = i + 1;
            wake = shared.wake_workers();
        }
        if (wake) shared.for_workers.notify_all();
    }
    {
        std::lock_guard lock(shared.mutex);
        shared.quit = true;
    }
    shared.for_workers.notify_all();
    for (auto& w : workers_) {
        w->thread.join();
        w->sink.record_into(nullptr);
    }
    stats_.add(shared.stats);
}

void ReaderPool::work(Worker& worker, Shared& shared) {
    // The files this thread reads stay open in its own descriptor budget (open_file.h): share
    // the process' descriptors between the threads.
    OpenFile::set_thread_budget(
        std::max<std::size_t>(16, OpenFile::budget() / (workers_.size() + 1)));
    while (true) {
        std::size_t i = 0;
        {
            std::unique_lock lock(shared.mutex);
            while (true) {
                if (shared.quit || shared.next >= shared.jobs.size() || shared.small_files())
                    return;
                if (shared.next >= shared.head + shared.ahead) {
                    ++shared.sleepers;
                    shared.for_workers.wait(lock);
                    --shared.sleepers;
                    continue;
                }
                i = shared.next++;
                if (shared.jobs[i].pooled && !shared.slot(i).taken) break;
            }
            shared.slot(i).taken = true;
            shared.slot(i).worker = &worker;
            shared.stats.peak_lead = std::max(shared.stats.peak_lead, i - shared.head);
        }
        parse(worker, shared, i);
    }
}

void ReaderPool::parse(Worker& worker, Shared& shared, std::size_t i) {
    std::unique_ptr<SourceReader>& reader = *shared.jobs[i].reader;
    reader = (*shared.make)(i, worker.factory, worker.sink);
    Slot& slot = shared.slot(i);
    PointRecording chunk;
    bool holding = false;  // whether `chunk` counts in Shared::chunks
    bool quit = false;
    // Waits for a chunk to record into, and while enough of this file is queued already.
    auto next_chunk = [&](std::unique_lock<std::mutex>& lock) {
        ++shared.sleepers;
        slot.worker_waits = true;
        shared.for_workers.wait(lock, [&] {
            return shared.quit ||
                   (slot.chunks.size() < limits_.chunks_ahead && shared.chunk_for(i));
        });
        slot.worker_waits = false;
        --shared.sleepers;
        quit = shared.quit;
        if (quit) return;
        chunk = shared.take_chunk();
        holding = true;
    };
    {
        std::unique_lock lock(shared.mutex);
        next_chunk(lock);
    }
    // Hands the chunk over, to be replayed once this file is the calling thread's.
    std::uint64_t recorded = 0;
    auto hand_over = [&](std::vector<PollOutcome>* polls, bool done) {
        std::unique_lock lock(shared.mutex);
        recorded += chunk.size();
        if (done) {
            ++shared.stats.pooled_files;
            shared.pooled_entries += recorded;
        }
        if (!chunk.empty()) {
            slot.chunks.push_back(std::move(chunk));
            chunk = PointRecording();
            holding = false;
        }
        if (polls)
            for (PollOutcome& p : *polls) slot.polls.push_back(std::move(p));
        slot.done = done;
        shared.for_main.notify_one();
        if (done) {
            if (holding) shared.give_back(std::move(chunk));
            holding = false;
        } else if (!holding && !quit) {
            next_chunk(lock);
        }
    };
    worker.sink.record_into(&chunk);
    worker.sink.when_full(limits_.chunk_entries, [&] { hand_over(nullptr, false); });
    // `quit` turns true inside a poll when the pool stops while this file waits for a chunk.
    std::vector<PollOutcome> polls = quit ? std::vector<PollOutcome>() : read_whole(*reader, &quit);
    reader->let_go_of_shared();
    hand_over(&polls, true);
    worker.sink.record_into(nullptr);
    shared.for_workers.notify_all();  // a chunk may have come back
}

// run_split()'s state, guarded by `mutex`.
struct ReaderPool::SplitShared {
    std::vector<Job> jobs;
    std::vector<Group> groups;
    const MakeReader* make = nullptr;
    const Finish* finish = nullptr;
    std::mutex mutex;
    std::condition_variable for_main;  // a pool thread read a file, or stopped
    std::size_t next_group = 0;
    std::size_t reading = 0;  // pool threads not done yet
    // Read by pool threads, not yet told to `finish`.
    std::vector<std::pair<std::size_t, std::vector<PollOutcome>>> read;
    std::size_t pooled_files = 0;
};

std::vector<ReaderPool::PollOutcome> ReaderPool::read_whole(SourceReader& reader,
                                                            const bool* quit) {
    std::vector<PollOutcome> polls;
    while (true) {
        // As SourceSet::poll_entry: one poll reads at most a budget of bytes.
        Status status = reader.poll();
        polls.push_back({status ? std::string() : status.error().message, reader.take_warnings()});
        if ((quit && *quit) || !status || !reader.more() || (stop_ && stop_())) break;
    }
    return polls;
}

void ReaderPool::split_work(SplitShared& shared, ReaderFactory& factory, SplitSink& sink,
                            bool here) {
    auto claim = [&](std::size_t& g) {
        std::lock_guard lock(shared.mutex);
        if (shared.next_group >= shared.groups.size() || (stop_ && stop_())) return false;
        g = shared.next_group++;
        return true;
    };
    std::vector<std::pair<std::size_t, std::vector<PollOutcome>>> told;
    // Here: tells `finish` of what the pool threads read meanwhile, so their complete files are
    // let go as they end, not when this thread is done.
    auto tell = [&] {
        {
            std::lock_guard lock(shared.mutex);
            told.swap(shared.read);
        }
        for (auto& [i, polls] : told) (*shared.finish)(i, polls);
        told.clear();
    };
    std::size_t g = 0;
    while (claim(g)) {
        const Group& group = shared.groups[g];
        sink.reading(group.run, group.rank);
        for (std::size_t i : group.jobs) {
            if (stop_ && stop_()) break;
            std::unique_ptr<SourceReader>& reader = *shared.jobs[i].reader;
            reader = (*shared.make)(i, factory, sink);
            std::vector<PollOutcome> polls = read_whole(*reader);
            if (here) {
                (*shared.finish)(i, polls);
                tell();
                continue;
            }
            reader->let_go_of_shared();
            std::lock_guard lock(shared.mutex);
            shared.read.emplace_back(i, std::move(polls));
            ++shared.pooled_files;
            shared.for_main.notify_one();
        }
    }
    if (!here) {
        std::lock_guard lock(shared.mutex);
        --shared.reading;
        shared.for_main.notify_one();
        return;
    }
    while (true) {
        {
            std::unique_lock lock(shared.mutex);
            shared.for_main.wait(lock, [&] { return !shared.read.empty() || shared.reading == 0; });
            if (shared.read.empty()) return;
        }
        tell();
    }
}

void ReaderPool::run_split(std::vector<Job> jobs, std::vector<Group> groups,
                           const std::vector<PointSink*>& sinks, ReaderFactory& here,
                           const MakeReader& make, const Finish& finish) {
    SplitShared shared;
    shared.jobs = std::move(jobs);
    shared.groups = std::move(groups);
    shared.make = &make;
    shared.finish = &finish;
    const std::size_t threads = std::min(workers_.size(), sinks.size() - 1);
    shared.reading = threads;
    here_split_ = std::make_unique<SplitSink>(*sinks[0]);
    for (std::size_t k = 0; k < threads; ++k) {
        Worker& w = *workers_[k];
        w.split = std::make_unique<SplitSink>(*sinks[k + 1]);
        w.thread = std::thread([this, &w, &shared, threads] {
            OpenFile::set_thread_budget(
                std::max<std::size_t>(16, OpenFile::budget() / (threads + 1)));
            split_work(shared, w.factory, *w.split, false);
        });
    }
    split_work(shared, here, *here_split_, true);
    for (std::size_t k = 0; k < threads; ++k) workers_[k]->thread.join();
    stats_.pooled_files += shared.pooled_files;
    ++stats_.split_reads;
}

bool ReaderPool::strayed() const {
    if (here_split_ && here_split_->strayed()) return true;
    for (const auto& w : workers_)
        if (w->split && w->split->strayed()) return true;
    return false;
}

}  // namespace runtop
