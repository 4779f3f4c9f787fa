// SPDX-License-Identifier: Apache-2.0
#include "visdbcomparerows.h"

#include "support/csv_text.h"
#include "support/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace msprobe::studio {

namespace {

// The stored keys shown under the compare CSV's titles; any other key keeps its own name.
const std::map<std::string, std::string>& csvTitles()
{
    static const std::map<std::string, std::string> titles { { "dtype", "NPU Dtype" }, { "shape", "NPU Tensor Shape" },
        { "Max", "NPU max" }, { "Min", "NPU min" }, { "Mean", "NPU mean" }, { "Norm", "NPU l2norm" }, { "md5", "NPU MD5" },
        { "requires_grad", "NPU Requires_grad" } };
    return titles;
}

// Stored keys that only say how the item was dumped.
bool hidden(const std::string& key) { return key == "type" || key == "data_name"; }

std::string cellText(const nlohmann::ordered_json& value)
{
    return value.is_string() ? value.get<std::string>() : value.dump();
}

} // namespace

std::map<Key, std::shared_ptr<const CompareRows>> compareRowsFromVisDb(const msprobe::graph::VisDb& db, const std::filesystem::path& file)
{
    std::map<Key, std::shared_ptr<const CompareRows>> out;
    if (!db.config().isCompare())
        return out;
    for (const auto& key : db.graphs()) {
        if (key.dataSource != "NPU")
            continue;
        const msprobe::graph::VisGraph graph = db.load(key.step, key.rank, key.dataSource, true);
        std::vector<std::string> columns; // stored keys, in first-seen order
        struct Item {
            std::string name, bench;
            nlohmann::ordered_json values;
        };
        std::vector<Item> items;
        for (const auto& node : graph.nodes) {
            for (const std::string* text : { &node.inputData, &node.outputData }) {
                if (text->empty())
                    continue;
                nlohmann::ordered_json data;
                try {
                    data = nlohmann::ordered_json::parse(*text);
                } catch (const std::exception& error) {
                    throw msprobe::support::Error(file.string(), "node " + node.name, std::string("stored data is not JSON: ") + error.what());
                }
                if (!data.is_object())
                    continue;
                for (auto& [name, values] : data.items()) {
                    if (!values.is_object())
                        continue;
                    for (const auto& [column, value] : values.items())
                        if (!hidden(column) && std::find(columns.begin(), columns.end(), column) == columns.end())
                            columns.push_back(column);
                    // The partner's item: the same suffix under the matched bench node.
                    std::string bench = "N/A";
                    if (node.matched() && name.starts_with(node.name))
                        bench = node.link.back() + name.substr(node.name.size());
                    items.push_back({ name, bench, values });
                }
            }
        }
        if (items.empty())
            continue;
        msprobe::support::CsvTable table;
        table.header = { "NPU Name", "Bench Name" };
        for (const std::string& column : columns) {
            const auto title = csvTitles().find(column);
            table.header.push_back(title == csvTitles().end() ? column : title->second);
        }
        for (const Item& item : items) {
            std::vector<std::string> row { item.name, item.bench };
            for (const std::string& column : columns)
                row.push_back(item.values.contains(column) ? cellText(item.values[column]) : std::string());
            table.rows.push_back(std::move(row));
            table.lines.push_back(0);
        }
        out[{ key.step, key.rank }] = compareRowsOf(std::move(table));
    }
    return out;
}

} // namespace msprobe::studio
