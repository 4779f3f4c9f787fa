// SPDX-License-Identifier: Apache-2.0
// Writes small msMemScope dumps row by row for the memory tests: IDs count from 1, timestamps advance 10 ns a row.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace msprobe::test {

class MemDumpBuilder {
public:
    static constexpr const char* kHeader
        = "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)\n";

    std::string text = kHeader;
    std::uint64_t nextId = 1;
    std::int64_t nextTs = 1000;
    int pid = 100, tid = 100;
    std::string device = "0";

    void row(const std::string& event, const std::string& type, const std::string& name, const std::string& ptr,
        const std::string& attr)
    {
        text += std::to_string(nextId++) + "," + event + "," + type + "," + name + "," + std::to_string(nextTs) + ","
            + std::to_string(pid) + "," + std::to_string(tid) + "," + device + "," + ptr + ","
            + (attr.empty() ? "" : "\"" + attr + "\"") + ",,\n";
        nextTs += 10;
    }
    static std::string hex(std::uint64_t ptr)
    {
        char text[24];
        std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(ptr));
        return text;
    }
    void malloc(const std::string& pool, std::uint64_t ptr, std::int64_t size, std::uint64_t allocationId, std::int64_t used = -1,
        const std::string& extra = "")
    {
        row("MALLOC", pool, "N/A", hex(ptr),
            "{allocation_id:" + std::to_string(allocationId) + ",addr:" + hex(ptr) + ",size:" + std::to_string(size)
                + (used >= 0 ? ",total:" + std::to_string(used) + ",used:" + std::to_string(used) : "") + extra + "}");
    }
    void free(const std::string& pool, std::uint64_t ptr, std::int64_t size, std::uint64_t allocationId, std::int64_t used = -1,
        const std::string& extra = "")
    {
        row("FREE", pool, "N/A", hex(ptr),
            "{allocation_id:" + std::to_string(allocationId) + ",addr:" + hex(ptr) + ",size:" + std::to_string(size)
                + (used >= 0 ? ",total:" + std::to_string(used) + ",used:" + std::to_string(used) : "") + extra + "}");
    }
    void access(const std::string& op, std::uint64_t ptr, std::int64_t size, std::uint64_t allocationId)
    {
        row("ACCESS", "READ", op, hex(ptr),
            "{allocation_id:" + std::to_string(allocationId) + ",addr:" + hex(ptr) + ",size:" + std::to_string(size)
                + ",type:PTA,dtype:torch.float32,shape:torch.Size([2, 3])}");
    }
    void opStart(const std::string& op) { row("OP_LAUNCH", "ATEN_START", op, "N/A", ""); }
    void opEnd(const std::string& op) { row("OP_LAUNCH", "ATEN_END", op, "N/A", ""); }
    void step(int n) { row("SYSTEM", "STEP", std::to_string(n), "N/A", ""); }
    // An OOM_DETAIL row: type OOM_TRIGGER (attr func, req_size, flag) or OOM_RECENT_ALLOC / OOM_TOP_ALLOC (pool,
    // ptr, size, timestamp).
    void oom(const std::string& type, const std::string& attr) { row("OOM_DETAIL", type, "N/A", "N/A", attr); }
    void mark(const std::string& message) { row("MSTX", "Mark", "\"\"\"" + message + "\"\"\"", "N/A", ""); }
};

// A late deallocation: allocation 1 (z, 64 bytes at 0x10) is read by op1 and freed by op3, two ops after its last
// use, while op2 allocates allocation 2 (w, 32 bytes at 0x20).
inline MemDumpBuilder lateDeallocationTrace()
{
    MemDumpBuilder d;
    d.opStart("op0");
    d.malloc("PTA", 0x10, 64, 1); // z
    d.opEnd("op0");
    d.opStart("op1");
    d.access("op1", 0x10, 64, 1);
    d.opEnd("op1");
    d.opStart("op2");
    d.malloc("PTA", 0x20, 32, 2); // w
    d.opEnd("op2");
    d.opStart("op3");
    d.free("PTA", 0x10, 64, 1);
    d.opEnd("op3");
    return d;
}

} // namespace msprobe::test
