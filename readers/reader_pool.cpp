#include "readers/reader_pool.h"

#include <sched.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "core/point_recording.h"
#include "readers/open_file.h"
#include "readers/pool_sink.h"
#include "readers/reader_factory.h"

namespace runtop {

std::size_t default_reader_threads() {
    std::size_t n = 0;
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
        n = static_cast<std::size_t>(CPU_COUNT(&set));
    if (n == 0) n = std::thread::hardware_concurrency();
    return std::clamp<std::size_t>(n, 1, 4);
}

struct ReaderPool::Worker {
    explicit Worker(PointSink& target) : sink(target) {}
    PoolSink sink;
    ReaderFactory factory;  // its own msProbe key tables: they are used from one thread
    std::thread thread;
};

// One file's progress through the pool, guarded by Shared::mutex.
struct ReaderPool::Slot {
    bool taken = false;  // by a pool thread or the calling thread
    Worker* worker = nullptr;
    std::deque<PointRecording> chunks;
    std::vector<PollOutcome> polls;
    bool done = false;
};

struct ReaderPool::Shared {
    std::vector<Job> jobs;
    std::vector<Slot> slots;
    std::mutex mutex;
    std::condition_variable for_main;     // a chunk or a file's end arrived
    std::condition_variable for_workers;  // the replayed file moved on, or a chunk was taken
    std::size_t next = 0;                 // the next job to take
    std::size_t head = 0;                 // the job being replayed
    std::size_t ahead = 0;                // how many jobs past `head` may be taken
    std::vector<PointRecording> spare;    // replayed chunks, emptied: reused, not paged in anew
    bool quit = false;
};

ReaderPool::ReaderPool(PointSink& target, std::size_t threads, const std::function<bool()>& stop,
                       Limits limits)
    : target_(target), stop_(stop), limits_(limits) {
    for (std::size_t i = 1; i < threads; ++i) workers_.push_back(std::make_unique<Worker>(target));
}

ReaderPool::~ReaderPool() = default;

void ReaderPool::run(std::vector<Job> jobs, const ReadHere& read_here, const Finish& finish) {
    Shared shared;
    shared.jobs = std::move(jobs);
    shared.slots.resize(shared.jobs.size());
    shared.ahead = workers_.size() + 1;
    for (auto& w : workers_) w->thread = std::thread([this, &w, &shared] { work(*w, shared); });

    std::vector<PollOutcome> polls;
    for (std::size_t i = 0; i < shared.jobs.size(); ++i) {
        if (stop_ && stop_()) break;
        Slot& slot = shared.slots[i];
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
                {
                    std::unique_lock lock(shared.mutex);
                    shared.for_main.wait(lock, [&] { return !slot.chunks.empty() || slot.done; });
                    if (slot.chunks.empty()) {
                        polls = std::move(slot.polls);
                        break;
                    }
                    chunk = std::move(slot.chunks.front());
                    slot.chunks.pop_front();
                    last = slot.done && slot.chunks.empty();
                    if (last) polls = std::move(slot.polls);
                }
                shared.for_workers.notify_all();
                chunk.replay(target_, worker->sink.target_ids());
                chunk.clear();
                {
                    std::lock_guard lock(shared.mutex);
                    if (shared.spare.size() < 2 * shared.ahead)
                        shared.spare.push_back(std::move(chunk));
                }
                if (last) break;
            }
            finish(i, polls);
        }
        {
            std::lock_guard lock(shared.mutex);
            shared.head = i + 1;
        }
        shared.for_workers.notify_all();
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
                if (shared.quit || shared.next >= shared.jobs.size()) return;
                if (shared.next >= shared.head + shared.ahead) {
                    shared.for_workers.wait(lock);
                    continue;
                }
                i = shared.next++;
                if (shared.jobs[i].pooled && !shared.slots[i].taken) break;
            }
            shared.slots[i].taken = true;
            shared.slots[i].worker = &worker;
        }
        parse(worker, shared, i);
    }
}

void ReaderPool::parse(Worker& worker, Shared& shared, std::size_t i) {
    std::unique_ptr<SourceReader>& reader = *shared.jobs[i].reader;
    reader = worker.factory.make(reader->file(), worker.sink);
    Slot& slot = shared.slots[i];
    PointRecording chunk;
    auto take_spare = [&] {  // under the lock
        if (shared.spare.empty()) return;
        chunk = std::move(shared.spare.back());
        shared.spare.pop_back();
    };
    {
        std::lock_guard lock(shared.mutex);
        take_spare();
    }
    bool quit = false;
    // Hands the chunk over; past the file being replayed, waits while enough of it is queued.
    auto hand_over = [&](std::vector<PollOutcome>* polls, bool done) {
        std::unique_lock lock(shared.mutex);
        if (!chunk.empty()) slot.chunks.push_back(std::move(chunk));
        if (polls)
            for (PollOutcome& p : *polls) slot.polls.push_back(std::move(p));
        slot.done = done;
        shared.for_main.notify_one();
        if (!done)
            shared.for_workers.wait(lock, [&] {
                return shared.quit || shared.head == i || slot.chunks.size() < limits_.chunks_ahead;
            });
        quit = shared.quit;
        chunk = PointRecording();
        take_spare();
    };
    worker.sink.record_into(&chunk);
    worker.sink.when_full(limits_.chunk_entries, [&] { hand_over(nullptr, false); });
    std::vector<PollOutcome> polls;
    while (true) {
        // As SourceSet::poll_entry: one poll reads at most a budget of bytes.
        Status status = reader->poll();
        polls.push_back({status ? std::string() : status.error().message, reader->take_warnings()});
        if (quit || !status || !reader->more() || (stop_ && stop_())) break;
    }
    hand_over(&polls, true);
    worker.sink.record_into(nullptr);
}

}  // namespace runtop
