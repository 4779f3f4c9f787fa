// SPDX-License-Identifier: Apache-2.0
// msMemScope dump reading benchmark: a generated memscope_dump CSV of `events` rows with distinct values
// (addresses, sizes, IDs, timestamps, op names cycling over 512; each block MALLOC, ACCESS, FREE inside an op,
// written in ID order with every 7th block's rows moved after later ones, as msMemScope writes blocks late;
// SYSTEM/STEP every 10 000 rows) is read, modelled, and run through every analysis. Prints MB/s of the read,
// the time of each analysis and the peak RSS.
// Usage: bench_memory_read [events (2000000)] [work dir]
#include "bench_support.h"

#include "memory/compare.h"
#include "memory/inefficient.h"
#include "memory/leaks.h"
#include "memory/memscope_reader.h"
#include "memory/owners.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace msprobe;
using namespace msprobe::memory;

namespace {

std::uint64_t writeDump(const fs::path& file, std::uint64_t events)
{
    std::ofstream out(file, std::ios::binary);
    out << "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)\n";
    std::uint64_t id = 1, block = 1, step = 1;
    std::int64_t ts = 1764753084425691000;
    std::int64_t used = 0;
    std::string late; // rows of a block written after the next one
    char line[512];
    auto row = [&](std::string& to, const char* event, const char* type, const std::string& name, const char* ptr, const std::string& attr) {
        std::snprintf(line, sizeof line, "%llu,%s,%s,%s,%lld,3101864,3101864,0,%s,%s,,\n", static_cast<unsigned long long>(id++),
            event, type, name.c_str(), static_cast<long long>(ts), ptr, attr.c_str());
        ts += 37 + static_cast<std::int64_t>(id % 11);
        to += line;
    };
    std::string chunk;
    while (id <= events) {
        if (id % 10000 < 6) {
            row(chunk, "SYSTEM", "STEP", std::to_string(step++), "N/A", "");
            continue;
        }
        const std::string op = "torch._ops.aten.op" + std::to_string(block % 512) + ".default";
        const std::uint64_t address = 0x12c041400000ull + block * 0x2000;
        const std::int64_t size = 512 + static_cast<std::int64_t>((block * 2654435761ull) % 65536);
        char ptr[24];
        std::snprintf(ptr, sizeof ptr, "0x%016llx", static_cast<unsigned long long>(address));
        std::string blockRows;
        row(chunk, "OP_LAUNCH", "ATEN_START", op, "N/A", "");
        used += size;
        row(blockRows, "MALLOC", "PTA", "N/A", ptr,
            "\"{allocation_id:" + std::to_string(block) + ",addr:" + ptr + ",size:" + std::to_string(size) + ",total:" + std::to_string(used + 4096)
                + ",used:" + std::to_string(used) + "}\"");
        row(blockRows, "ACCESS", "WRITE", op, ptr,
            "\"{allocation_id:" + std::to_string(block) + ",addr:" + ptr + ",size:" + std::to_string(size)
                + ",type:PTA,dtype:torch.float32,shape:torch.Size([" + std::to_string(size / 4) + "])}\"");
        used -= size;
        row(blockRows, "FREE", "PTA", "N/A", ptr,
            "\"{allocation_id:" + std::to_string(block) + ",addr:" + ptr + ",size:" + std::to_string(size) + ",total:" + std::to_string(used + 4096)
                + ",used:" + std::to_string(used) + "}\"");
        row(chunk, "OP_LAUNCH", "ATEN_END", op, "N/A", "");
        if (block % 7 == 0)
            late += blockRows;
        else
            chunk += blockRows;
        if (block % 7 == 3) {
            chunk += late;
            late.clear();
        }
        ++block;
        if (chunk.size() > (1 << 20)) {
            out << chunk;
            chunk.clear();
        }
    }
    out << chunk << late;
    out.close();
    return fs::file_size(file);
}

} // namespace

int main(int argc, char** argv)
{
    const std::uint64_t events = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2000000;
    const fs::path work = argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path() / "msprobe_bench_memory_read";
    fs::create_directories(work);
    const fs::path file = work / "memscope_dump_20250101000000.csv";
    const auto bytes = writeDump(file, events);
    std::printf("dump: %s, %s\n", file.c_str(), bench::formatBytes(bytes).c_str());

    bench::WallTimer timer;
    const auto trace = readMemScope(file);
    const double readSeconds = timer.seconds();
    std::printf("read:        %zu rows in %.2f s, %s\n", trace.rowsRead, readSeconds, bench::formatMBps(bytes, readSeconds).c_str());
    timer.restart();
    const auto model = buildModel(trace);
    std::printf("model:       %zu blocks, %zu ops, %u steps in %.2f s\n", model.blocks.size(), model.ops.size(), model.stepCount, timer.seconds());
    timer.restart();
    const auto leaks = findStepLeaks(trace, model);
    std::printf("leaks:       %zu step leak(s) in %.2f s\n", leaks.leaks.size(), timer.seconds());
    timer.restart();
    const auto inefficient = findInefficientBlocks(trace, model);
    std::printf("inefficient: %zu block(s) in %.2f s\n", inefficient.blocks.size(), timer.seconds());
    timer.restart();
    const auto decomposition = decompose(trace, model, { DecomposeOptions::At::Peak });
    std::printf("decompose:   %lld bytes live at the peak in %.2f s\n", static_cast<long long>(decomposition.liveBytes), timer.seconds());
    timer.restart();
    const auto compared = compareMemory({ &trace, &model, 10 }, { &trace, &model, 11 }, CompareLevel::Op, CompareMode::Net);
    std::printf("compare:     steps 10 and 11, %zu rows in %.2f s\n", compared.rows.size(), timer.seconds());
    std::printf("peak RSS:    %s (%.0f bytes per row)\n", bench::formatBytes(bench::peakRssBytes()).c_str(),
        static_cast<double>(bench::peakRssBytes()) / static_cast<double>(std::max<std::size_t>(1, trace.rowsRead)));
    fs::remove_all(work);
    return 0;
}
