// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the trend.db reader of `msprobe trend_compare`: any SQLite file, or other bytes, gives
// trend points or a msprobe::Error; a database compared with itself has no target on one side only. Seeds are
// trend.db files that .ci/fuzz.sh makes with data2db.
#include "fuzz_file.h"
#include "trend/trend_compare.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = msprobe::fuzz::scratch().write("fuzz.trend.db", data, size);
    msprobe::fuzz::expectResultOrError("fuzz_trend_db", [&] {
        auto points = msprobe::trend::readTrendPoints(file, "norm");
        if (points.size() > 4096)
            points.resize(4096);
        const auto result = msprobe::trend::compareTrends(points, points, 1e-6);
        if (!result.onlyInProblem.empty() || !result.onlyInBench.empty())
            std::abort();
    });
    return 0;
}
