// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the msMemScope dump reader (core/memory): one memscope_dump CSV gives a trace whose rows
// are in (pid, ID) order and whose every analysis runs, or a msprobe::Error.
#include "fuzz_file.h"
#include "memory/compare.h"
#include "memory/inefficient.h"
#include "memory/leaks.h"
#include "memory/memscope_reader.h"
#include "memory/owners.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = msprobe::fuzz::scratch().write("memscope_dump_20250101000000.csv", data, size);
    msprobe::fuzz::expectResultOrError("fuzz_memscope_csv", [&] {
        using namespace msprobe::memory;
        const MemTrace trace = readMemScopeCsv(file);
        for (std::size_t i = 1; i < trace.events.size(); ++i) {
            const auto& a = trace.events[i - 1];
            const auto& b = trace.events[i];
            if (a.pid > b.pid || (a.pid == b.pid && a.id >= b.id))
                std::abort();
        }
        const MemModel model = buildModel(trace);
        std::size_t mallocs = 0;
        for (const auto& e : trace.events)
            mallocs += e.kind == EventKind::Malloc;
        if (model.blocks.size() != mallocs)
            std::abort();
        formatStepLeaks(findStepLeaks(trace, model));
        formatMarkLeaks(checkLeaksBetweenMarks(trace, "test", 0));
        findInefficientBlocks(trace, model);
        if (!trace.events.empty()) {
            decompose(trace, model, { DecomposeOptions::At::Peak });
            compareCsv(compareMemory({ &trace, &model }, { &trace, &model }, CompareLevel::Op, CompareMode::Compat));
        }
    });
    return 0;
}
