// SPDX-License-Identifier: Apache-2.0
#include "capture/dump_writer.h"

#include "capture/stack_trace.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>

namespace msprobe::capture {

namespace fs = std::filesystem;

namespace {

// Orders stacks by content (return addresses, then extra frames) through pointers into the stored stacks.
struct StackKeyLess {
    using Key = std::pair<const std::vector<std::uintptr_t>*, const std::vector<std::string>*>;
    bool operator()(const Key& a, const Key& b) const
    {
        if (*a.first != *b.first)
            return *a.first < *b.first;
        return *a.second < *b.second;
    }
};

} // namespace

DumpWriter::DumpWriter(const DumpConfig& config)
    : m_config(config)
{
    m_thread = std::thread([this] { worker(); });
}

DumpWriter::~DumpWriter()
{
    close();
    {
        std::lock_guard lock(m_queueMutex);
        m_stop = true;
    }
    m_queueCv.notify_all();
    m_thread.join();
}

void DumpWriter::open(std::int64_t step, std::int64_t rank)
{
    auto state = std::make_shared<DirState>();
    // Steps of a training loop dump alike: room for as many records as the last one had, allocated once.
    state->entries.reserve(m_lastSizes[0]);
    state->constructIndex.reserve(m_lastSizes[1]);
    state->stacks.reserve(m_lastSizes[2]);
    state->dir = fs::path(m_config.dumpPath) / ("step" + std::to_string(step))
        / (rank >= 0 ? "rank" + std::to_string(rank) : "proc" + std::to_string(::getpid()));
    {
        std::lock_guard lock(m_errorMutex);
        m_errorKinds.clear();
        m_errorLog.clear();
        m_errorDir = state->dir;
    }
    state->dirty = true;
    m_cur = std::move(state);
    // The directory is made on the writer thread with the first files: creating inodes can take a millisecond
    // on a busy ext4, which the training thread should not pay every step. Every later job of this step (tensor
    // files, dump.json) runs after this one.
    enqueue([this, state = m_cur] {
        std::error_code ec;
        fs::create_directories(state->dir, ec);
        if (ec) {
            recordError("mkdir", "cannot create dump directory " + state->dir.string() + ": " + ec.message());
            std::lock_guard lock(state->mutex);
            state->unwritable = true;
            return;
        }
        // Only the empty files: the step may already be under way, and rendering its records here would hold
        // the lock its training thread adds them under.
        writeState(*state, true);
    });
}

std::size_t DumpWriter::addEntry(std::string name, Value body)
{
    if (!m_cur)
        return 0;
    std::lock_guard lock(m_cur->mutex);
    m_cur->dirty = true;
    m_cur->entries.emplace_back(std::move(name), std::move(body));
    m_cur->entryCount.store(m_cur->entries.size(), std::memory_order_relaxed);
    return m_cur->entries.size() - 1;
}

void DumpWriter::updateEntry(std::size_t index, const std::function<void(Value&)>& fn)
{
    if (!m_cur)
        return;
    std::lock_guard lock(m_cur->mutex);
    m_cur->dirty = true;
    if (index < m_cur->entries.size())
        fn(m_cur->entries[index].second);
}

void DumpWriter::addConstruct(const std::string& name, const std::optional<std::string>& parent)
{
    if (!m_config.extraInfo || !m_cur)
        return;
    std::lock_guard lock(m_cur->mutex);
    if (m_constructScope) {
        const std::string& scope = *m_constructScope;
        if (!m_cur->constructIndex.count(scope)) {
            m_cur->construct.emplace_back(scope, std::nullopt);
            m_cur->constructIndex.emplace(m_cur->construct.back().first, m_cur->construct.size() - 1);
            m_cur->constructCount.store(m_cur->construct.size(), std::memory_order_relaxed);
        }
    }
    const std::optional<std::string>& effective = m_constructScope ? m_constructScope : parent;
    // Nearly every name is new (an operator's call number makes it unique): appended first, so that the index is
    // looked up once, keyed by the stored copy; a name seen before takes the new parent and the copy goes.
    m_cur->construct.emplace_back(name, effective);
    const auto [it, inserted] = m_cur->constructIndex.try_emplace(m_cur->construct.back().first, m_cur->construct.size() - 1);
    if (inserted) {
        m_cur->constructCount.store(m_cur->construct.size(), std::memory_order_relaxed);
    } else {
        m_cur->construct.pop_back();
        m_cur->construct[it->second].second = effective;
    }
}

void DumpWriter::setConstructScope(std::optional<std::string> scope)
{
    if (!m_cur) {
        m_constructScope = std::move(scope);
        return;
    }
    std::lock_guard lock(m_cur->mutex);
    m_constructScope = std::move(scope);
}

void DumpWriter::addStack(std::string name, std::vector<std::uintptr_t> pcs, std::vector<std::string> extraFrames)
{
    if (!m_config.extraInfo || !m_cur)
        return;
    std::lock_guard lock(m_cur->mutex);
    m_cur->stacks.emplace_back(std::move(name), Stack { std::move(pcs), std::move(extraFrames) });
    m_cur->stackCount.store(m_cur->stacks.size(), std::memory_order_relaxed);
}

void DumpWriter::recordError(const std::string& kind, const std::string& message)
{
    std::lock_guard lock(m_errorMutex);
    if (!m_errorKinds.insert(kind).second)
        return;
    char stamp[64];
    const std::time_t now = std::time(nullptr);
    std::tm tm {};
    localtime_r(&now, &tm);
    std::strftime(stamp, sizeof stamp, "[%Y-%m-%d %H:%M:%S %z] ", &tm);
    m_errorLog += stamp + message + "\n";
    bool written = false;
    if (!m_errorDir.empty()) {
        std::ofstream out(m_errorDir / "dump_error_info.log", std::ios::binary | std::ios::trunc);
        out << m_errorLog;
        out.flush();
        written = static_cast<bool>(out);
    }
    if (!written)
        std::fprintf(stderr, "msprobe capture: %s\n", message.c_str());
}

bool DumpWriter::writeFile(const fs::path& file, const std::string& bytes)
{
    std::FILE* f = std::fopen(file.c_str(), "wb");
    if (!f) {
        recordError("open:" + std::string(std::strerror(errno)),
            "cannot write " + file.string() + ": " + std::strerror(errno));
        return false;
    }
    const std::size_t n = std::fwrite(bytes.data(), 1, bytes.size(), f);
    const int writeErrno = n != bytes.size() ? errno : 0;
    const bool closed = std::fclose(f) == 0;
    if (n != bytes.size() || !closed) {
        const int e = writeErrno ? writeErrno : errno;
        recordError("write:" + std::string(std::strerror(e)), "cannot write " + file.string() + ": " + std::strerror(e));
        return false;
    }
    return true;
}

void DumpWriter::writeTensorFile(const fs::path& dir, const std::string& name, const std::string& bytes, TensorLeaf& leaf)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (writeFile(dir / name, bytes))
        leaf.dataName = name;
}

