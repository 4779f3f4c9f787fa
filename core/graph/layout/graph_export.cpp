// SPDX-License-Identifier: Apache-2.0
#include "graph/layout/graph_export.h"
#include "support/atomic_file.h"

#include "graph/model/graph_labels.h"
#include "graph/visdb/precision_explain.h"
#include "graph/visdb/vis_db_reader.h"
#include "support/error.h"
#include "support/markup_escape.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_set>

namespace msprobe::graph {

namespace {

constexpr double kPad = 8, kHeader = 18, kLeafHeight = 22, kGap = 40;

struct Placed {
    std::uint32_t node = 0;
    double x = 0, y = 0, w = 0, h = 0;
    bool expanded = false;
};

struct Picture {
    std::vector<Placed> boxes; // parents before children
    std::vector<std::vector<layout::Point>> edges;
    double width = 0, height = 0;
};

class Composer {
public:
    Composer(const VisGraph& graph, const std::unordered_set<std::uint32_t>& expanded)
        : m_graph(graph)
        , m_expanded(expanded)
    {
    }

    Picture compose()
    {
        Picture picture;
        if (m_graph.root() == kNoVisNode)
            return picture;
        measure(m_graph.root());
        place(picture, m_graph.root(), 0, 0);
        picture.width = m_size[m_graph.root()].first;
        picture.height = m_size[m_graph.root()].second;
        return picture;
    }

private:
    bool isExpanded(std::uint32_t v) const
    {
        return !m_graph.nodes[v].children.empty() && (v == m_graph.root() || m_expanded.count(v));
    }

    void measure(std::uint32_t v)
    {
        const VisNode& node = m_graph.nodes[v];
        if (!isExpanded(v)) {
            m_size[v] = collapsedNodeSize(m_graph, v);
            return;
        }
        for (auto child : node.children)
            measure(child);
        m_layouts[v] = layout::layoutGroup(groupLayoutRequest(m_graph, v, [&](std::uint32_t child) { return m_size[child]; }));
        const auto& l = m_layouts[v];
        const double labelWidth = 6.0 * double(displayLabel(m_graph, v).size()) + 16;
        m_size[v] = { std::max(l.width + 2 * kPad, labelWidth), l.height + kHeader + 2 * kPad };
    }

    void place(Picture& picture, std::uint32_t v, double x, double y)
    {
        const auto [w, h] = m_size[v];
        picture.boxes.push_back({ v, x, y, w, h, isExpanded(v) });
        if (!isExpanded(v))
            return;
        const auto& l = m_layouts[v];
        const double ox = x + (w - l.width) / 2, oy = y + kHeader + kPad;
        const auto& children = m_graph.nodes[v].children;
        for (std::size_t i = 0; i < children.size(); ++i)
            place(picture, children[i], ox + l.boxes[i].x, oy + l.boxes[i].y);
        for (const auto& e : l.edges) {
            std::vector<layout::Point> points;
            for (const auto& p : e.points)
                points.push_back({ ox + p.x, oy + p.y });
            picture.edges.push_back(std::move(points));
        }
    }

