// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for data2db --format monitor: one monitor CSV (as a rank's actv file) imported into a
// trend.db gives a summary or a msprobe::Error.
#include "fuzz_file.h"
#include "trend/monitor_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto& scratch = msprobe::fuzz::scratch();
    scratch.write("monitor/Dec03_21-34-40-rank0-abcd1234/actv_0-1.csv", data, size);
    msprobe::fuzz::expectResultOrError("fuzz_monitor_csv", [&] {
        msprobe::trend::ImportOptions options;
        options.mapping = { { "layers", "L" } };
        const auto summary = msprobe::trend::importMonitorData(scratch.path() / "monitor", scratch.path() / "out.trend.db", options);
        if (summary.files != 1)
            std::abort();
    });
    return 0;
}
