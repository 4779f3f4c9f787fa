// SPDX-License-Identifier: Apache-2.0
#include "graph/layout/graph_layout.h"

#include "support/error.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cstdio>
#include <mutex>

namespace msprobe::graph::layout {

namespace {

// Graphviz keeps global state (contexts, attribute dictionaries, error handlers): one job at a time.
std::mutex& graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

GVC_t* context()
{
    static GVC_t* gvc = gvContext();
    return gvc;
}

std::string number(double value)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", value);
    return buf;
}

char* cstr(const char* text) { return const_cast<char*>(text); }

} // namespace

LayoutResult layoutGroup(const LayoutRequest& request, const LayoutOptions& options, const CancelToken& cancel)
{
    if (request.nodes.size() > options.fallbackAbove)
        return fallbackLayout(request, options, cancel);
    LayoutResult result;
    if (cancel.cancelled()) {
        result.cancelled = true;
        return result;
    }
    const bool tuned = request.nodes.size() > options.tunedAbove;
    result.engine = tuned ? Engine::DotTuned : Engine::Dot;
    std::lock_guard<std::mutex> lock(graphvizMutex());
    if (cancel.cancelled()) {
        result.cancelled = true;
        return result;
    }
    GVC_t* gvc = context();
    if (!gvc)
        throw support::Error("Graphviz could not create a context");
    Agraph_t* g = agopen(cstr("group"), Agdirected, nullptr);
    agattr(g, AGRAPH, cstr("rankdir"), cstr("TB"));
    agattr(g, AGRAPH, cstr("nodesep"), cstr(number(options.nodeSep / 72.0).c_str()));
    agattr(g, AGRAPH, cstr("ranksep"), cstr(number(options.rankSep / 72.0).c_str()));
    agattr(g, AGRAPH, cstr("splines"), cstr(tuned ? "line" : "polyline"));
    if (tuned) {
        const std::string limit = number(options.nslimit);
        agattr(g, AGRAPH, cstr("nslimit"), cstr(limit.c_str()));
        agattr(g, AGRAPH, cstr("nslimit1"), cstr(limit.c_str()));
        agattr(g, AGRAPH, cstr("mclimit"), cstr("0.3"));
        agattr(g, AGRAPH, cstr("remincross"), cstr("false"));
    }
    agattr(g, AGNODE, cstr("shape"), cstr("box"));
    agattr(g, AGNODE, cstr("fixedsize"), cstr("true"));
    agattr(g, AGNODE, cstr("label"), cstr(""));
    Agsym_t* widthSym = agattr(g, AGNODE, cstr("width"), cstr("0.75"));
    Agsym_t* heightSym = agattr(g, AGNODE, cstr("height"), cstr("0.5"));
    agattr(g, AGEDGE, cstr("arrowhead"), cstr("none"));

    std::vector<Agnode_t*> nodes(request.nodes.size());
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        const std::string name = "n" + std::to_string(i);
        nodes[i] = agnode(g, cstr(name.c_str()), 1);
        agxset(nodes[i], widthSym, cstr(number(request.nodes[i].width / 72.0).c_str()));
        agxset(nodes[i], heightSym, cstr(number(request.nodes[i].height / 72.0).c_str()));
    }
    std::vector<Agedge_t*> edges(request.edges.size(), nullptr);
    for (std::size_t i = 0; i < request.edges.size(); ++i) {
        const auto& e = request.edges[i];
        if (e.from < nodes.size() && e.to < nodes.size())
            edges[i] = agedge(g, nodes[e.from], nodes[e.to], nullptr, 1);
    }
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        throw support::Error("Graphviz dot layout failed (is the dot layout plugin installed?)");
    }
    const boxf bb = GD_bb(g);
    result.width = bb.UR.x - bb.LL.x;
    result.height = bb.UR.y - bb.LL.y;
    auto toPoint = [&](pointf p) { return Point { p.x - bb.LL.x, bb.UR.y - p.y }; };
    result.boxes.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Point centre = toPoint(ND_coord(nodes[i]));
        const double w = ND_width(nodes[i]) * 72.0, h = ND_height(nodes[i]) * 72.0;
        result.boxes[i] = { centre.x - w / 2, centre.y - h / 2, w, h };
    }
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (!edges[i])
            continue;
        EdgePath path { request.edges[i].from, request.edges[i].to, {} };
        if (const splines* spl = ED_spl(edges[i]); spl && spl->size > 0) {
            const bezier& bz = spl->list[0];
            if (bz.sflag)
                path.points.push_back(toPoint(bz.sp));
            // The knots of a piecewise cubic Bezier; with polyline/line routing they are the bends.
            for (int k = 0; k < bz.size; k += 3)
                path.points.push_back(toPoint(bz.list[k]));
            if (bz.eflag)
                path.points.push_back(toPoint(bz.ep));
        }
        result.edges.push_back(std::move(path));
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    result.cancelled = cancel.cancelled();
    return result;
}

} // namespace msprobe::graph::layout
