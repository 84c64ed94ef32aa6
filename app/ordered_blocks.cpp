#include "app/ordered_blocks.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace runtop {

void make_in_order(std::size_t count, std::size_t threads,
                   const std::function<void(std::size_t block, std::string& text)>& make,
                   const std::function<void(std::string& text)>& emit) {
    threads = std::max<std::size_t>(1, std::min(threads, count));
    if (threads == 1) {
        std::string text;
        for (std::size_t b = 0; b < count; ++b) {
            text.clear();
            make(b, text);
            emit(text);
        }
        return;
    }
    // Block b is made into texts[b % ring] once block b - ring is emitted.
    const std::size_t ring = 2 * threads;
    std::vector<std::string> texts(ring);
    std::vector<char> ready(ring, 0);
    std::mutex mutex;
    std::condition_variable changed;
    std::size_t next = 0;     // the next block no thread took yet
    std::size_t emitted = 0;  // blocks emitted
    // Makes block b (taken under the lock, made outside it) and says it is ready.
    auto make_ready = [&](std::size_t b) {
        make(b, texts[b % ring]);
        std::lock_guard lock(mutex);
        ready[b % ring] = 1;
        changed.notify_all();
    };
    auto helper = [&] {
        while (true) {
            std::size_t b;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return next >= count || next < emitted + ring; });
                if (next >= count) return;
                b = next++;
            }
            make_ready(b);
        }
    };
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(helper);
    for (std::size_t b = 0; b < count; ++b) {
        {
            // While block b is not made, make the next one nobody took (b itself, if so):
            // waiting here while a helper took every block would leave this thread idle.
            std::unique_lock lock(mutex);
            while (!ready[b % ring]) {
                if (next < count && next < emitted + ring) {
                    const std::size_t j = next++;
                    lock.unlock();
                    make_ready(j);
                    lock.lock();
                } else {
                    changed.wait(lock);
                }
            }
        }
        emit(texts[b % ring]);
        texts[b % ring].clear();
        std::lock_guard lock(mutex);
        ready[b % ring] = 0;
        emitted = b + 1;
        changed.notify_all();
    }
    for (std::thread& h : helpers) h.join();
}

void in_parts(std::size_t count, std::size_t threads,
              const std::function<void(std::size_t k, std::size_t begin, std::size_t end)>& part) {
    threads = std::max<std::size_t>(1, std::min(threads, count));
    auto bounds = [&](std::size_t k) { return count * k / threads; };
    std::vector<std::thread> helpers;
    for (std::size_t k = 1; k < threads; ++k)
        helpers.emplace_back([&, k] { part(k, bounds(k), bounds(k + 1)); });
    part(0, 0, bounds(1));
    for (std::thread& h : helpers) h.join();
}

}  // namespace runtop
