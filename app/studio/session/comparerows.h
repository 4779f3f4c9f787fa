// SPDX-License-Identifier: Apache-2.0
// The rows of one compare result as the studio's table shows them: a table compared here (core CompareTable,
// cells rendered on demand, exportable with the CLI's writers) or a compare_result CSV read from disk.
#pragma once

#include "compare/compare_table.h"
#include "support/csv_text.h"

#include <QString>

#include <memory>
#include <utility>
#include <vector>

namespace msprobe::graph {
class VisGraph;
}

namespace msprobe::studio {

enum class RowResult { None, Pass, Warning, Error };

class CompareRows {
public:
    virtual ~CompareRows() = default;
    virtual int rowCount() const = 0;
    virtual int columnCount() const = 0;
    virtual QString header(int column) const = 0;
    virtual QString text(int row, int column) const = 0;
    virtual RowResult result(int row) const = 0;
    // The NPU item name of the row ("Functional.linear.0.forward.input.0").
    virtual QString npuName(int row) const = 0;
    // The core table when compared here (exports need it); null for a CSV.
    virtual const msprobe::compare::CompareTable* table() const { return nullptr; }
    // The step and rank the row was compared for; {-1, -1} when the rows belong to one graph pair.
    virtual std::pair<int, int> origin(int) const { return { -1, -1 }; }

    // Column index by header title, or -1.
    int column(const QString& title) const;
};

std::shared_ptr<const CompareRows> compareRowsOf(std::shared_ptr<const msprobe::compare::CompareTable> table);
std::shared_ptr<const CompareRows> compareRowsOf(msprobe::support::CsvTable csv);

// Several steps' and ranks' results in one table, in (step, rank) order, with "Step" and "Rank" columns first.
// Columns are taken from the first part and matched by title in the others (empty when a part lacks one).
struct CompareRowsPart {
    int step = 0, rank = 0;
    std::shared_ptr<const CompareRows> rows;
};
std::shared_ptr<const CompareRows> combinedCompareRows(std::vector<CompareRowsPart> parts);

RowResult rowResultOf(const QString& resultCell);

// The graph node an item belongs to: the longest dot-separated prefix of the item name that names a node
// ("Module.head.Linear.parameters_grad.0.bias" -> "Module.head.Linear.parameters_grad.0"); empty when none.
QString nodeOwningItem(const msprobe::graph::VisGraph& graph, const QString& itemName);

} // namespace msprobe::studio
