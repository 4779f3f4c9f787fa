// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the .npy reader behind readTensorFile: values for the shape, or a msprobe::Error.
#include "dump/tensor_file.h"
#include "fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = msprobe::fuzz::scratch().write("tensor.npy", data, size);
    msprobe::fuzz::expectResultOrError("fuzz_npy", [&] {
        const msprobe::dump::TensorData tensor = msprobe::dump::readTensorFile(file);
        std::size_t count = 1;
        for (auto extent : tensor.shape)
            count *= static_cast<std::size_t>(extent);
        if (count != tensor.numel())
            std::abort();
    });
    return 0;
}
