// SPDX-License-Identifier: Apache-2.0
#include "capture/memory/memory_csv_writer.h"

#include "support/error.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstring>

#include <unistd.h>

namespace msprobe::capture::memory {

namespace {

const char* phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Forward: return "forward";
    case Phase::Backward: return "backward";
    case Phase::Optimizer: return "optimizer";
    }
    return "";
}

void appendNumber(std::string& out, std::int64_t value)
{
    char text[24];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    out.append(text, end);
}

void appendNumber(std::string& out, std::uint64_t value)
{
    char text[24];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    out.append(text, end);
}

void appendHex(std::string& out, std::uint64_t value)
{
    char text[24];
    std::snprintf(text, sizeof text, "0x%016" PRIx64, value);
    out += text;
}

// A CSV cell in double quotes, inner quotes doubled.
void appendQuoted(std::string& out, std::string_view text)
{
    out += '"';
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
}

std::string blockAttr(std::uint64_t allocationId, const Event& e, const std::string& owner)
{
    std::string attr = "{allocation_id:";
    attr.reserve(128);
    appendNumber(attr, allocationId);
    attr += ",addr:";
    appendHex(attr, e.ptr);
    attr += ",size:";
    appendNumber(attr, e.size);
    // CPU has no caching pool (reserved is 0): total repeats used so that reserved-based ratios stay meaningful.
    attr += ",total:";
    appendNumber(attr, std::max(e.reserved, e.used));
    attr += ",used:";
    appendNumber(attr, e.used);
    if (!owner.empty()) {
        attr += ",owner:";
        attr += owner;
    }
    attr += ",step:";
    appendNumber(attr, e.step);
    attr += '}';
    return attr;
}

} // namespace

CsvWriter::CsvWriter(const std::filesystem::path& file, bool compat, bool database)
    : m_pidText(std::to_string(::getpid()))
    , m_framework(compat ? "PTA" : "TORCH_CPU")
    , m_device(compat ? "0" : "cpu")
{
    m_frameworkId = strings().intern(m_framework);
    m_activationId = strings().intern("activation");
    for (Phase phase : { Phase::Forward, Phase::Backward, Phase::Optimizer })
        m_phaseIds[static_cast<std::size_t>(phase)] = strings().intern(phaseName(phase));
    if (database)
        m_database = std::make_unique<msprobe::memory::DumpDatabaseWriter>(file);
    else {
        m_file = std::fopen(file.c_str(), "ab");
        if (!m_file)
            throw support::Error(file.string(), "", std::string("cannot create memory dump file: ") + std::strerror(errno));
        std::fprintf(m_file, "%s\n", kDumpCsvHeader);
        std::fflush(m_file);
    }
    m_thread = std::thread([this] { run(); });
}

CsvWriter::~CsvWriter()
{
    finish();
}

void CsvWriter::run()
{
    std::vector<Event> batch;
    while (!m_stop.load()) {
        m_queue.waitForEvents(20);
        // Taken under the write lock: a batch taken before it could be missing from the file when flush() returns.
        std::lock_guard lock(m_writeMutex);
        m_queue.takeAll(batch);
        drain(batch);
    }
}

void CsvWriter::drain(std::vector<Event>& batch)
{
    for (const Event& e : batch)
        handle(e);
    batch.clear();
    if (!m_out.empty() && m_file) {
        std::fwrite(m_out.data(), 1, m_out.size(), m_file);
        m_out.clear();
    } else if (!m_out.empty() && m_database) {
        try {
            m_database->append(m_out);
        } catch (const std::exception& error) { // the writer thread must not die: say it, drop the batch
            std::fprintf(stderr, "msprobe memory capture: %s\n", error.what());
        }
        m_out.clear();
    }
}

void CsvWriter::flush()
{
    std::lock_guard lock(m_writeMutex);
    if (m_finished)
        return;
    std::vector<Event> batch;
    m_queue.takeAll(batch);
    drain(batch);
    if (m_file)
        std::fflush(m_file);
}

