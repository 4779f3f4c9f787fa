// SPDX-License-Identifier: Apache-2.0
#include "support/thread_pool.h"

#include <algorithm>

namespace msprobe::support {

ThreadPool::ThreadPool(std::size_t threads)
{
    threads = std::max<std::size_t>(threads, 1);
    for (std::size_t i = 0; i < threads; ++i)
        m_workers.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_ready.notify_all();
    for (auto& worker : m_workers)
        worker.join();
}

void ThreadPool::submit(std::function<void()> task)
{
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(task));
    }
    m_ready.notify_one();
}

void ThreadPool::wait()
{
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_queue.empty() && m_running == 0; });
    if (m_failure) {
        auto failure = m_failure;
        m_failure = nullptr;
        std::rethrow_exception(failure);
    }
}

void ThreadPool::work()
{
    while (true) {
        std::function<void()> task;
        {
            std::unique_lock lock(m_mutex);
            m_ready.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty())
                return;
            task = std::move(m_queue.front());
            m_queue.pop_front();
            ++m_running;
        }
        try {
            task();
        } catch (...) {
            std::lock_guard lock(m_mutex);
            if (!m_failure)
                m_failure = std::current_exception();
        }
        {
            std::lock_guard lock(m_mutex);
            --m_running;
        }
        m_idle.notify_all();
    }
}

std::size_t defaultThreadCount() { return std::max<std::size_t>(std::thread::hardware_concurrency(), 1); }

void parallelFor(std::size_t n, std::size_t threads, const std::function<void(std::size_t, std::size_t)>& fn)
{
    threads = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(n, 1));
    if (threads == 1) {
        fn(0, n);
        return;
    }
    std::vector<std::thread> workers;
    std::vector<std::exception_ptr> failures(threads);
    const std::size_t chunk = (n + threads - 1) / threads;
    for (std::size_t t = 1; t < threads; ++t)
        workers.emplace_back([&, t] {
            try {
                fn(std::min(n, t * chunk), std::min(n, (t + 1) * chunk));
            } catch (...) {
                failures[t] = std::current_exception();
            }
        });
    try {
        fn(0, std::min(n, chunk));
    } catch (...) {
        failures[0] = std::current_exception();
    }
    for (auto& worker : workers)
        worker.join();
    for (auto& failure : failures)
        if (failure)
            std::rethrow_exception(failure);
}

} // namespace msprobe::support
