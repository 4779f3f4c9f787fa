// SPDX-License-Identifier: Apache-2.0
// A synthetic msMemScope dump (memscope_dump_*.csv) shaped like a training run, for the memory benchmarks:
// steps of forward (per layer: ops that allocate activations kept until backward and temporaries freed inside the
// op), backward on the autograd thread (frees the activations, allocates gradients) and an optimizer step (frees
// the gradients); weights and optimizer state live to the end and get shadow frees. Values are distinct as in a
// real dump: sizes spread over 512 B .. 64 MiB, addresses reused from free lists per size class, allocation ids,
// timestamps, task ids, owners per layer and module, 160 op names and 96 kernel names. As msMemScope does, a
// block's MALLOC, ACCESS and FREE rows are written together when it is freed, so rows are far out of ID order.
#pragma once

#include <cstdint>
#include <functional>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace msprobe::bench {

class MemScopeDumpWriter {
public:
    static constexpr const char* kHeader = "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,"
                                           "Call Stack(Python),Call Stack(C)\n";

    // Writes about `events` rows (a few more: the shadow frees at the end) to `file`; returns the row count.
    std::uint64_t write(const std::string& file, std::uint64_t events)
    {
        m_out.open(file, std::ios::binary);
        m_out << kHeader;
        for (int w = 0; w < kLayers * 4; ++w)
            m_weights.push_back(alloc(kMain, 1u << (16 + w % 9), owner("weight", w / 4, w % 4), nullptr));
        while (m_id < events) {
            step();
            flush(false);
        }
        for (auto& [ptr, block] : m_live)
            closeBlock(block, true);
        m_live.clear();
        flush(true);
        m_out.close();
        return m_rows;
    }

private:
    static constexpr int kLayers = 48, kOpsPerLayer = 6;
    static constexpr std::int32_t kPid = 3101864, kMain = 3101864, kAutograd = 3101901;

    struct Block {
        std::uint64_t id = 0, allocationId = 0, ptr = 0;
        std::int64_t size = 0;
        std::string rows; // MALLOC and ACCESS rows, written with the FREE
    };

    std::uint64_t next() { return m_rng = m_rng * 6364136223846793005ull + 1442695040888963407ull; }
    std::uint64_t nextBelow(std::uint64_t n) { return (next() >> 33) % n; }

    std::string owner(const char* category, int layer, int module)
    {
        static const char* modules[] = { "self_attn.q_proj", "self_attn.o_proj", "mlp.up_proj", "mlp.down_proj" };
        return std::string("PTA@") + category + "@model.layers." + std::to_string(layer) + "." + modules[module % 4];
    }
    std::string opName(int layer, int op) const
    {
        static const char* ops[] = { "addmm", "mul", "add", "gelu", "softmax", "bmm", "layer_norm", "dropout",
            "transpose", "view", "matmul", "silu", "sum", "mean", "copy_", "native_layer_norm_backward" };
        static const char* overloads[] = { "default", "Tensor", "Scalar", "out", "self", "int", "dim_IntList", "memory_format", "src", "grad" };
        return std::string("torch._ops.aten.") + ops[(layer * 7 + op) % 16] + "." + overloads[(layer + op * 3) % 10];
    }

    void row(std::string& to, const char* event, const char* type, const std::string& name, std::int32_t tid,
        std::uint64_t ptr, const std::string& attr, std::uint64_t id)
    {
        char ptrText[24] = "N/A";
        if (ptr)
            std::snprintf(ptrText, sizeof ptrText, "0x%016llx", static_cast<unsigned long long>(ptr));
        m_line.resize(96 + name.size() + attr.size());
        const int n = std::snprintf(m_line.data(), m_line.size(), "%llu,%s,%s,%s,%lld,%d,%d,0,%s,%s,,\n",
            static_cast<unsigned long long>(id), event, type, name.c_str(), static_cast<long long>(m_ts), kPid, tid, ptrText,
            attr.c_str());
        to.append(m_line.data(), static_cast<std::size_t>(n));
        ++m_rows;
    }
    std::uint64_t tick()
    {
        m_ts += 200 + static_cast<std::int64_t>(nextBelow(5000));
        return m_id++;
    }
    std::string poolAttr(const Block& b, bool shadow, const std::string& ownerText)
    {
        char text[320];
        std::snprintf(text, sizeof text, "\"{allocation_id:%llu,addr:0x%016llx,size:%lld,total:%lld,used:%lld%s%s%s}\"",
            static_cast<unsigned long long>(b.allocationId), static_cast<unsigned long long>(b.ptr), static_cast<long long>(b.size),
            static_cast<long long>(m_reserved), static_cast<long long>(m_used), shadow ? ",shadow:true" : "",
            ownerText.empty() ? "" : ",owner:", ownerText.c_str());
        return text;
    }

