// SPDX-License-Identifier: Apache-2.0
// Which bench item each row of a compare table paired with, for tests that check pairing.
#pragma once

#include "compare/compare_engine.h"

#include <map>
#include <string>

namespace msprobe::test {

// "NPU name -> bench name" of every row ("" for no partner).
inline std::map<std::string, std::string> pairsOf(const compare::CompareTable& table)
{
    std::map<std::string, std::string> out;
    for (const compare::CompareRow& row : table.rows) {
        const compare::Item* bench = table.benchItem(row);
        out[table.npu.items->name(table.npuItem(row))] = bench ? table.bench.items->name(*bench) : std::string();
    }
    return out;
}

} // namespace msprobe::test
