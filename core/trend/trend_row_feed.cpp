// SPDX-License-Identifier: Apache-2.0
#include "trend/trend_row_feed.h"

#include "support/error.h"

#include <sqlite3.h>

#include <string>

namespace msprobe::trend {

namespace {

struct FeedModuleData {
    std::size_t statCount;
    const TrendRowSource* const* current;
};

struct FeedTable {
    sqlite3_vtab base {};
    const FeedModuleData* data = nullptr;
};

struct FeedCursor {
    sqlite3_vtab_cursor base {};
    const TrendRowSource* source = nullptr;
    std::size_t at = 0, count = 0;
    TrendRowSource::Row row;

    void load()
    {
        if (at < count)
            row = source->row(at);
    }
};

int feedConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**)
{
    const auto* data = static_cast<const FeedModuleData*>(aux);
    std::string schema = "CREATE TABLE x(rank INTEGER, step INTEGER, target_id INTEGER, metric_id INTEGER";
    for (std::size_t k = 0; k < data->statCount; ++k)
        schema += ", stat" + std::to_string(k) + " REAL";
    schema += ")";
    if (const int rc = sqlite3_declare_vtab(db, schema.c_str()); rc != SQLITE_OK)
        return rc;
    auto* table = new FeedTable;
    table->data = data;
    *out = &table->base;
    return SQLITE_OK;
}

int feedBestIndex(sqlite3_vtab*, sqlite3_index_info* info)
{
    info->estimatedCost = 1e6;
    info->estimatedRows = 1000000;
    return SQLITE_OK;
}

int feedDisconnect(sqlite3_vtab* table)
{
    delete reinterpret_cast<FeedTable*>(table);
    return SQLITE_OK;
}

int feedOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out)
{
    *out = &(new FeedCursor)->base;
    return SQLITE_OK;
}

int feedClose(sqlite3_vtab_cursor* cursor)
{
    delete reinterpret_cast<FeedCursor*>(cursor);
    return SQLITE_OK;
}

int feedFilter(sqlite3_vtab_cursor* base, int, const char*, int, sqlite3_value**)
{
    auto* cursor = reinterpret_cast<FeedCursor*>(base);
    const auto* table = reinterpret_cast<const FeedTable*>(base->pVtab);
    cursor->source = *table->data->current;
    cursor->at = 0;
    cursor->count = cursor->source ? cursor->source->rowCount() : 0;
    cursor->load();
    return SQLITE_OK;
}

int feedNext(sqlite3_vtab_cursor* base)
{
    auto* cursor = reinterpret_cast<FeedCursor*>(base);
    ++cursor->at;
    cursor->load();
    return SQLITE_OK;
}

int feedEof(sqlite3_vtab_cursor* base)
{
    const auto* cursor = reinterpret_cast<const FeedCursor*>(base);
    return cursor->at >= cursor->count;
}

int feedColumn(sqlite3_vtab_cursor* base, sqlite3_context* context, int column)
{
    const auto& row = reinterpret_cast<const FeedCursor*>(base)->row;
    switch (column) {
    case 0: sqlite3_result_int64(context, row.rank); break;
    case 1: sqlite3_result_int64(context, row.step); break;
    case 2: sqlite3_result_int64(context, row.target); break;
    case 3: sqlite3_result_int64(context, row.metric); break;
    default: {
        const auto k = static_cast<std::size_t>(column - 4);
        if (k < row.values.size() && row.values[k])
            sqlite3_result_double(context, *row.values[k]);
        else
            sqlite3_result_null(context);
    }
    }
    return SQLITE_OK;
}

int feedRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid)
{
    *rowid = static_cast<sqlite3_int64>(reinterpret_cast<const FeedCursor*>(base)->at);
    return SQLITE_OK;
}

const sqlite3_module& feedModule()
{
    static const sqlite3_module module = [] {
        sqlite3_module m {};
        m.iVersion = 1;
        m.xCreate = nullptr; // eponymous only: used by name, never created in (or written to) the database
        m.xConnect = feedConnect;
        m.xBestIndex = feedBestIndex;
        m.xDisconnect = feedDisconnect;
        m.xDestroy = feedDisconnect;
        m.xOpen = feedOpen;
        m.xClose = feedClose;
        m.xFilter = feedFilter;
        m.xNext = feedNext;
        m.xEof = feedEof;
        m.xColumn = feedColumn;
        m.xRowid = feedRowid;
        return m;
    }();
    return module;
}

} // namespace

void registerTrendRowFeed(sqlite3* db, std::size_t statCount, const TrendRowSource* const* current)
{
    auto* data = new FeedModuleData { statCount, current };
    const int rc = sqlite3_create_module_v2(db, "msprobe_trend_rows", &feedModule(), data,
        [](void* owned) { delete static_cast<FeedModuleData*>(owned); });
    if (rc != SQLITE_OK) // the destructor has run
        throw support::Error(std::string("SQLite: cannot register the trend row feed: ") + sqlite3_errstr(rc));
}

} // namespace msprobe::trend
