// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for readConstructJson: any file gives the parent table or a msprobe::Error.
#include "dump/construct_stack.h"
#include "fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = msprobe::fuzz::scratch().write("construct.json", data, size);
    msprobe::fuzz::expectResultOrError("fuzz_construct_json", [&] {
        const msprobe::dump::ConstructInfo info = msprobe::dump::readConstructJson(file);
        for (const auto& node : info.nodes) // every name is found again, and its parent is a string or none
            if (info.find(node.name) == nullptr)
                std::abort();
    });
    return 0;
}
