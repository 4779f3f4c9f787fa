// SPDX-License-Identifier: Apache-2.0
// The rows of an SQL query on a database file as sorted "a|b|c" texts (NULL as "NULL", reals as %.17g), so a
// test compares two databases, or a database with a golden text, row for row.
#pragma once

#include "support/sqlite_util.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace msprobe::test {

inline std::vector<std::string> queryRows(const std::filesystem::path& db, const std::string& sql)
{
    msprobe::support::SqliteDb file(db, true);
    msprobe::support::SqliteStatement query(file, sql);
    std::vector<std::string> rows;
    while (query.step()) {
        std::string row;
        for (int c = 0; c < query.columnCount(); ++c) {
            row += c ? "|" : "";
            if (query.isNull(c))
                row += "NULL";
            else if (query.columnType(c) == 2) {
                char text[40];
                std::snprintf(text, sizeof text, "%.17g", query.columnDouble(c));
                row += text;
            } else
                row += std::string(query.columnText(c));
        }
        rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

} // namespace msprobe::test
