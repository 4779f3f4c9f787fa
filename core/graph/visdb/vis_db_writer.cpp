// SPDX-License-Identifier: Apache-2.0
#include "graph/visdb/vis_db_writer.h"
#include "graph/visdb/json_text.h"

#include "compare/py_value.h"
#include "graph/visdb/db_image_writer.h"
#include "graph/match/distributed.h"
#include "support/sqlite_util.h"
#include "graph/visdb/vis_db_schema.h"
#include "support/error.h"
#include "support/phase_times.h"

#include <unistd.h>

#include <fstream>
#include <future>
#include <optional>
#include <unordered_map>

namespace msprobe::graph {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kChunk = 4096;

struct RowText {
    std::uint32_t node = 0;
    std::string input, output, link, subNodes;
    std::string_view inputView, outputView; // the rendered texts, wherever they live
};

// tb_nodes.node_type: the NodeOp value as text.
std::string_view nodeTypeText(NodeOp op)
{
    switch (op) {
    case NodeOp::Module: return "0";
    case NodeOp::FunctionApi: return "1";
    case NodeOp::ApiCollection: return "9";
    }
    throw support::Error("vis.db", {}, "unknown node type " + std::to_string(int(op)));
}

void renderRow(RowText& row, const Graph& graph, const Graph* other, const RenderOptions& options)
{
    const GraphNode& node = graph.node(row.node);
    if (row.node < graph.rendered.size() && !graph.rendered[row.node].input.empty()) {
        row.inputView = graph.rendered[row.node].input;
        row.outputView = graph.rendered[row.node].output;
    } else {
        const auto items = graph.nodeItems(row.node);
        appendNodeData(row.input, graph, row.node, items, false, options, nullptr);
        appendNodeData(row.output, graph, row.node, items, true, options, nullptr);
        row.inputView = row.input;
        row.outputView = row.output;
    }
    std::vector<std::string_view> ids;
    if (other && node.partner != kNoNode && node.partner < other->size())
        for (auto n : other->path(node.partner))
            ids.push_back(other->node(n).id);
    appendJsonIdList(row.link, ids);
    if (!node.children.empty()) {
        ids.clear();
        for (auto child : node.children)
            ids.push_back(graph.node(child).id);
        appendJsonIdList(row.subNodes, ids);
    }
}

std::string stackJson(const std::vector<std::string>& frames)
{
    std::string out = "[";
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (i)
            out += ", ";
        appendJsonText(out, frames[i]);
    }
    out += ']';
    return out;
}

} // namespace

void appendJsonIdList(std::string& out, const std::vector<std::string_view>& ids)
{
    out += '[';
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i)
            out += ", ";
        appendJsonText(out, ids[i]);
    }
    out += ']';
}

namespace {

std::int64_t physicalMemoryBytes()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? std::int64_t(pages) * pageSize : std::int64_t(8) << 30;
}

} // namespace

VisDbWriter::VisDbWriter(fs::path file, std::int64_t memoryBudget, support::AtomicFile::OnClash onClash)
    : m_file(std::move(file))
    , m_onClash(onClash)
{
    std::error_code ec;
    if (m_file.has_parent_path())
        fs::create_directories(m_file.parent_path(), ec);
    const std::int64_t physical = physicalMemoryBytes();
    m_memoryBudget = memoryBudget < 0 ? std::min<std::int64_t>(physical / 8, std::int64_t(4) << 30) : memoryBudget;
    m_inMemory = m_memoryBudget > 0;
    if (m_inMemory) {
        // Room for the last graph written before the budget check moves the database to disk.
        m_db = support::SqliteDb::inMemory(m_file.string(), std::max(physical / 2, m_memoryBudget * 2));
    } else {
        m_onDisk.emplace(m_file, m_onClash);
        m_db = std::make_unique<support::SqliteDb>(m_onDisk->temporaryPath(), false);
    }
    // Rows are about 1.2 kB: on 4 kB pages a fifth of the table is slack, on 64 kB pages almost none (the file
    // is 14% smaller and every index build scans less). Any SQLite reader opens either.
    m_db->exec("PRAGMA page_size=65536");
    applyWritePragmas();
    m_db->exec(kCreateNodes);
    m_db->exec(kCreateStack);
    m_db->exec(kCreateConfig);
}

void VisDbWriter::applyWritePragmas()
{
    // A fresh private database: no journal while it is written; finish() marks it WAL as the reference has it.
    m_db->exec("PRAGMA journal_mode=OFF");
    m_db->exec("PRAGMA synchronous=OFF");
    m_db->exec("PRAGMA locking_mode=EXCLUSIVE");
    m_db->exec("PRAGMA temp_store=MEMORY");
    m_db->exec("PRAGMA secure_delete=OFF"); // a new private file: nothing deleted needs wiping
    m_db->exec("PRAGMA threads=4");
    if (m_inMemory) {
        // The pages live in the memdb already: a large page cache would only hold a second copy, and the index
        // builds sort faster with small in-memory runs (the sorter's run size follows cache_size).
        m_db->exec("PRAGMA cache_size=-16384");
    } else {
        m_db->exec("PRAGMA cache_size=-524288");
        // The indexes are built after the rows, each with a full scan of the table: read it through mmap.
        m_db->exec("PRAGMA mmap_size=17179869184");
    }
}

