// SPDX-License-Identifier: Apache-2.0
#include "graphdiffview.h"

#include "graph/visdb/error_magnitude.h"
#include "graph/visdb/node_details.h"
#include "graph/visdb/stored_items.h"

#include "graphlegend.h"
#include "graphsideview.h"
#include "graphviewsync.h"
#include "nodelistfilter.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QPixmap>
#include <QPainter>
#include <QPalette>
#include <QSplitter>
#include <QStandardItemModel>
#include <QSvgGenerator>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

using namespace msprobe::graph;
using Side = StudioFocus::Side;

namespace {

constexpr double kExportGap = 40, kExportTitle = 28, kExportMargin = 24, kExportMinLegendWidth = 640, kMaxExportPixels = 16384;

Side otherSide(Side side) { return side == Side::Problem ? Side::Bench : Side::Problem; }

QString nameOf(const VisGraph* graph, std::uint32_t node) { return QString::fromStdString(graph->nodes[node].name); }

QWidget* titledPane(const QString& title, QWidget* content, QWidget* parent)
{
    auto* pane = new QWidget(parent);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title), pane);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return pane;
}

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    return button;
}

} // namespace

GraphDiffView::GraphDiffView(QWidget* parent)
    : QWidget(parent)
    , m_problemView(new GraphSideView(false, this))
    , m_benchView(new GraphSideView(true, this))
{
    buildUi();
    setStudioFocus(nullptr);
}

GraphDiffView::~GraphDiffView() = default;

void GraphDiffView::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* header = new QHBoxLayout;
    m_legend = new GraphLegend(this);
    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("colourMode"));
    m_mode->addItems({ tr("Precision"), tr("Overflow"), tr("Error magnitude") });
    m_mode->setToolTip(tr("Colour nodes by precision level, by overflow level (needs a db made with -oc) or by error "
                          "magnitude (the worst output relative error, or 1 - cosine, on a five-step scale)"));
    m_syncExpand = new QCheckBox(tr("Sync expand"), this);
    m_syncExpand->setObjectName(QStringLiteral("syncExpand"));
    m_syncExpand->setToolTip(tr("Expanding a node also expands its match on the other side"));
    m_viewSync = new GraphViewSync(m_problemView, m_benchView,
        [this](bool fromBench, std::uint32_t node) { return partnerOf(fromBench ? Side::Bench : Side::Problem, node, true); }, this);
    auto* syncView = new QToolButton(this);
    syncView->setDefaultAction(m_viewSync->toggleAction());
    // One mini-map toggle per side, as the plugin's header has.
    m_problemMinimap = new QCheckBox(tr("Debug mini-map"), this);
    m_problemMinimap->setObjectName(QStringLiteral("problemMinimap"));
    m_benchMinimap = new QCheckBox(tr("Bench mini-map"), this);
    m_benchMinimap->setObjectName(QStringLiteral("benchMinimap"));
    for (QCheckBox* box : { m_problemMinimap, m_benchMinimap })
        box->setChecked(true);
    auto* fit = toolButton(tr("Fit"), tr("Fit both graphs to the window"), this);
    auto* levels = toolButton(tr("Levels"), tr("Collapse all modules, or open them down to a depth"), this);
    levels->setObjectName(QStringLiteral("levels"));
    levels->setPopupMode(QToolButton::InstantPopup);
    auto* levelMenu = new QMenu(levels);
    levelMenu->addAction(tr("Collapse all"), this, [this] { expandToDepth(0); });
    for (int depth : { 1, 2, 3, 4 })
        levelMenu->addAction(tr("Expand to depth %1").arg(depth), this, [this, depth] { expandToDepth(depth); });
    levels->setMenu(levelMenu);
    auto* divergence = toolButton(tr("First divergence"), tr("Go to the first error-level node in execution order"), this);
    auto* help = toolButton(QStringLiteral("?"), tr("Click: select (the match is selected on the other side)\n"
                                                     "Double-click: expand / collapse\nDrag empty space: pan; drag a node "
                                                     "onto a node of the other side: match them\nCtrl+wheel, W / S: zoom\n"
                                                     "Wheel: scroll; A / D: left / right"),
        this);
    m_status = new QLabel(this);
    // The legend takes a row of its own (it wraps); the controls sit below it, so the header never forces the
    // window wider than a laptop screen.
    layout->addWidget(m_legend);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    header->addWidget(m_status, 1);
    // A toolbar, so that controls that do not fit a narrow window go into its overflow menu instead of forcing
    // the view wider than a laptop screen.
    auto* controls = new QToolBar(this);
    controls->setObjectName(QStringLiteral("graphControls"));
    controls->setFloatable(false);
    controls->setMovable(false);
    controls->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    for (QWidget* control : std::initializer_list<QWidget*> { m_mode, m_syncExpand, syncView, m_problemMinimap,
             m_benchMinimap, fit, levels, divergence, help })
        controls->addWidget(control);
    header->addWidget(controls);
    layout->addLayout(header);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(titledPane(tr("Debug"), m_problemView, splitter));
    m_benchPane = titledPane(tr("Bench"), m_benchView, splitter);
    splitter->addWidget(m_benchPane);
    layout->addWidget(splitter, 1);

    connect(m_mode, &QComboBox::currentIndexChanged, this,
        [this](int index) { setColourMode(static_cast<msprobe::views::graphstyle::ColourMode>(index)); });
    connect(m_problemMinimap, &QCheckBox::toggled, m_problemView, &GraphSideView::setMinimapVisible);
    connect(m_benchMinimap, &QCheckBox::toggled, m_benchView, &GraphSideView::setMinimapVisible);
    connect(fit, &QToolButton::clicked, this, [this] {
        m_problemView->fitToScreen();
        m_benchView->fitToScreen();
    });
    connect(divergence, &QToolButton::clicked, this, &GraphDiffView::firstDivergenceRequested);
    wireSide(m_problemView, Side::Problem);
    wireSide(m_benchView, Side::Bench);
}

