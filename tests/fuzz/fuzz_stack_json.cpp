// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for readStackJson (both formats): any file gives the frames or a msprobe::Error.
#include "dump/construct_stack.h"
#include "fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = msprobe::fuzz::scratch().write("stack.json", data, size);
    msprobe::fuzz::expectResultOrError("fuzz_stack_json", [&] {
        msprobe::dump::StackInfo info = msprobe::dump::readStackJson(file);
        info.buildLookup();
        for (const auto& [name, group] : info.groupOf) // both look-ups agree on every name
            if (info.framesOf(name) != info.framesOf(name, msprobe::dump::StackInfo::nameHash(name)) || group >= info.frames.size())
                std::abort();
    });
    return 0;
}