void DumpWriter::writeTensorFileLater(fs::path dir, std::string name, std::string bytes, std::shared_ptr<TensorLeaf> leaf)
{
    const std::size_t size = bytes.size();
    {
        std::unique_lock lock(m_pendingMutex);
        // A file larger than the whole budget goes alone.
        m_pendingCv.wait(lock, [&] { return m_pendingFileBytes == 0 || m_pendingFileBytes + size <= m_maxPendingFileBytes; });
        m_pendingFileBytes += size;
    }
    enqueue([this, dir = std::move(dir), name = std::move(name), bytes = std::move(bytes), leaf = std::move(leaf)] {
        // The budget is returned however the write ends.
        struct Release {
            DumpWriter* writer;
            std::size_t size;
            ~Release()
            {
                {
                    std::lock_guard lock(writer->m_pendingMutex);
                    writer->m_pendingFileBytes -= size;
                }
                writer->m_pendingCv.notify_all();
            }
        } release { this, bytes.size() };
        writeTensorFile(dir, name, bytes, *leaf);
    });
}

void DumpWriter::writeState(DirState& snap, bool skeleton)
{
    static const decltype(snap.entries) noEntries;
    static const decltype(snap.construct) noConstruct;
    static const decltype(snap.stacks) noStacks;
    std::string dump, construct, stack;
    {
        std::lock_guard lock(snap.mutex);
        if (snap.unwritable || !(snap.dirty || skeleton))
            return;
        if (!skeleton)
            snap.dirty = false;
        const auto& m_entries = skeleton ? noEntries : snap.entries;
        const auto& m_construct = skeleton ? noConstruct : snap.construct;
        const auto& m_stacks = skeleton ? noStacks : snap.stacks;
        const fs::path tensorDir = snap.dir / "dump_tensor_data";
        dump.reserve(256 * m_entries.size() + 256);
        dump += "{\n \"task\": ";
        appendJsonString(dump, toString(m_config.task));
        dump += ",\n \"level\": ";
        appendJsonString(dump, toString(m_config.level));
        dump += ",\n \"framework\": \"pytorch\",\n \"dump_data_dir\": ";
        if (m_config.task == Task::Tensor || !m_config.tensorList.empty())
            appendJsonString(dump, tensorDir.string());
        else
            dump += "null";
        dump += ",\n \"data\": {";
        for (std::size_t k = 0; k < m_entries.size(); ++k) {
            dump += k ? ",\n  " : "\n  ";
            appendJsonString(dump, m_entries[k].first);
            dump += ": ";
            appendJson(dump, m_entries[k].second, 2);
        }
        dump += m_entries.empty() ? "}\n}" : "\n }\n}";

        if (m_config.extraInfo) {
            construct = "{";
            if (m_config.level != Level::L1) {
                for (std::size_t k = 0; k < m_construct.size(); ++k) {
                    construct += k ? ",\n " : "\n ";
                    appendJsonString(construct, m_construct[k].first);
                    construct += ": ";
                    if (m_construct[k].second)
                        appendJsonString(construct, *m_construct[k].second);
                    else
                        construct += "null";
                }
                if (!m_construct.empty())
                    construct += "\n";
            }
            construct += "}";

            // Group identical stacks, in first-appearance order. Most entries share a call site: symbolize each
            // distinct return-address list once, then merge lists that symbolize alike.
            std::map<std::pair<const std::vector<std::uintptr_t>*, const std::vector<std::string>*>, std::size_t,
                StackKeyLess>
                groupOfRaw;
            std::map<std::vector<std::string>, std::size_t> groupOf;
            std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> groups; // names, frames
            for (const auto& [name, s] : m_stacks) {
                auto raw = groupOfRaw.find({ &s.pcs, &s.extra });
                if (raw == groupOfRaw.end()) {
                    std::vector<std::string> frames = s.extra;
                    for (auto& f : symbolizeStack(s.pcs))
                        frames.push_back(std::move(f));
                    auto [it, inserted] = groupOf.emplace(frames, groups.size());
                    if (inserted)
                        groups.push_back({ {}, std::move(frames) });
                    raw = groupOfRaw.emplace(std::make_pair(&s.pcs, &s.extra), it->second).first;
                }
                groups[raw->second].first.push_back(name);
            }
            stack = "{";
            for (std::size_t g = 0; g < groups.size(); ++g) {
                stack += g ? ",\n " : "\n ";
                appendJsonString(stack, std::to_string(g));
                stack += ": [\n  [";
                for (std::size_t k = 0; k < groups[g].first.size(); ++k) {
                    stack += k ? ",\n   " : "\n   ";
                    appendJsonString(stack, groups[g].first[k]);
                }
                stack += "\n  ],\n  [";
                for (std::size_t k = 0; k < groups[g].second.size(); ++k) {
                    stack += k ? ",\n   " : "\n   ";
                    appendJsonString(stack, groups[g].second[k]);
                }
                stack += groups[g].second.empty() ? "]\n ]" : "\n  ]\n ]";
            }
            if (!groups.empty())
                stack += "\n";
            stack += "}";
        }
    }
    writeFile(snap.dir / "dump.json", dump);
    if (m_config.extraInfo) {
        writeFile(snap.dir / "construct.json", construct);
        writeFile(snap.dir / "stack.json", stack);
    }
}