void GraphDiffView::wireSide(GraphSideView* view, Side side)
{
    connect(view, &GraphSideView::nodeClicked, this, [this, side](std::uint32_t node) { pick(side, node); });
    connect(view, &GraphSideView::nodeDoubleClicked, this, [this, side](std::uint32_t node) { toggle(side, node); });
    connect(view, &GraphSideView::nodeDragMoved, this, [this, side](std::uint32_t, const QPoint& at) { dragMoved(side, at, nullptr); });
    connect(view, &GraphSideView::nodeDragReleased, this, [this, side](std::uint32_t node, const QPoint& at) { dropped(side, node, at); });
    connect(view, &GraphSideView::contextMenuRequested, this,
        [this, side](std::uint32_t node, const QPoint& at) { showMenu(side, node, at); });
    connect(view, &GraphSideView::composed, this, &GraphDiffView::composedOne);
}

void GraphDiffView::setGraphs(std::shared_ptr<VisGraph> problem, std::shared_ptr<VisGraph> bench, const VisDbConfig& config)
{
    m_problem = std::move(problem);
    m_bench = config.isCompare() ? std::move(bench) : nullptr;
    m_config = config;
    // Magnitude colouring stays on from one pair to the next; overflow needs a db made with -oc.
    const bool keepMagnitude = colourMode() == msprobe::views::graphstyle::ColourMode::Magnitude && m_bench;
    m_magnitudes.reset();
    {
        const QSignalBlocker block(m_mode);
        if (auto* items = qobject_cast<QStandardItemModel*>(m_mode->model())) {
            items->item(int(msprobe::views::graphstyle::ColourMode::Overflow))->setEnabled(config.overflowCheck);
            items->item(int(msprobe::views::graphstyle::ColourMode::Magnitude))->setEnabled(m_bench != nullptr);
        }
        m_mode->setCurrentIndex(0);
        m_mode->setEnabled(config.overflowCheck || m_bench);
    }
    m_problemView->setMagnitudes(nullptr);
    m_benchView->setMagnitudes(nullptr);
    m_benchView->setDebugGraph(m_bench ? m_problem.get() : nullptr);
    m_problemView->setColourMode(msprobe::views::graphstyle::ColourMode::Precision);
    m_benchView->setColourMode(msprobe::views::graphstyle::ColourMode::Precision);
    m_legend->setMode(msprobe::views::graphstyle::ColourMode::Precision, m_bench != nullptr);
    m_benchPane->setVisible(m_bench != nullptr);
    m_benchMinimap->setVisible(m_bench != nullptr);
    m_syncExpand->setEnabled(m_bench != nullptr);
    m_viewSync->setActive(m_bench != nullptr);
    m_viewSync->toggleAction()->setEnabled(m_bench != nullptr);
    // Nothing to lay out (a failed load, a CSV-only open, an L1 pair): no "Laying out…" left behind.
    m_status->setText(m_problem ? tr("Laying out…") : QString());
    for (GraphSideView* view : { m_problemView, m_benchView })
        view->layoutState().setMicroStep(m_focus->microStep());
    m_problemView->setGraph(m_problem, config.isCompare(), config.task);
    m_benchView->setGraph(m_bench, config.isCompare(), config.task);
    if (keepMagnitude)
        setColourMode(msprobe::views::graphstyle::ColourMode::Magnitude);
}

