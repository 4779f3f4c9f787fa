// SPDX-License-Identifier: Apache-2.0
// A node's input_data / output_data as a vis.db stores them (ours or the reference's): the items in order,
// their fields as text, the compare view of them, and the texts re-rendered with new compare results.
#pragma once

#include "graph/match/graph_compare.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msprobe::graph {

class StoredItems {
public:
    // where names the row in errors ("db file, NPU node X"). Empty texts are empty objects.
    StoredItems(std::string_view inputData, std::string_view outputData, const std::string& where);
    ~StoredItems();
    StoredItems(StoredItems&&) noexcept;
    StoredItems& operator=(StoredItems&&) noexcept;

    std::size_t size() const;
    const std::string& name(std::size_t i) const; // "Functional.relu.0.forward.input.0"
    bool isOutput(std::size_t i) const; // lives in output_data
    // {"value": "null"}: the item was None (or had no statistics) when the graph was built.
    bool collapsed(std::size_t i) const;
    // The item's fields in stored order, values as text (non-string values as their JSON text).
    std::vector<std::pair<std::string, std::string>> fields(std::size_t i) const;
    std::string field(std::size_t i, std::string_view key) const; // "" when absent

    // The items as the compare rows read them. The result views into this object: keep it alive.
    std::vector<CompareItem> compareItems() const;
    // input_data (output == false) or output_data with every compare-result field removed and, when cells is
    // given (resultKeys(mode).size() per item, all items), the new results appended to each item.
    std::string render(bool output, compare::CompareMode mode, const std::vector<ResultCell>* cells) const;

private:
    struct Data;
    std::unique_ptr<Data> m_data;
};

// The compare mode a vis.db's tb_config.task names: "summary", "md5", "all". Throws Error otherwise.
compare::CompareMode compareModeOfTask(const std::string& task, const std::string& file);

} // namespace msprobe::graph