    std::uint64_t alloc(std::int32_t tid, std::int64_t size, const std::string& ownerText, const std::string* op)
    {
        const int sizeClass = 64 - __builtin_clzll(static_cast<unsigned long long>(size));
        auto& freeList = m_free[sizeClass];
        Block b;
        if (freeList.empty()) {
            b.ptr = m_top;
            m_top += (static_cast<std::uint64_t>(size) + 0x1fff) & ~0x1fffull;
        } else {
            b.ptr = freeList.back();
            freeList.pop_back();
        }
        b.size = size;
        b.allocationId = m_nextAllocation++;
        m_used += size;
        m_reserved = std::max<std::int64_t>(m_reserved, m_used + (1ll << 22));
        b.id = tick();
        row(b.rows, "MALLOC", "PTA", "N/A", tid, b.ptr, poolAttr(b, false, ownerText), b.id);
        if (op)
            access(b, tid, *op, "WRITE");
        const auto ptr = b.ptr;
        m_live[ptr] = std::move(b);
        return ptr;
    }
    void access(Block& b, std::int32_t tid, const std::string& op, const char* type)
    {
        char attr[200];
        std::snprintf(attr, sizeof attr, "\"{allocation_id:%llu,addr:0x%016llx,size:%lld,type:PTA,dtype:torch.bfloat16,shape:torch.Size([%lld, %d])}\"",
            static_cast<unsigned long long>(b.allocationId), static_cast<unsigned long long>(b.ptr), static_cast<long long>(b.size),
            static_cast<long long>(b.size / 512 + 1), 256);
        row(b.rows, "ACCESS", type, op, tid, b.ptr, attr, tick());
    }
    void closeBlock(Block& b, bool shadow)
    {
        m_used -= b.size;
        row(b.rows, "FREE", "PTA", "N/A", shadow ? kMain : m_tid, b.ptr, poolAttr(b, shadow, ""), tick());
        m_chunk += b.rows;
    }
    void release(std::uint64_t ptr)
    {
        auto found = m_live.find(ptr);
        if (found == m_live.end())
            return;
        closeBlock(found->second, false);
        const int sizeClass = 64 - __builtin_clzll(static_cast<unsigned long long>(found->second.size));
        m_free[sizeClass].push_back(ptr);
        m_live.erase(found);
    }
    std::int64_t randomSize()
    {
        const int shift = 9 + static_cast<int>(nextBelow(18)); // 512 B .. 64 MiB
        return (1ll << shift) + static_cast<std::int64_t>(nextBelow(1ull << shift));
    }

    void op(const std::string& name, const std::function<void(const std::string&)>& body)
    {
        row(m_chunk, "OP_LAUNCH", "ATEN_START", name, m_tid, 0, "", tick());
        body(name);
        char attr[80];
        std::snprintf(attr, sizeof attr, "\"{streamId:%d,taskId:%llu}\"", m_tid == kMain ? 2 : 3, static_cast<unsigned long long>(m_task++));
        row(m_chunk, "KERNEL_LAUNCH", "KERNEL_LAUNCH", "aclnn" + name.substr(16, name.find('.', 16) - 16) + "_" + std::to_string(m_task % 96), m_tid, 0, attr, tick());
        row(m_chunk, "OP_LAUNCH", "ATEN_END", name, m_tid, 0, "", tick());
    }

    void step()
    {
        row(m_chunk, "SYSTEM", "STEP", std::to_string(++m_step), kMain, 0, "", tick());
        if (m_step == 5 || m_step == 500 || m_step == 1500) // marks A, B, C of a §2.2 check
            row(m_chunk, "MSTX", "Mark", "\"leak check\"", kMain, 0, "", tick());
        std::vector<std::vector<std::uint64_t>> saved(kLayers);
        m_tid = kMain;
        for (int layer = 0; layer < kLayers; ++layer)
            for (int k = 0; k < kOpsPerLayer; ++k)
                op(opName(layer, k), [&](const std::string& name) {
                    auto& weight = m_live[m_weights[static_cast<std::size_t>(layer * 4 + k % 4)]];
                    access(weight, m_tid, name, "READ");
                    const auto temp = alloc(m_tid, randomSize() / 8, "", &name);
                    saved[static_cast<std::size_t>(layer)].push_back(alloc(m_tid, randomSize(), owner("activation", layer, k), &name));
                    release(temp);
                });
        m_tid = kAutograd;
        for (int layer = kLayers; layer-- > 0;)
            for (int k = 0; k < kOpsPerLayer; ++k)
                op(opName(layer, k + 8), [&](const std::string& name) {
                    auto& activation = saved[static_cast<std::size_t>(layer)];
                    if (!activation.empty()) {
                        access(m_live[activation.back()], m_tid, name, "READ");
                        release(activation.back());
                        activation.pop_back();
                    }
                    if (k % 3 == 0)
                        m_grads.push_back(alloc(m_tid, 1ll << (16 + (layer + k) % 9), owner("gradient", layer, k), &name));
                });
        m_tid = kMain;
        op("torch._ops.aten._foreach_add_.List", [&](const std::string& name) {
            if (m_optimizerState.empty())
                for (int w = 0; w < kLayers * 2; ++w)
                    m_optimizerState.push_back(alloc(m_tid, 1ll << (17 + w % 8), owner("optimizer_state", w / 2, w % 4), &name));
            for (auto grad : m_grads)
                release(grad);
            m_grads.clear();
        });
    }

    void flush(bool all)
    {
        if (all || m_chunk.size() > (4u << 20)) {
            m_out << m_chunk;
            m_chunk.clear();
        }
    }

    std::ofstream m_out;
    std::string m_chunk, m_line;
    std::unordered_map<std::uint64_t, Block> m_live;
    std::unordered_map<int, std::vector<std::uint64_t>> m_free;
    std::vector<std::uint64_t> m_weights, m_grads, m_optimizerState;
    std::uint64_t m_id = 1, m_rows = 0, m_nextAllocation = 1, m_top = 0x12c041400000ull, m_rng = 0x9e3779b97f4a7c15ull, m_task = 1;
    std::int64_t m_ts = 1764753084425691000, m_used = 0, m_reserved = 0;
    std::int32_t m_tid = kMain;
    std::uint32_t m_step = 0;
};

} // namespace msprobe::bench
