// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the CSV reader of compare results (ours and the reference's): the table or a
// msprobe::Error; every row of a table is as wide as its header.
#include "fuzz_file.h"
#include "support/csv_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = msprobe::fuzz::scratch().write("compare_result.csv", data, size);
    msprobe::fuzz::expectResultOrError("fuzz_compare_csv", [&] {
        const msprobe::support::CsvTable table = msprobe::support::readCsvFile(file);
        for (const auto& row : table.rows)
            if (row.size() != table.header.size())
                std::abort();
    });
    return 0;
}
