// SPDX-License-Identifier: Apache-2.0
#include "graph/layout/layout_service.h"

namespace msprobe::graph::layout {

LayoutService::LayoutService(LayoutOptions options, std::size_t cacheLimit)
    : m_options(options)
    , m_cacheLimit(cacheLimit)
    , m_worker([this] { work(); })
{
}

LayoutService::~LayoutService()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
        m_generation.fetch_add(1);
    }
    m_wake.notify_all();
    m_worker.join();
}

std::shared_ptr<const LayoutResult> LayoutService::cached(const LayoutKey& key) const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_cache.find(key);
    return it == m_cache.end() ? nullptr : it->second;
}

void LayoutService::store(const LayoutKey& key, std::shared_ptr<const LayoutResult> result)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_cache.emplace(key, std::move(result)).second) {
        m_cacheOrder.push_back(key);
        while (m_cacheOrder.size() > m_cacheLimit) {
            m_cache.erase(m_cacheOrder.front());
            m_cacheOrder.pop_front();
        }
    }
}

std::shared_ptr<const LayoutResult> LayoutService::layout(const LayoutKey& key, const LayoutRequest& request)
{
    if (auto hit = cached(key))
        return hit;
    auto result = std::make_shared<LayoutResult>(layoutGroup(request, m_options));
    store(key, result);
    return result;
}

void LayoutService::submit(LayoutKey key, LayoutRequest request, Done done)
{
    if (auto hit = cached(key)) {
        if (done)
            done(key, hit);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_queue.push_back({ std::move(key), std::move(request), std::move(done), m_generation.load() });
    }
    m_wake.notify_one();
}

std::uint64_t LayoutService::newGeneration() { return m_generation.fetch_add(1) + 1; }

void LayoutService::drain()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_idle.wait(lock, [this] { return m_queue.empty() && !m_busy; });
}

void LayoutService::clearCache()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_cache.clear();
    m_cacheOrder.clear();
}

void LayoutService::work()
{
    while (true) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_stop)
                return;
            job = std::move(m_queue.front());
            m_queue.pop_front();
            if (job.generation != m_generation.load()) {
                if (m_queue.empty())
                    m_idle.notify_all();
                continue;
            }
            m_busy = true;
        }
        const CancelToken token { &m_generation, job.generation };
        auto result = std::make_shared<LayoutResult>(layoutGroup(job.request, m_options, token));
        if (!result->cancelled) {
            store(job.key, result);
            if (job.done)
                job.done(job.key, result);
        }
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_busy = false;
            if (m_queue.empty())
                m_idle.notify_all();
        }
    }
}

} // namespace msprobe::graph::layout