void CsvWriter::finish()
{
    if (m_thread.joinable()) {
        m_stop = true;
        m_queue.wake();
        m_thread.join();
    }
    std::lock_guard lock(m_writeMutex);
    if (m_finished)
        return;
    std::vector<Event> batch;
    m_queue.takeAll(batch);
    drain(batch);
    writeLiveBlocks();
    drain(batch);
    if (m_file)
        std::fclose(m_file);
    m_file = nullptr;
    m_database.reset();
    m_finished = true;
}

void CsvWriter::writeLiveBlocks()
{
    std::vector<Block*> alive;
    for (auto& [address, block] : m_live)
        alive.push_back(&block);
    std::sort(alive.begin(), alive.end(), [](const Block* a, const Block* b) { return a->malloc.id < b->malloc.id; });
    for (Block* block : alive) {
        writeBlock(*block, nullptr);
        m_written[block->malloc.ptr] = block->allocationId;
    }
    m_live.clear();
}

const std::string& CsvWriter::text(std::uint32_t id)
{
    static const std::string none;
    if (id >= m_texts.size())
        m_texts.resize(id + 1, nullptr);
    if (!m_texts[id])
        m_texts[id] = strings().find(id);
    return m_texts[id] ? *m_texts[id] : none;
}

CsvWriter::Block* CsvWriter::blockContaining(std::uint64_t address)
{
    auto it = m_live.upper_bound(address);
    if (it == m_live.begin())
        return nullptr;
    --it;
    Block& block = it->second;
    return address < block.malloc.ptr + static_cast<std::uint64_t>(std::max<std::int64_t>(block.malloc.size, 1))
        ? &block
        : nullptr;
}

std::string CsvWriter::ownerOf(const Block& block)
{
    std::string owner;
    for (std::uint32_t label : block.labels) {
        if (label == 0)
            continue;
        if (!owner.empty())
            owner += '@';
        owner += text(label);
    }
    return owner;
}

void CsvWriter::appendRow(std::string& out, const Event& e, const char* event, std::string_view type,
    std::string_view name, bool withDevice, std::uint64_t ptr, std::string_view attr, std::uint32_t context)
{
    appendNumber(out, e.id);
    out += ',';
    out += event;
    out += ',';
    out += type;
    out += ',';
    out += name;
    out += ',';
    appendNumber(out, e.tsNs);
    out += ',';
    out += m_pidText;
    out += ',';
    appendNumber(out, static_cast<std::int64_t>(e.tid));
    out += ',';
    out += withDevice ? std::string_view(m_device) : std::string_view("N/A");
    out += ',';
    if (ptr)
        appendHex(out, ptr);
    else
        out += "N/A";
    out += ',';
    if (!attr.empty())
        appendQuoted(out, attr);
    out += ',';
    if (context)
        appendQuoted(out, text(context));
    out += ",\n";
}

void CsvWriter::writeBlock(Block& block, const Event* freeEvent)
{
    if (freeEvent && block.labels[kOwnerDetail1] == 0 && block.malloc.phase == Phase::Forward
        && freeEvent->phase == Phase::Backward)
        block.labels[kOwnerDetail1] = m_activationId; // made in forward, consumed by backward
    const std::string owner = ownerOf(block);
    appendRow(m_out, block.malloc, "MALLOC", m_framework, "N/A", true, block.malloc.ptr,
        blockAttr(block.allocationId, block.malloc, owner), block.malloc.context);
    m_out += block.accessRows;
    if (freeEvent)
        appendRow(m_out, *freeEvent, "FREE", m_framework, "N/A", true, freeEvent->ptr,
            blockAttr(block.allocationId, *freeEvent, std::string()), freeEvent->context);
}

