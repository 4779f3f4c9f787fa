// SPDX-License-Identifier: Apache-2.0
// The events the memory hooks produce and the writer thread consumes: fixed-size records whose strings are
// interned ids, so the hot path (one allocation, one free) copies no string.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace msprobe::capture::memory {

enum class EventKind : std::uint8_t {
    Malloc,
    Free,
    Access, // sub: 0 read, 1 write
    OpStart,
    OpEnd,
    Mark,
    RangeStart,
    RangeEnd, // extra: range id
    Step, // extra: step number ended
    StartTrace,
    StopTrace,
    Label, // ptr: storage base, name: label, sub: owner level
    OomTrigger, // size: bytes requested, name: the op open, extra: interned func, used/reserved: -1 if unknown
};

enum class Phase : std::uint8_t { Forward, Backward, Optimizer };

// Owner levels (msMemScope decompose): framework, component, process, detail 1/2, user 1..3.
inline constexpr int kOwnerDetail1 = 3;
inline constexpr int kOwnerUser1 = 5;

struct Event {
    std::uint64_t id = 0; // creation order in this process (the ID column)
    std::int64_t tsNs = 0;
    std::int32_t tid = 0;
    EventKind kind = EventKind::Mark;
    std::uint8_t sub = 0;
    Phase phase = Phase::Forward;
    std::uint32_t name = 0; // op / message / label; 0 = none
    std::uint32_t context = 0; // op/module frames for Call Stack(Python); 0 = none
    std::uint32_t userOwner = 0; // "a@b" of the open MemoryOwnerScopes; 0 = none
    std::uint64_t ptr = 0; // block start (Malloc/Free/Label), tensor data (Access)
    std::uint64_t base = 0; // Access: storage start, the block's key
    std::int64_t size = 0;
    std::int64_t used = 0; // live bytes after the event (reporter's total_allocated)
    std::int64_t reserved = 0;
    std::int64_t step = 1;
    std::uint64_t extra = 0;
    std::uint32_t dtype = 0, shape = 0; // Access: interned "torch.float32", "torch.Size([2, 3])"
};

// Interned strings; id 0 is "". Ids stay valid for the process lifetime.
class StringTable {
public:
    std::uint32_t intern(std::string_view text)
    {
        std::lock_guard lock(m_mutex);
        auto it = m_ids.find(std::string(text));
        if (it != m_ids.end())
            return it->second;
        const auto id = static_cast<std::uint32_t>(m_strings.size());
        m_strings.emplace_back(text);
        m_ids.emplace(m_strings.back(), id);
        return id;
    }
    // Stable address of an interned string (strings are never changed or removed); nullptr for an unknown id.
    const std::string* find(std::uint32_t id) const
    {
        std::lock_guard lock(m_mutex);
        return id < m_strings.size() ? &m_strings[id] : nullptr;
    }
    std::string get(std::uint32_t id) const
    {
        std::lock_guard lock(m_mutex);
        return id < m_strings.size() ? m_strings[id] : std::string();
    }

private:
    mutable std::mutex m_mutex;
    std::deque<std::string> m_strings { std::string() };
    std::unordered_map<std::string, std::uint32_t> m_ids { { std::string(), 0u } };
};

StringTable& strings();

// Multi-producer queue drained in batches by the writer thread.
class EventQueue {
public:
    void push(const Event& event)
    {
        std::lock_guard lock(m_mutex);
        m_events.push_back(event);
        if (m_events.size() == 4096)
            m_ready.notify_one();
    }
    // Waits up to waitMs for events or a wake-up; takes nothing.
    void waitForEvents(int waitMs)
    {
        std::unique_lock lock(m_mutex);
        if (m_events.empty() && !m_wake)
            m_ready.wait_for(lock, std::chrono::milliseconds(waitMs));
    }
    // Takes everything queued now.
    void takeAll(std::vector<Event>& out)
    {
        std::lock_guard lock(m_mutex);
        m_wake = false;
        out.swap(m_events);
    }
    void wake()
    {
        std::lock_guard lock(m_mutex);
        m_wake = true;
        m_ready.notify_one();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::vector<Event> m_events;
    bool m_wake = false;
};

std::int64_t nowNs();
std::int32_t currentTid();

} // namespace msprobe::capture::memory
