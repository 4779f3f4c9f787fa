// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace msprobe::support {

// A fixed set of worker threads running submitted tasks in submission order. The first exception a task
// throws is kept and rethrown by wait(); tasks queued after it still run (they check cancellation themselves).
class ThreadPool {
public:
    explicit ThreadPool(std::size_t threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    void submit(std::function<void()> task);
    // Blocks until every submitted task has finished; rethrows the first failure.
    void wait();
    std::size_t size() const { return m_workers.size(); }

private:
    void work();

    std::vector<std::thread> m_workers;
    std::deque<std::function<void()>> m_queue;
    std::mutex m_mutex;
    std::condition_variable m_ready, m_idle;
    std::size_t m_running = 0;
    bool m_stop = false;
    std::exception_ptr m_failure;
};

// Threads to use by default: the hardware concurrency, at least one.
std::size_t defaultThreadCount();

// Runs `first` on this thread and `second` on another at the same time; rethrows first's failure before second's.
template <typename First, typename Second>
void runConcurrently(First first, Second second)
{
    std::exception_ptr secondFailure;
    std::thread other([&] {
        try {
            second();
        } catch (...) {
            secondFailure = std::current_exception();
        }
    });
    try {
        first();
    } catch (...) {
        other.join();
        throw;
    }
    other.join();
    if (secondFailure)
        std::rethrow_exception(secondFailure);
}

// Runs fn(begin, end) over [0, n) split into contiguous chunks on up to `threads` threads (the caller's included).
void parallelFor(std::size_t n, std::size_t threads, const std::function<void(std::size_t, std::size_t)>& fn);

} // namespace msprobe::support