void CsvWriter::handle(const Event& e)
{
    switch (e.kind) {
    case EventKind::Malloc: {
        if (auto it = m_live.find(e.ptr); it != m_live.end()) { // a stale block on a reused address
            writeBlock(it->second, nullptr);
            m_live.erase(it);
        }
        Block block;
        block.malloc = e;
        block.allocationId = m_nextAllocationId++;
        block.labels[0] = m_frameworkId;
        block.labels[2] = m_phaseIds[static_cast<std::size_t>(e.phase)];
        if (e.userOwner) { // "a@b@c" of the open MemoryOwnerScopes -> user levels 1..3
            const std::string& users = text(e.userOwner);
            std::size_t level = kOwnerUser1, start = 0;
            while (start <= users.size() && level < block.labels.size()) {
                const auto end = std::min(users.find('@', start), users.size());
                block.labels[level++] = strings().intern(std::string_view(users).substr(start, end - start));
                start = end + 1;
            }
        }
        m_live.emplace(e.ptr, std::move(block));
        return;
    }
    case EventKind::Free: {
        auto it = m_live.find(e.ptr);
        if (it == m_live.end()) { // written at a stop() while alive, or allocated before the capture (id 0)
            const auto written = m_written.find(e.ptr);
            const std::uint64_t id = written == m_written.end() ? 0 : written->second;
            if (written != m_written.end())
                m_written.erase(written);
            appendRow(m_out, e, "FREE", m_framework, "N/A", true, e.ptr, blockAttr(id, e, std::string()), e.context);
            return;
        }
        writeBlock(it->second, &e);
        m_live.erase(it);
        return;
    }
    case EventKind::Access: {
        Block* block = blockContaining(e.base);
        std::string attr = "{allocation_id:" + std::to_string(block ? block->allocationId : 0) + ",addr:";
        appendHex(attr, e.ptr);
        attr += ",size:" + std::to_string(e.size) + ",type:" + m_framework + ",dtype:" + text(e.dtype)
            + ",shape:" + text(e.shape) + "}";
        const char* type = e.sub == 1 ? "WRITE" : "READ";
        appendRow(block ? block->accessRows : m_out, e, "ACCESS", type, text(e.name), true, e.ptr, attr, 0);
        return;
    }
    case EventKind::Label: {
        if (auto it = m_live.find(e.ptr); it != m_live.end() && e.sub < it->second.labels.size())
            it->second.labels[e.sub] = e.name;
        return;
    }
    case EventKind::OpStart:
    case EventKind::OpEnd:
        appendRow(m_out, e, "OP_LAUNCH", e.kind == EventKind::OpStart ? "ATEN_START" : "ATEN_END",
            text(e.name), true, 0, {}, 0);
        return;
    case EventKind::Mark:
    case EventKind::RangeStart:
    case EventKind::RangeEnd: {
        std::string name;
        appendQuoted(name, e.kind == EventKind::RangeEnd ? "Range end from id " + std::to_string(e.extra)
                                                         : text(e.name));
        const char* type = e.kind == EventKind::Mark ? "Mark" : e.kind == EventKind::RangeStart ? "Range_start" : "Range_end";
        appendRow(m_out, e, "MSTX", type, name, true, 0, {}, 0);
        return;
    }
    case EventKind::OomTrigger: {
        std::string attr = "{func:" + text(static_cast<std::uint32_t>(e.extra)) + ",req_size:" + std::to_string(e.size) + ",flag:0";
        if (e.used >= 0)
            attr += ",total:" + std::to_string(std::max(e.reserved, e.used)) + ",used:" + std::to_string(e.used);
        attr += ",step:" + std::to_string(e.step) + "}";
        appendRow(m_out, e, "OOM_DETAIL", "OOM_TRIGGER", "N/A", true, 0, attr, e.context);
        return;
    }
    case EventKind::Step:
        appendRow(m_out, e, "SYSTEM", "STEP", std::to_string(e.extra), false, 0, {}, 0);
        return;
    case EventKind::StartTrace:
    case EventKind::StopTrace: {
        const bool start = e.kind == EventKind::StartTrace;
        const std::string attr
            = start ? "{free:" + std::to_string(e.size) + ",total:" + std::to_string(e.extra) + "}" : std::string();
        appendRow(m_out, e, "SYSTEM", start ? "START_TRACE" : "STOP_TRACE", "N/A", false, 0, attr, 0);
        if (!start) // frees are not reported while stopped: what is alive now is alive at the end of this window
            writeLiveBlocks();
        return;
    }
    }
}

} // namespace msprobe::capture::memory
