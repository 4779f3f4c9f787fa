// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the tst_graph_* suites: small dump folders written on the fly and vis.db row dumps.
// (Kept out of the test .cpp files: moc mis-parses raw strings with unbalanced braces.)
#pragma once

#include "support/sqlite_util.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace msprobe::test {

inline std::filesystem::path graphData() { return dataDir() / "graph"; }
inline std::filesystem::path refOutputs() { return dataDir() / "msprobe-ref" / "outputs" / "graph_visualize"; }

// One tb_nodes row: column name -> text ("NULL" for SQL NULL, numbers as SQLite prints them).
using DbRow = std::map<std::string, std::string>;

inline std::string sqlText(msprobe::support::SqliteStatement& query, int column)
{
    switch (query.columnType(column)) {
    case 5: return "NULL"; // SQLITE_NULL
    case 1: return std::to_string(query.columnInt(column)); // SQLITE_INTEGER
    case 2: { // SQLITE_FLOAT, as Python's str() would print 0.5
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", query.columnDouble(column));
        return buf;
    }
    default: return std::string(query.columnText(column));
    }
}

inline std::vector<DbRow> readRows(const std::filesystem::path& db, const std::string& sql)
{
    msprobe::support::SqliteDb handle(db, true);
    msprobe::support::SqliteStatement query(handle, sql);
    std::vector<DbRow> rows;
    while (query.step()) {
        DbRow row;
        for (int c = 0; c < query.columnCount(); ++c)
            row[std::string(query.columnName(c))] = sqlText(query, c);
        rows.push_back(std::move(row));
    }
    return rows;
}

// The only *.vis.db file in a folder.
inline std::filesystem::path onlyVisDb(const std::filesystem::path& dir)
{
    std::filesystem::path found;
    for (const auto& item : std::filesystem::directory_iterator(dir))
        if (item.path().string().ends_with(".vis.db"))
            found = item.path();
    return found;
}

// json.dumps(value) as Python writes it: ", " and ": " separators, non-ASCII escaped.
inline void pyDump(std::string& out, const nlohmann::ordered_json& value)
{
    if (value.is_object()) {
        out += '{';
        bool first = true;
        for (const auto& [key, item] : value.items()) {
            out += first ? "" : ", ";
            first = false;
            out += nlohmann::ordered_json(key).dump(-1, ' ', true);
            out += ": ";
            pyDump(out, item);
        }
        out += '}';
    } else if (value.is_array()) {
        out += '[';
        for (std::size_t i = 0; i < value.size(); ++i) {
            out += i ? ", " : "";
            pyDump(out, value[i]);
        }
        out += ']';
    } else {
        out += value.dump(-1, ' ', true);
    }
}

inline std::string pyDump(const nlohmann::ordered_json& value)
{
    std::string out;
    pyDump(out, value);
    return out;
}

// gunzip -k into a scratch folder (the reference outputs are stored compressed).
inline std::filesystem::path gunzipTo(const std::filesystem::path& gz, const std::filesystem::path& dir)
{
    const auto out = dir / gz.stem();
    const std::string command = "gzip -dc '" + gz.string() + "' > '" + out.string() + "'";
    if (std::system(command.c_str()) != 0)
        return {};
    return out;
}

inline std::filesystem::path onlyGz(const std::filesystem::path& dir)
{
    for (const auto& item : std::filesystem::directory_iterator(dir))
        if (item.path().extension() == ".gz")
            return item.path();
    return {};
}

} // namespace msprobe::test

namespace msprobe::test {

using OJson = nlohmann::ordered_json;

inline OJson tensorJson(double max, double min, double mean, double norm, bool requiresGrad = true)
{
    OJson t;
    t["type"] = "torch.Tensor";
    t["dtype"] = "torch.float32";
    t["shape"] = { 2, 4 };
    t["Max"] = max;
    t["Min"] = min;
    t["Mean"] = mean;
    t["Norm"] = norm;
    t["requires_grad"] = requiresGrad;
    return t;
}

inline OJson forwardEntry(const OJson& input, const OJson& output)
{
    OJson e;
    e["input_args"] = OJson::array({ input });
    e["input_kwargs"] = OJson::object();
    e["output"] = OJson::array({ output });
    return e;
}

inline OJson backwardEntry(const OJson& input, const OJson& output)
{
    OJson e;
    e["input"] = OJson::array({ input });
    e["output"] = OJson::array({ output });
    return e;
}

// Writes construct.json, dump.json and stack.json of one rank directory.
inline void writeRankDir(const std::filesystem::path& dir, const OJson& construct, const OJson& data, const OJson& stack = OJson::object(),
    const std::string& task = "statistics")
{
    OJson dump;
    dump["task"] = task;
    dump["level"] = "mix";
    dump["framework"] = "pytorch";
    dump["dump_data_dir"] = nullptr;
    dump["data"] = data;
    writeFile(dir / "construct.json", construct.dump(1));
    writeFile(dir / "dump.json", dump.dump(1));
    writeFile(dir / "stack.json", stack.dump(1));
}

} // namespace msprobe::test
