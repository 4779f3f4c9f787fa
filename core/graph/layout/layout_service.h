// SPDX-License-Identifier: Apache-2.0
// Group layouts on a worker thread, cached by (group, expansion state). A new generation (the user
// expanded or collapsed something) drops every job still queued for an older one.
#pragma once

#include "graph/layout/graph_layout.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

namespace msprobe::graph::layout {

struct LayoutKey {
    std::string group; // the expanded node's name (with its side and rank when several graphs share a cache)
    std::uint64_t expansion = 0; // a hash of which of its descendants are expanded (they change child sizes)
    bool operator==(const LayoutKey& other) const { return group == other.group && expansion == other.expansion; }
};

struct LayoutKeyHash {
    std::size_t operator()(const LayoutKey& key) const { return std::hash<std::string>()(key.group) ^ (key.expansion * 0x9E3779B97F4A7C15ull); }
};

class LayoutService {
public:
    using Done = std::function<void(const LayoutKey& key, std::shared_ptr<const LayoutResult> result)>;

    explicit LayoutService(LayoutOptions options = {}, std::size_t cacheLimit = 4096);
    ~LayoutService();
    LayoutService(const LayoutService&) = delete;
    LayoutService& operator=(const LayoutService&) = delete;

    std::shared_ptr<const LayoutResult> cached(const LayoutKey& key) const;
    // Synchronous (cached) layout on the calling thread.
    std::shared_ptr<const LayoutResult> layout(const LayoutKey& key, const LayoutRequest& request);
    // Queues a layout for the worker; done runs on the worker thread (not for dropped jobs).
    void submit(LayoutKey key, LayoutRequest request, Done done);
    // Starts a new generation: queued and running jobs of older generations are dropped.
    std::uint64_t newGeneration();
    std::uint64_t generation() const { return m_generation.load(); }
    // Waits until the queue is empty and the worker idle (for tests and exports).
    void drain();
    void clearCache();

private:
    struct Job {
        LayoutKey key;
        LayoutRequest request;
        Done done;
        std::uint64_t generation;
    };
    void work();
    void store(const LayoutKey& key, std::shared_ptr<const LayoutResult> result);

    LayoutOptions m_options;
    std::size_t m_cacheLimit;
    std::atomic<std::uint64_t> m_generation { 1 };
    mutable std::mutex m_mutex;
    std::condition_variable m_wake, m_idle;
    std::deque<Job> m_queue;
    bool m_busy = false, m_stop = false;
    std::unordered_map<LayoutKey, std::shared_ptr<const LayoutResult>, LayoutKeyHash> m_cache;
    std::deque<LayoutKey> m_cacheOrder;
    std::thread m_worker;
};

} // namespace msprobe::graph::layout