void GraphDiffView::setStudioFocus(StudioFocus* focus)
{
    if (m_focus)
        disconnect(m_focus, nullptr, this, nullptr);
    m_focus = focus ? focus : &m_ownFocus;
    connect(m_focus, &StudioFocus::nodeChanged, this, &GraphDiffView::focusNode);
    connect(m_focus, &StudioFocus::microStepChanged, this, [this](int microStep) {
        m_problemView->layoutState().setMicroStep(microStep);
        m_benchView->layoutState().setMicroStep(microStep);
    });
}

void GraphDiffView::setMagnitudeProvider(MagnitudeProvider provider) { m_magnitudeProvider = std::move(provider); }

void GraphDiffView::setNodeDataProvider(NodeDataProvider provider)
{
    m_nodeData = provider;
    for (Side side : { Side::Problem, Side::Bench })
        sideView(side)->setNodeDataProvider(
            provider ? GraphSideView::NodeDataProvider([provider, side](const std::string& name) { return provider(side, name); })
                     : GraphSideView::NodeDataProvider());
}

GraphSideView* GraphDiffView::sideView(Side side) const { return side == Side::Problem ? m_problemView : m_benchView; }

const VisGraph* GraphDiffView::graphOf(Side side) const { return side == Side::Problem ? m_problem.get() : m_bench.get(); }

bool GraphDiffView::isSettled() const { return m_problemView->layoutState().settled() && m_benchView->layoutState().settled(); }

void GraphDiffView::composedOne()
{
    if (!isSettled())
        return;
    m_status->clear();
    emit settled();
}

void GraphDiffView::setSyncExpand(bool on) { m_syncExpand->setChecked(on); }

QAction* GraphDiffView::syncPanZoomAction() const { return m_viewSync->toggleAction(); }

void GraphDiffView::setSearchHighlight(const QString& text, bool regex)
{
    m_problemView->setSearchHighlight(text, regex);
    m_benchView->setSearchHighlight(text, regex);
}

void GraphDiffView::expandToDepth(int depth)
{
    m_problemView->layoutState().expandToDepth(depth);
    if (m_bench)
        m_benchView->layoutState().expandToDepth(depth);
    if (!isSettled())
        m_status->setText(tr("Laying out…"));
}

void GraphDiffView::setColourMode(msprobe::views::graphstyle::ColourMode mode)
{
    if ((mode == msprobe::views::graphstyle::ColourMode::Overflow && !m_config.overflowCheck) || (mode == msprobe::views::graphstyle::ColourMode::Magnitude && !m_bench))
        mode = msprobe::views::graphstyle::ColourMode::Precision;
    {
        const QSignalBlocker block(m_mode);
        m_mode->setCurrentIndex(int(mode));
    }
    if (mode == msprobe::views::graphstyle::ColourMode::Magnitude && !m_magnitudes) {
        // Read once per pair when first asked for (it reads every node's stored data), then kept up to date.
        m_magnitudes = std::make_shared<const std::vector<float>>(m_magnitudeProvider ? m_magnitudeProvider() : std::vector<float> {});
        m_problemView->setMagnitudes(m_magnitudes);
        m_benchView->setMagnitudes(m_magnitudes);
    }
    m_problemView->setColourMode(mode);
    m_benchView->setColourMode(mode);
    m_legend->setMode(mode, m_bench != nullptr);
}