// Multi-rank, multi-step outputs can outgrow memory: past the budget the database continues on disk.
void VisDbWriter::moveToDiskIfLarge()
{
    if (!m_inMemory || std::int64_t(m_db->memoryImage().size()) <= m_memoryBudget)
        return;
    m_onDisk.emplace(m_file, m_onClash);
    const fs::path& partial = m_onDisk->temporaryPath();
    {
        std::ofstream out(partial, std::ios::binary);
        const std::string_view image = m_db->memoryImage();
        out.write(image.data(), static_cast<std::streamsize>(image.size()));
        out.close();
        if (!out)
            throw support::Error(m_file.string(), {}, "cannot write the database to disk (disk full?)");
    }
    m_db.reset();
    m_inMemory = false;
    m_db = std::make_unique<support::SqliteDb>(partial, false);
    applyWritePragmas();
}

VisDbWriter::~VisDbWriter()
{
    m_db.reset(); // closed before m_onDisk removes an unfinished file
}

support::SqliteDb& VisDbWriter::db() { return *m_db; }

void VisDbWriter::writeGraph(const Graph& graph, const Graph* other, int step, int rank, const RenderOptions& options,
    const std::function<void(std::size_t, std::size_t)>& progress, std::int64_t firstRowId,
    const std::function<void(std::size_t)>& rowsReady)
{
    moveToDiskIfLarge();
    const std::string graphId = graph.dataSource + "_" + std::to_string(step) + "_" + std::to_string(rank);
    const std::vector<std::uint32_t> order = graph.postOrder();
    if (firstRowId <= 0)
        firstRowId = reserveRows(order.size());

    m_db->exec("BEGIN");
    support::SqliteStatement insert(*m_db, kInsertNode);
    support::SqliteStatement insertStack(*m_db, kInsertStack);

    // Stacks are numbered by first appearance in node order; equal frame lists share one id.
    std::unordered_map<std::string, std::string> stackIds;
    std::vector<const std::string*> groupId(graph.stacks.frames.size() + 2, nullptr);
    auto stackIdOf = [&](const GraphNode& node) -> const std::string& {
        const std::size_t slot = node.stack == kNoStack ? 0 : node.stack == kMissingForwardStack ? 1 : std::size_t(node.stack) + 2;
        if (groupId[slot])
            return *groupId[slot];
        std::string json = stackJson(graph.stackFrames(node));
        auto it = stackIds.find(json);
        if (it == stackIds.end()) {
            std::string id = graphId + "_" + std::to_string(stackIds.size());
            insertStack.bindText(1, id);
            insertStack.bindText(2, json);
            insertStack.run();
            it = stackIds.emplace(std::move(json), std::move(id)).first;
        }
        groupId[slot] = &it->second;
        return it->second;
    };

    auto render = [&](std::size_t begin) {
        const std::size_t end = std::min(order.size(), begin + kChunk);
        if (rowsReady)
            rowsReady(end);
        std::vector<RowText> rows(end - begin);
        for (std::size_t i = begin; i < end; ++i) {
            rows[i - begin].node = order[i];
            renderRow(rows[i - begin], graph, other, options);
        }
        return rows;
    };

    std::string id;
    std::future<std::vector<RowText>> next;
    if (!order.empty())
        next = std::async(std::launch::async, render, 0);
    for (std::size_t begin = 0; begin < order.size(); begin += kChunk) {
        std::vector<RowText> rows = next.get();
        if (begin + kChunk < order.size())
            next = std::async(std::launch::async, render, begin + kChunk);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const RowText& row = rows[i];
            const GraphNode& node = graph.node(row.node);
            // Bound without a copy: id and the texts below live until run().
            id.assign(graphId);
            id += '_';
            id += node.id;
            insert.bindInt(1, firstRowId + static_cast<std::int64_t>(begin + i));
            insert.bindStaticText(2, id);
            insert.bindStaticText(3, graphId);
            insert.bindInt(4, static_cast<std::int64_t>(begin + i));
            insert.bindStaticText(5, node.id);
            insert.bindStaticText(6, nodeTypeText(node.op));
            insert.bindStaticText(7, node.parent == kNoNode ? std::string_view {} : graph.node(node.parent).id);
            insert.bindStaticText(8, row.subNodes);
            if (node.hasPrecision())
                insert.bindDouble(9, node.precision);
            else
                insert.bindNull(9);
            if (node.overflow == OverflowLevel::None)
                insert.bindNull(10);
            else
                insert.bindStaticText(10, toString(node.overflow));
            insert.bindInt(11, node.microStep < 0 ? 0 : node.microStep);
            insert.bindStaticText(12, row.link);
            insert.bindStaticText(13, stackIdOf(node));
            if (auto info = graph.parallelMergeInfo.find(row.node); info != graph.parallelMergeInfo.end() && !info->second.empty()) {
                std::string text;
                appendJsonIdList(text, std::vector<std::string_view>(info->second.begin(), info->second.end()));
                insert.bindText(14, text);
            } else {
                insert.bindStaticText(14, "");
            }
            insert.bindStaticText(15, "{}");
            insert.bindInt(16, node.modified ? 1 : 0);
            insert.bindStaticText(17, row.inputView);
            insert.bindStaticText(18, row.outputView);
            insert.bindStaticText(19, graph.dataSource);
            if (graph.hasDumpDataDir)
                insert.bindStaticText(20, graph.dumpDataDir);
            else
                insert.bindNull(20);
            insert.bindInt(21, step);
            insert.bindInt(22, rank);
            insert.bindInt(23, node.id.starts_with("Distributed") ? 1 : 0);
            insert.run();
        }
        if (progress)
            progress(std::min(order.size(), begin + kChunk), order.size());
    }
    m_db->exec("COMMIT");
}