    const VisGraph& m_graph;
    const std::unordered_set<std::uint32_t>& m_expanded;
    std::unordered_map<std::uint32_t, std::pair<double, double>> m_size;
    std::unordered_map<std::uint32_t, layout::LayoutResult> m_layouts;
};

std::unordered_set<std::uint32_t> chooseExpanded(const VisGraph& graph, const PictureOptions& options)
{
    std::unordered_set<std::uint32_t> expanded;
    if (!options.expanded.empty()) {
        for (const auto& name : options.expanded)
            if (auto v = graph.find(name); v != kNoVisNode)
                expanded.insert(v);
        return expanded;
    }
    std::size_t visible = graph.root() == kNoVisNode ? 0 : graph.nodes[graph.root()].children.size();
    // Open the path to every problem node (or everything), smallest depth first, within the budget.
    std::vector<std::uint32_t> wanted;
    for (std::uint32_t v = 0; v < graph.nodes.size(); ++v) {
        const PrecisionLevel level = levelOf(graph.nodes[v]);
        if (options.expandAll ? !graph.nodes[v].children.empty() : (level == PrecisionLevel::Warning || level == PrecisionLevel::Error))
            wanted.push_back(v);
    }
    for (auto v : wanted) {
        std::vector<std::uint32_t> chain;
        for (std::uint32_t p = options.expandAll ? v : graph.nodes[v].parent; p != kNoVisNode && p != graph.root();
             p = graph.nodes[p].parent) {
            chain.push_back(p);
            if (chain.size() > graph.nodes.size())
                break;
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            if (expanded.count(*it))
                continue;
            if (visible + graph.nodes[*it].children.size() > options.maxNodes)
                return expanded;
            expanded.insert(*it);
            visible += graph.nodes[*it].children.size();
        }
    }
    return expanded;
}


std::string fillOf(const VisGraph& graph, const VisNode& node, bool compare, bool expanded)
{
    if (node.type == 9 || node.type == 8 || !compare)
        return "#FFFFFF";
    if (graph.dataSource == "Bench")
        return node.matched() ? "#FFFFFF" : "#C7C7C7";
    if (expanded && !node.hasPrecision())
        return "#FFFFFF";
    return std::string(colourOf(levelOf(node)));
}

void appendSvg(std::string& out, const VisGraph& graph, const Picture& picture, double dx, bool compare)
{
    char buf[256];
    const auto summary = summarizeSubtrees(graph);
    for (const auto& b : picture.boxes) {
        const VisNode& node = graph.nodes[b.node];
        const std::string fill = fillOf(graph, node, compare, b.expanded);
        const char* dash = node.type == 9 ? " stroke-dasharray=\"15,1\"" : node.type == 8 ? " stroke-dasharray=\"2,1\"" : "";
        std::snprintf(buf, sizeof buf, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"5\" fill=\"%s\" stroke=\"#666666\"%s>",
            b.x + dx, b.y, b.w, b.h, fill.c_str(), dash);
        out += buf;
        out += "<title>" + support::markupEscaped(node.name) + "</title></rect>\n";
        const double ty = b.expanded ? b.y + 13 : b.y + b.h / 2 + 4;
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" font-family=\"sans-serif\" text-anchor=\"middle\">",
            b.x + dx + b.w / 2, ty);
        out += buf;
        out += support::markupEscaped(displayLabel(graph, b.node)) + "</text>\n";
        // A collapsed module tells what it hides: the worst level below and how many nodes are bad.
        const SubtreeSummary& hidden = summary[b.node];
        if (!b.expanded && !node.children.empty() && compare && hidden.bad() > 0) {
            std::snprintf(buf, sizeof buf,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"%s\" stroke=\"#333333\"/><text x=\"%.1f\" y=\"%.1f\" "
                "font-size=\"8\" text-anchor=\"middle\">%zu</text>\n",
                b.x + dx + b.w, b.y, std::string(colourOf(hidden.worst)).c_str(), b.x + dx + b.w, b.y + 3, hidden.bad());
            out += buf;
        }
    }
    for (const auto& edge : picture.edges) {
        out += "<polyline fill=\"none\" stroke=\"#999999\" points=\"";
        for (const auto& p : edge) {
            std::snprintf(buf, sizeof buf, "%.1f,%.1f ", p.x + dx, p.y);
            out += buf;
        }
        out += "\"/>\n";
    }
}

// All or nothing, as every output: an interrupted or failed write leaves no partial picture (nor replaces one).
void writeText(const std::filesystem::path& file, const std::string& text)
{
    support::AtomicFile out(file);
    out.write(text);
    out.commit();
}

// Graphviz contexts share global state (plugin loading, the cgraph allocator): one user at a time.
std::mutex& graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

// PNG through Graphviz: the composed boxes become pinned nodes, rendered by its cairo/gd plugin.
void writePng(const std::filesystem::path& file, const std::vector<std::pair<const VisGraph*, Picture>>& sides,
    const std::vector<double>& offsets, double height, bool compare)
{
    std::string offered;
    if (!pngExportAvailable(&offered))
        throw support::Error(file.string(), {},
            "PNG export needs Graphviz's cairo or gd renderer plugin (Debian package libgvc6, registered with "
            "`dot -c`); this Graphviz offers only: "
            + (offered.empty() ? std::string("no output devices") : offered) + ". Export SVG instead.");
    std::lock_guard<std::mutex> lock(graphvizMutex());
    GVC_t* gvc = gvContext();
    Agraph_t* g = agopen(const_cast<char*>("picture"), Agundirected, nullptr);
    auto set = [](void* obj, const char* key, const std::string& value) {
        agsafeset(obj, const_cast<char*>(key), const_cast<char*>(value.c_str()), const_cast<char*>(""));
    };
    set(g, "splines", "line");
    set(g, "outputorder", "nodesfirst");
    int counter = 0;
    char buf[64];
    for (std::size_t s = 0; s < sides.size(); ++s) {
        const VisGraph& graph = *sides[s].first;
        for (const auto& b : sides[s].second.boxes) {
            const VisNode& node = graph.nodes[b.node];
            Agnode_t* n = agnode(g, const_cast<char*>(("n" + std::to_string(counter++)).c_str()), 1);
            std::snprintf(buf, sizeof buf, "%.2f,%.2f!", b.x + offsets[s] + b.w / 2, height - (b.y + b.h / 2));
            set(n, "pos", buf);
            set(n, "shape", "box");
            set(n, "style", "rounded,filled");
            set(n, "fixedsize", "true");
            set(n, "width", std::to_string(b.w / 72.0));
            set(n, "height", std::to_string(b.h / 72.0));
            set(n, "fillcolor", fillOf(graph, node, compare, b.expanded));
            set(n, "fontsize", "8");
            set(n, "labelloc", b.expanded ? "t" : "c");
            set(n, "label", displayLabel(graph, b.node));
        }
    }
    support::AtomicFile out(file); // Graphviz writes by path: into the temporary, renamed once whole
    if (gvLayout(gvc, g, "nop") != 0 || gvRenderFilename(gvc, g, "png", out.temporaryPath().string().c_str()) != 0) {
        agclose(g);
        gvFreeContext(gvc);
        throw support::Error(file.string(), {}, "Graphviz cannot render PNG here (its cairo or gd plugin is missing); use SVG");
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    out.commit();
}

} // namespace

layout::LayoutRequest groupLayoutRequest(const VisGraph& graph, std::uint32_t group,
    const std::function<std::pair<double, double>(std::uint32_t child)>& sizeOf)
{
    layout::LayoutRequest request;
    const auto& children = graph.nodes[group].children;
    for (std::size_t i = 0; i < children.size(); ++i) {
        const auto [w, h] = sizeOf(children[i]);
        request.nodes.push_back({ w, h });
        if (i)
            request.edges.push_back({ std::uint32_t(i - 1), std::uint32_t(i) });
    }
    return request;
}

std::pair<double, double> collapsedNodeSize(const VisGraph& graph, std::uint32_t node)
{
    return { std::max(60.0, 6.0 * double(displayLabel(graph, node).size()) + 16), kLeafHeight };
}

std::uint64_t expansionKey(const VisGraph& graph, std::uint32_t group, const std::unordered_set<std::uint32_t>& expanded)
{
    // FNV-1a over the expanded descendants in tree order.
    std::uint64_t hash = 1469598103934665603ull;
    std::vector<std::uint32_t> stack(graph.nodes[group].children.rbegin(), graph.nodes[group].children.rend());
    while (!stack.empty()) {
        const std::uint32_t v = stack.back();
        stack.pop_back();
        if (!expanded.count(v))
            continue;
        hash = (hash ^ v) * 1099511628211ull;
        for (auto it = graph.nodes[v].children.rbegin(); it != graph.nodes[v].children.rend(); ++it)
            stack.push_back(*it);
    }
    return hash;
}

std::string renderGraphSvg(const VisGraph& graph, const PictureOptions& options)
{
    const auto expanded = chooseExpanded(graph, options);
    const Picture picture = Composer(graph, expanded).compose();
    std::string out;
    char buf[160];
    std::snprintf(buf, sizeof buf, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n", picture.width + 2,
        picture.height + 2);
    out += buf;
    appendSvg(out, graph, picture, 1, true);
    out += "</svg>\n";
    return out;
}

bool pngExportAvailable(std::string* offered)
{
    std::lock_guard<std::mutex> lock(graphvizMutex());
    GVC_t* gvc = gvContext();
    int count = 0;
    char** devices = gvPluginList(gvc, "device", &count, nullptr);
    bool png = false;
    std::string list;
    for (int i = 0; devices && i < count; ++i) {
        const std::string_view device = devices[i];
        png = png || device == "png";
        list += (i ? " " : "");
        list += device;
        std::free(devices[i]);
    }
    std::free(devices);
    gvFreeContext(gvc);
    if (offered)
        *offered = std::move(list);
    return png;
}

void exportVisDbPicture(const std::filesystem::path& database, const std::filesystem::path& pictureFile, PictureFormat format,
    const PictureOptions& options)
{
    // A database with no -wal file has nothing pending from a writer: read it as a snapshot, which leaves no
    // -wal/-shm files beside it (graph_visualize --svg reads the database it has just committed).
    std::error_code ec;
    const bool pendingWrites = std::filesystem::exists(database.string() + "-wal", ec);
    VisDb db(database, pendingWrites ? VisDb::Access::Shared : VisDb::Access::Snapshot);
    const bool compare = db.config().isCompare();
    VisGraph npu = db.load(options.step, options.rank, "NPU");
    if (npu.nodes.empty())
        throw support::Error(database.string(), {}, "no NPU graph for step " + std::to_string(options.step) + " rank " + std::to_string(options.rank));
    std::vector<std::pair<const VisGraph*, Picture>> sides;
    const auto npuExpanded = chooseExpanded(npu, options);
    sides.emplace_back(&npu, Composer(npu, npuExpanded).compose());
    VisGraph bench;
    if (compare) {
        bench = db.load(options.step, options.rank, "Bench");
        std::unordered_set<std::uint32_t> benchExpanded;
        for (auto v : npuExpanded)
            if (!npu.nodes[v].link.empty())
                if (auto b = bench.find(npu.nodes[v].link.back()); b != kNoVisNode)
                    benchExpanded.insert(b);
        sides.emplace_back(&bench, Composer(bench, benchExpanded).compose());
    }
    std::vector<double> offsets;
    double width = 0, height = 0;
    for (const auto& side : sides) {
        offsets.push_back(width + 1);
        width += side.second.width + kGap;
        height = std::max(height, side.second.height);
    }
    if (format == PictureFormat::Png) {
        writePng(pictureFile, sides, offsets, height, compare);
        return;
    }
    std::string out;
    char buf[160];
    std::snprintf(buf, sizeof buf, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n", width, height + 2);
    out += buf;
    for (std::size_t s = 0; s < sides.size(); ++s)
        appendSvg(out, *sides[s].first, sides[s].second, offsets[s], compare);
    out += "</svg>\n";
    writeText(pictureFile, out);
}

} // namespace msprobe::graph