std::uint32_t GraphDiffView::partnerOf(Side side, std::uint32_t node, bool ancestors) const
{
    const VisGraph* graph = graphOf(side);
    const VisGraph* other = graphOf(otherSide(side));
    if (!graph || !other)
        return kNoVisNode;
    for (std::uint32_t n = node; n != kNoVisNode && n < graph->nodes.size(); n = graph->nodes[n].parent) {
        if (graph->nodes[n].matched())
            return other->find(graph->nodes[n].link.back());
        if (!ancestors)
            break;
    }
    return kNoVisNode;
}

void GraphDiffView::pick(Side side, std::uint32_t node)
{
    const VisGraph* graph = graphOf(side);
    if (!graph || node == kNoVisNode)
        return;
    m_pickedHere = true;
    m_focus->setNode(nameOf(graph, node), side);
    m_pickedHere = false;
}

void GraphDiffView::focusNode(const QString& name, Side side)
{
    const VisGraph* graph = graphOf(side);
    if (!graph)
        return;
    const std::uint32_t node = name.isEmpty() ? kNoVisNode : graph->find(name.toStdString());
    // The clicked side stays where it is; the other side (and a pick from elsewhere) scrolls to the node.
    sideView(side)->selectNode(node, true, !m_pickedHere);
    const std::uint32_t partner = node == kNoVisNode ? kNoVisNode : partnerOf(side, node, false);
    sideView(otherSide(side))->selectNode(partner, true, true);
    if (!isSettled())
        m_status->setText(tr("Laying out…"));
}

void GraphDiffView::toggle(Side side, std::uint32_t node)
{
    GraphLayoutState& state = sideView(side)->layoutState();
    pick(side, node);
    if (!state.isExpandable(node)) {
        emit nodeActivated(nameOf(graphOf(side), node), side);
        return;
    }
    const bool expand = !state.isExpanded(node);
    state.setExpanded(node, expand);
    if (m_syncExpand->isChecked() && m_bench) {
        const std::uint32_t partner = partnerOf(side, node, true);
        if (partner != kNoVisNode)
            sideView(otherSide(side))->layoutState().setExpanded(partner, expand);
    }
    if (!isSettled())
        m_status->setText(tr("Laying out…"));
}

void GraphDiffView::dragMoved(Side from, const QPoint& globalPos, std::uint32_t* target)
{
    GraphSideView* other = sideView(otherSide(from));
    std::uint32_t node = kNoVisNode;
    if (m_bench) {
        const QPoint pos = other->viewport()->mapFromGlobal(globalPos);
        if (other->viewport()->rect().contains(pos))
            node = other->nodeAt(pos);
    }
    other->setDropTarget(node);
    if (target)
        *target = node;
}

void GraphDiffView::dropped(Side from, std::uint32_t node, const QPoint& globalPos)
{
    std::uint32_t target = kNoVisNode;
    dragMoved(from, globalPos, &target);
    sideView(otherSide(from))->setDropTarget(kNoVisNode);
    if (target == kNoVisNode)
        return;
    const QString source = nameOf(graphOf(from), node), onto = nameOf(graphOf(otherSide(from)), target);
    if (from == Side::Problem)
        emit nodeDropped(source, onto);
    else
        emit nodeDropped(onto, source);
}

