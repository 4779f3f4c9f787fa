// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for .pt files (torch.save zip: libtorch's zip reader, then our pickle reader and strided
// decode) behind readTensorFile: values for the shape, or a msprobe::Error.
#include "dump/tensor_file.h"
#include "fuzz_file.h"

// libtorch (the zip reader's module) is loaded here, outside the per-input time limit: under ASan its
// relocation alone can take seconds.
extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    static const std::uint8_t notAZip[] = "not a zip";
    const auto file = msprobe::fuzz::scratch().write("tensor.pt", notAZip, sizeof notAZip);
    msprobe::fuzz::expectResultOrError("fuzz_pt", [&] { msprobe::dump::readTensorFile(file); });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = msprobe::fuzz::scratch().write("tensor.pt", data, size);
    msprobe::fuzz::expectResultOrError("fuzz_pt", [&] {
        const msprobe::dump::TensorData tensor = msprobe::dump::readTensorFile(file);
        std::size_t count = 1;
        for (auto extent : tensor.shape)
            count *= static_cast<std::size_t>(extent);
        if (count != tensor.numel())
            std::abort();
    });
    return 0;
}