void VisDbWriter::createIndexes()
{
    // An index build sorts its keys in runs of about cache_size bytes. With temp_store=FILE SQLite sorts and
    // merges those runs on its worker threads (PRAGMA threads); with in-memory temp storage it never uses them.
    // Small runs keep both cores busy: the seven builds take about 30% less time.
    m_db->exec("PRAGMA temp_store=FILE");
    m_db->exec("PRAGMA cache_size=-2048");
    try {
        for (auto sql : kCreateIndexes)
            m_db->exec(sql);
    } catch (const support::Error&) {
        // No writable temporary folder (SQLite looks in $SQLITE_TMPDIR, $TMPDIR, /var/tmp, /usr/tmp, /tmp, .):
        // the failed statement left nothing behind; sort in memory instead.
        m_db->exec("PRAGMA temp_store=MEMORY");
        for (auto sql : kCreateIndexes)
            m_db->exec(sql);
    }
    m_db->exec("PRAGMA temp_store=MEMORY");
    m_db->exec(m_inMemory ? "PRAGMA cache_size=-16384" : "PRAGMA cache_size=-524288");
}

std::int64_t VisDbWriter::reserveRows(std::size_t count)
{
    const std::int64_t first = m_nextRowId;
    m_nextRowId += static_cast<std::int64_t>(count);
    return first;
}

void VisDbWriter::writeConfig(const VisConfig& config)
{
    support::SqliteStatement insert(*m_db, kInsertConfig);
    auto intList = [](const std::vector<int>& values) {
        std::string out = "[";
        for (std::size_t i = 0; i < values.size(); ++i)
            out += (i ? ", " : "") + std::to_string(values[i]);
        return out + "]";
    };
    insert.bindText(1, "1");
    insert.bindText(2, config.compare ? "compare" : "build");
    insert.bindText(3, config.compare ? taskName(config.mode) : std::string_view {});
    if (config.compare)
        insert.bindText(4, toolTipJson(config.mode));
    else
        insert.bindNull(4);
    insert.bindInt(5, config.microSteps);
    insert.bindInt(6, config.overflowCheck ? 1 : 0);
    insert.bindText(7, config.compare ? nodeColorsJson(config.mode) : std::string("null"));
    insert.bindText(8, intList(config.ranks));
    insert.bindText(9, intList(config.steps));
    insert.run();
}

void VisDbWriter::finish(bool distributedAnalysis, bool overflowCheck, const std::function<void(int)>& progress)
{
    support::PhaseTimes phases;
    std::optional<DbImageWriter> image;
    if (m_inMemory) {
        image.emplace(m_file, m_onClash);
        // The table pages are final: they go to disk while the indexes are built (checked again at the end).
        if (m_db->hasFixedImage())
            image->writeEarly(m_db->memoryImage());
    }
    createIndexes();
    phases.mark("indexes");
    if (progress)
        progress(99);
    if (distributedAnalysis)
        analyseDistributed(*m_db, overflowCheck);
    if (image) {
        image->finish(m_db->memoryImage());
        m_file = image->finalPath();
        phases.mark("file write");
        image.reset();
        m_db.reset();
        m_finished = true;
        return;
    }
    m_db->exec("PRAGMA journal_mode=WAL");
    m_db.reset();
    m_onDisk->commit();
    m_file = m_onDisk->finalPath();
    m_finished = true;
}

} // namespace msprobe::graph