void GraphDiffView::showMenu(Side side, std::uint32_t node, const QPoint& globalPos)
{
    const VisGraph* graph = graphOf(side);
    GraphLayoutState& state = sideView(side)->layoutState();
    const VisNode& n = graph->nodes[node];
    const QString name = nameOf(graph, node);
    pick(side, node);
    QMenu menu(this);
    const std::uint32_t partner = partnerOf(side, node, false);
    if (partner != kNoVisNode)
        menu.addAction(tr("Locate matched node"), this, [this, side, partner] { pick(otherSide(side), partner); });
    if (state.isExpandable(node))
        menu.addAction(state.isExpanded(node) ? tr("Collapse") : tr("Expand"), this, [this, side, node] { toggle(side, node); });
    menu.addAction(tr("Show details"), this, [this, name, side] { emit nodeActivated(name, side); });
    addPeerMenu(menu, n);
    if (m_bench && n.matched()) {
        const QString problemNode = side == Side::Problem ? name : QString::fromStdString(n.link.back());
        menu.addSeparator();
        menu.addAction(tr("Unmatch"), this, [this, problemNode] { emit unmatchRequested(problemNode); });
    }
    menu.addSeparator();
    menu.addAction(tr("Copy name"), this, [name] { QApplication::clipboard()->setText(name); });
    menu.exec(globalPos);
}

QColor GraphDiffView::peerColour(const std::string& index) const
{
    if (colourMode() == msprobe::views::graphstyle::ColourMode::Overflow)
        return msprobe::views::graphstyle::overflowColour(index);
    char* end = nullptr;
    double value = std::strtod(index.c_str(), &end);
    if (index.empty() || !end || *end != '\0')
        value = 0; // the plugin's colour lookup falls back to index 0
    return msprobe::views::graphstyle::precisionColour(msprobe::graph::levelOfIndex(value));
}

void GraphDiffView::addPeerMenu(QMenu& menu, const VisNode& node)
{
    const auto info = msprobe::graph::distributedInfo(node.matchedDistributed);
    if (info.peers.empty())
        return;
    const QString title = info.type == "send" ? tr("Data send") : info.type == "receive" ? tr("Data receive") : tr("Data send-receive");
    QMenu* peers = menu.addMenu(title);
    for (const auto& peer : info.peers) {
        QPixmap chip(12, 12);
        chip.fill(peerColour(peer.index));
        const QString peerNode = QString::fromStdString(peer.node);
        QAction* action = peers->addAction(QIcon(chip), QStringLiteral("rank%1").arg(peer.rank));
        action->setToolTip(peerNode);
        action->setData(peer.rank);
        connect(action, &QAction::triggered, this, [this, rank = peer.rank, peerNode] { goToPeer(rank, peerNode); });
    }
}

void GraphDiffView::goToPeer(int rank, const QString& node)
{
    m_focus->setGraph(m_focus->step(), rank);
    m_focus->setNode(node, StudioFocus::Side::Problem);
}

msprobe::views::graphstyle::ColourMode GraphDiffView::colourMode() const { return static_cast<msprobe::views::graphstyle::ColourMode>(std::max(0, m_mode->currentIndex())); }

void GraphDiffView::refreshNodes(const QStringList& names)
{
    if (m_magnitudes && m_problem && m_nodeData) {
        // A manual match rewrote these nodes' data: their magnitudes follow it.
        auto updated = std::make_shared<std::vector<float>>(*m_magnitudes);
        try {
            const auto mode = msprobe::graph::compareModeOfTask(m_config.task, {});
            for (const QString& name : names) {
                const std::uint32_t node = m_problem->find(name.toStdString());
                if (node == kNoVisNode || node >= updated->size())
                    continue;
                (*updated)[node] = m_problem->nodes[node].matched()
                    ? float(msprobe::graph::errorMagnitude(m_nodeData(Side::Problem, name.toStdString()).second, mode))
                    : float(NAN);
            }
        } catch (const std::exception&) {
        }
        m_magnitudes = std::move(updated);
        m_problemView->setMagnitudes(m_magnitudes);
        m_benchView->setMagnitudes(m_magnitudes);
    }
    // Badges count whole subtrees, so any changed node can change every ancestor's badge: recount all (one pass).
    m_problemView->refresh();
    m_benchView->refresh();
    if (!m_focus->node().isEmpty())
        focusNode(m_focus->node(), m_focus->side());
}

bool GraphDiffView::goToFirstDivergence()
{
    if (!m_problem)
        return false;
    const std::uint32_t node = msprobe::views::firstDivergence(*m_problem, m_focus->microStep());
    if (node == kNoVisNode)
        return false;
    m_focus->setNode(nameOf(m_problem.get(), node), Side::Problem);
    return true;
}