void DumpWriter::enqueue(std::function<void()> job)
{
    {
        std::lock_guard lock(m_queueMutex);
        m_queue.push_back(std::move(job));
    }
    m_queueCv.notify_one();
}

void DumpWriter::post(std::function<void()> job)
{
    if (m_config.asyncDump)
        enqueue(std::move(job));
    else
        job();
}

void DumpWriter::flush()
{
    if (m_cur)
        enqueue([this, state = m_cur] { writeState(*state); });
}

void DumpWriter::drain()
{
    std::unique_lock lock(m_queueMutex);
    m_idleCv.wait(lock, [this] { return m_queue.empty() && !m_busy; });
}

void DumpWriter::close()
{
    if (!m_cur)
        return;
    m_lastSizes = { m_cur->entryCount.load(std::memory_order_relaxed), m_cur->constructCount.load(std::memory_order_relaxed),
        m_cur->stackCount.load(std::memory_order_relaxed) };
    flush();
    m_cur.reset();
}

void DumpWriter::worker()
{
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(m_queueMutex);
            m_queueCv.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty() && m_stop)
                return;
            job = std::move(m_queue.front());
            m_queue.pop_front();
            m_busy = true;
        }
        try {
            job();
        } catch (const std::exception& error) {
            recordError(std::string("job:") + error.what(), std::string("dump job failed: ") + error.what());
        } catch (...) {
            recordError("job:unknown", "dump job failed");
        }
        {
            std::lock_guard lock(m_queueMutex);
            m_busy = false;
            if (m_queue.empty())
                m_idleCv.notify_all();
        }
    }
}

} // namespace msprobe::capture
