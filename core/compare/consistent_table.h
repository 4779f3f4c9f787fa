// SPDX-License-Identifier: Apache-2.0
#pragma once

// The consistent check's table: rows from matchConsistent, the reference's cells for them, tensor metrics on
// concatenated files and the Result rules over groups of rows with the same entry name.

#include "compare/compare_engine.h"
#include "compare/compare_table.h"

namespace msprobe::compare {

// Fills table.consistentRows and table.rows (and tensor metrics, Result, Err_message) for a table whose
// options ask for --consistent_check. The dumps and item tables must be set.
void buildConsistentTable(CompareTable& table, const CompareHooks& hooks);

// np.concatenate along axis (the other dimensions must agree); `what` names the data in errors.
dump::TensorData concatenateTensors(std::vector<dump::TensorData> parts, std::size_t axis, const std::string& what);

void consistentCell(const CompareTable& table, std::size_t row, Column column, Cell& out);

} // namespace msprobe::compare