bool GraphDiffView::exportImage(const QString& file)
{
    m_error.clear();
    std::vector<std::pair<GraphSideView*, QString>> sides { { m_problemView, tr("Debug") } };
    if (m_bench)
        sides.emplace_back(m_benchView, tr("Bench"));
    double graphsWidth = 0, graphsHeight = 0;
    for (const auto& [view, title] : sides) {
        graphsWidth += view->graphBounds().width() + (graphsWidth > 0 ? kExportGap : 0);
        graphsHeight = std::max(graphsHeight, view->graphBounds().height());
    }
    if (graphsWidth <= 0 || graphsHeight <= 0 || !m_problem) {
        m_error = tr("Nothing to export yet: the graph is not laid out");
        return false;
    }
    // The picture reads on its own: a title naming the graph, the legend of the colours, a margin all round;
    // always on white with dark text, whatever the theme.
    GraphLegend legend;
    QPalette light = legend.palette();
    light.setColor(QPalette::WindowText, Qt::black);
    light.setColor(QPalette::Window, Qt::white);
    legend.setPalette(light);
    legend.setMode(colourMode(), m_bench != nullptr);
    const double contentWidth = std::max(graphsWidth, kExportMinLegendWidth);
    legend.resize(int(contentWidth), legend.heightForWidth(int(contentWidth)));
    const QString heading = (m_bench ? tr("msprobe graph diff — step %1, rank %2") : tr("msprobe graph — step %1, rank %2"))
                                .arg(m_problem->step)
                                .arg(m_problem->rank);
    const double legendTop = kExportMargin + kExportTitle, graphsTop = legendTop + legend.height() + kExportTitle;
    const double width = contentWidth + 2 * kExportMargin, height = graphsTop + graphsHeight + kExportMargin;
    auto paint = [&](QPainter& painter) {
        painter.fillRect(QRectF(0, 0, width, height), Qt::white);
        painter.setPen(Qt::black);
        QFont bold = painter.font();
        bold.setBold(true);
        bold.setPointSizeF(bold.pointSizeF() * 1.25);
        const QFont normal = painter.font();
        painter.setFont(bold);
        painter.drawText(QRectF(kExportMargin, kExportMargin, contentWidth, kExportTitle), Qt::AlignLeft | Qt::AlignVCenter, heading);
        painter.setFont(normal);
        legend.render(&painter, QPoint(int(kExportMargin), int(legendTop)), QRegion(), QWidget::DrawChildren);
        double x = kExportMargin;
        for (const auto& [view, title] : sides) {
            const QRectF bounds = view->graphBounds();
            painter.setPen(Qt::black);
            painter.drawText(QRectF(x, graphsTop - kExportTitle, bounds.width(), kExportTitle), Qt::AlignLeft | Qt::AlignVCenter, title);
            view->renderGraph(&painter, QRectF(x, graphsTop, bounds.width(), bounds.height()));
            x += bounds.width() + kExportGap;
        }
    };
    if (file.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(file);
        svg.setSize(QSize(int(width), int(height)));
        svg.setViewBox(QRectF(0, 0, width, height));
        svg.setTitle(tr("msprobe graph diff"));
        QPainter painter;
        if (!painter.begin(&svg)) {
            m_error = tr("Cannot write %1").arg(file);
            return false;
        }
        paint(painter);
        painter.end();
        if (QFileInfo(file).size() == 0) {
            m_error = tr("Cannot write %1").arg(file);
            return false;
        }
        return true;
    }
    // Very large graphs are scaled down to what an image viewer can open.
    const double scale = std::min({ 2.0, kMaxExportPixels / width, kMaxExportPixels / height });
    QImage image(QSize(int(width * scale), int(height * scale)), QImage::Format_RGB32);
    if (image.isNull()) {
        m_error = tr("The picture is too large to render (%1 x %2)").arg(int(width)).arg(int(height));
        return false;
    }
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(scale, scale);
    paint(painter);
    painter.end();
    if (!image.save(file, "PNG")) {
        m_error = tr("Cannot write %1").arg(file);
        return false;
    }
    return true;
}
