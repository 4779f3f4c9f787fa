// SPDX-License-Identifier: Apache-2.0
#include "parallel/parallel_plot.h"

#include "support/atomic_file.h"
#include "parallel/plot_colors.h"
#include "parallel/png_codec.h"
#include "support/error.h"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

namespace msprobe::parallel {

namespace {

// Font sizes in points, as the reference sets them.
constexpr double kTitlePt = 14, kAxisPt = 12, kTickPt = 10, kLegendPt = 10, kBlockPt = 9, kMinBlockPt = 6;
constexpr double kLegendInches = 5;

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

// The grid the picture shows: TP groups, or pipeline stages when summarised.
struct Grid {
    bool summarised = false;
    int rows = 0, columns = 0;
    std::vector<std::string> rowLabels;
    std::vector<int> rowStage; // pipeline stage of each drawn row
    std::vector<int> rowCopy; // copy of each drawn row; -1: every copy (summarised)
};

Grid gridOf(const ParallelLayout& layout)
{
    Grid grid;
    grid.columns = layout.columnCount();
    const int groups = static_cast<int>(layout.rows.size());
    grid.summarised = groups > kMaxDetailedRows && layout.copyCount() > 1;
    if (!grid.summarised) {
        grid.rows = groups;
        for (const LayoutRow& row : layout.rows) {
            grid.rowLabels.push_back(row.label);
            grid.rowStage.push_back(row.pipelineStage);
            grid.rowCopy.push_back(row.copy);
        }
        return grid;
    }
    grid.rows = layout.sizes.pipelineParallel;
    for (int stage = 0; stage < grid.rows; ++stage) {
        grid.rowLabels.push_back("PP stage " + std::to_string(stage) + ": " + std::to_string(layout.copyCount())
            + " TP groups");
        grid.rowStage.push_back(stage);
        grid.rowCopy.push_back(-1);
    }
    return grid;
}

class Painter {
public:
    Painter(cairo_t* cr, double dpi)
        : m_cr(cr)
        , m_pxPerPt(dpi / 72.0)
    {
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    }
    double px(double points) const { return points * m_pxPerPt; }
    void font(double points) { cairo_set_font_size(m_cr, px(points)); }
    double textWidth(const std::string& text)
    {
        cairo_text_extents_t extents;
        cairo_text_extents(m_cr, text.c_str(), &extents);
        return extents.x_advance;
    }
    double lineHeight()
    {
        cairo_font_extents_t extents;
        cairo_font_extents(m_cr, &extents);
        return extents.ascent + extents.descent;
    }
    // Draws `text` with its box centred at (x, y); hAlign 0 = left edge at x, 0.5 = centred, 1 = right edge at x.
    void text(const std::string& text, double x, double y, double hAlign = 0.5)
    {
        cairo_font_extents_t font;
        cairo_font_extents(m_cr, &font);
        const double width = textWidth(text);
        cairo_move_to(m_cr, x - width * hAlign, y + (font.ascent - font.descent) / 2);
        cairo_show_text(m_cr, text.c_str());
    }
    void color(const Rgb& c, double alpha = 1) { cairo_set_source_rgba(m_cr, c.r, c.g, c.b, alpha); }
    void gray(double level, double alpha = 1) { cairo_set_source_rgba(m_cr, level, level, level, alpha); }
    void fillRect(double x, double y, double w, double h)
    {
        cairo_rectangle(m_cr, x, y, w, h);
        cairo_fill(m_cr);
    }
    void strokeRectPx(double x, double y, double w, double h, double linePx)
    {
        cairo_set_line_width(m_cr, linePx);
        cairo_rectangle(m_cr, x, y, w, h);
        cairo_stroke(m_cr);
    }
    void strokeRect(double x, double y, double w, double h, double linePt)
    {
        cairo_set_line_width(m_cr, px(linePt));
        cairo_rectangle(m_cr, x, y, w, h);
        cairo_stroke(m_cr);
    }
    void line(double x0, double y0, double x1, double y1, double linePt)
    {
        cairo_set_line_width(m_cr, px(linePt));
        cairo_move_to(m_cr, x0, y0);
        cairo_line_to(m_cr, x1, y1);
        cairo_stroke(m_cr);
    }
    void dashes(bool on)
    {
        const double pattern[] = { px(3.7), px(1.6) }; // matplotlib's "--"
        cairo_set_dash(m_cr, pattern, on ? 2 : 0, 0);
    }
    void rotatedText(const std::string& text, double x, double y)
    {
        cairo_save(m_cr);
        cairo_translate(m_cr, x, y);
        cairo_rotate(m_cr, -std::numbers::pi / 2);
        this->text(text, 0, 0);
        cairo_restore(m_cr);
    }

private:
    cairo_t* m_cr;
    double m_pxPerPt;
};

// Every n-th label, so that neighbouring labels keep `room` pixels each.
int labelStep(double room, double spacing)
{
    return spacing <= 0 ? 1 : std::max(1, static_cast<int>(std::ceil(room / spacing)));
}

// The "Model Copies" legend: every copy, or when they do not fit the height, the first ones, a line telling how
// many are left out and the last one.
struct Legend {
    std::vector<int> shown; // copy indices; -1 for the left-out line
    int hidden = 0;
    double line = 0, width = 0, height = 0;
};

std::string hiddenText(int hidden)
{
    return "... " + std::to_string(hidden) + " more";
}

Legend planLegend(Painter& p, const ParallelLayout& layout, double maxHeight)
{
    Legend legend;
    p.font(kLegendPt);
    legend.line = p.lineHeight() * 1.35;
    const int copies = layout.copyCount();
    const int fit = std::max(3, static_cast<int>((maxHeight - 2 * legend.line) / legend.line));
    for (int k = 0; k < copies && (copies <= fit || k < fit - 2); ++k)
        legend.shown.push_back(k);
    if (copies > fit) {
        legend.hidden = copies - fit + 1;
        legend.shown.push_back(-1);
        legend.shown.push_back(copies - 1);
    }
    double width = p.textWidth("Model Copies");
    for (int k : legend.shown)
        width = std::max(width, k < 0 ? p.textWidth(hiddenText(legend.hidden))
                                      : p.px(28) + p.textWidth("Model Copy " + std::to_string(k + 1)));
    legend.width = width + 2 * p.px(6);
    legend.height = legend.line * (static_cast<double>(legend.shown.size()) + 1) + p.px(8);
    return legend;
}

void drawLegend(Painter& p, const ParallelLayout& layout, const Legend& legend, double left, double centreY)
{
    p.font(kLegendPt);
    const double top = centreY - legend.height / 2, line = legend.line;
    p.gray(1, 0.8);
    p.fillRect(left, top, legend.width, legend.height);
    p.gray(0.8);
    p.strokeRect(left, top, legend.width, legend.height, 0.8);
    p.gray(0);
    p.text("Model Copies", left + legend.width / 2, top + p.px(4) + line / 2);
    for (std::size_t i = 0; i < legend.shown.size(); ++i) {
        const double y = top + p.px(4) + line * (static_cast<double>(i) + 1.5);
        const double x = left + p.px(6);
        const int k = legend.shown[i];
        if (k < 0) {
            p.gray(0);
            p.text(hiddenText(legend.hidden), x, y, 0);
            continue;
        }
        p.color(copyColor(k, layout.copyCount()), 0.8);
        p.fillRect(x, y - line * 0.3, p.px(20), line * 0.6);
        p.gray(0);
        p.text("Model Copy " + std::to_string(k + 1), x + p.px(28), y, 0);
    }
}

// A block's fill: its copy's colour, or when summarised, vertical stripes of every copy's colour.
void fillBlock(Painter& p, const ParallelLayout& layout, int copy, double x, double y, double w, double h)
{
    const int copies = layout.copyCount();
    if (copy >= 0) {
        p.color(copyColor(copy, copies), 0.8);
        p.fillRect(x, y, w, h);
        return;
    }
    const int stripes = std::max(1, std::min(copies, static_cast<int>(w)));
    for (int i = 0; i < stripes; ++i) {
        const int k = static_cast<int>(static_cast<long long>(i) * copies / stripes);
        p.color(copyColor(k, copies), 0.8);
        // Whole-pixel edges: translucent stripes must neither overlap (darker seams) nor leave gaps (white seams).
        const double left = std::round(x + w * i / stripes), right = std::round(x + w * (i + 1) / stripes);
        p.fillRect(left, y, right - left, h);
    }
}

// The plot area in pixels and its cells; row 0 at the bottom.
struct Axes {
    double left, top, width, height, cellW, cellH;
    double columnX(int column) const { return left + (column + 0.5) * cellW; }
    double rowY(int row) const { return top + height - (row + 0.5) * cellH; }
};

// Dashed grid through the tick positions, then the blocks over it.
void drawBlocks(Painter& p, const ParallelLayout& layout, const Grid& grid, const Axes& axes)
{
    // Dashed grid through the tick positions, behind the blocks; left out where lines would fill the area.
    p.dashes(true);
    p.gray(0.69, 0.3);
    if (axes.cellW >= 4)
        for (int c = 0; c < grid.columns; ++c)
            p.line(axes.columnX(c), axes.top, axes.columnX(c), axes.top + axes.height, 0.8);
    if (axes.cellH >= 4)
        for (int r = 0; r < grid.rows; ++r)
            p.line(axes.left, axes.rowY(r), axes.left + axes.width, axes.rowY(r), 0.8);
    p.dashes(false);

    // Blocks: 0.9 x 0.9 of a cell, white edge, alpha 0.8; the text centred in a faint white box.
    const double blockW = 0.9 * axes.cellW, blockH = 0.9 * axes.cellH;
    const double edge = std::min(p.px(1), std::min(blockW, blockH) / 8);
    for (int r = 0; r < grid.rows; ++r)
        for (int c = 0; c < grid.columns; ++c) {
            const double x = axes.columnX(c) - blockW / 2, y = axes.rowY(r) - blockH / 2;
            fillBlock(p, layout, grid.rowCopy[static_cast<std::size_t>(r)], x, y, blockW, blockH);
            if (edge >= 0.25) {
                p.gray(1);
                p.strokeRectPx(x, y, blockW, blockH, edge);
            }
            const std::string text
                = layout.stageChunks[static_cast<std::size_t>(grid.rowStage[static_cast<std::size_t>(r)])][static_cast<std::size_t>(c)].text();
            if (text.empty())
                continue;
            // Shrinks the text to fit its block, down to a readable minimum; below that the block stays bare.
            for (double size = kBlockPt; size >= kMinBlockPt; size -= 0.5) {
                p.font(size);
                const double w = p.textWidth(text) + 2 * p.px(1), h = p.lineHeight() + 2 * p.px(1);
                if (w > blockW || h > blockH)
                    continue;
                p.gray(1, 0.3);
                p.fillRect(axes.columnX(c) - w / 2, axes.rowY(r) - h / 2, w, h);
                p.gray(0);
                p.text(text, axes.columnX(c), axes.rowY(r));
                break;
            }
        }
}

} // namespace

PlotPicture drawParallelPlot(const ParallelLayout& layout, const PlotOptions& options)
{
    const Grid grid = gridOf(layout);
    double widthInches = 0, heightInches = 0;
    figureInches(grid.rows, grid.columns, widthInches, heightInches);
    PlotPicture picture;
    picture.dpi = std::min({ options.dpi, kMaxPictureSide / std::max(widthInches, heightInches),
        std::sqrt(options.maxPixels / (widthInches * heightInches)) });
    picture.width = static_cast<int>(std::lround(widthInches * picture.dpi));
    picture.height = static_cast<int>(std::lround(heightInches * picture.dpi));
    picture.summarised = grid.summarised;
    picture.rowCount = grid.rows;
    picture.columnCount = grid.columns;

    Surface surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, picture.width, picture.height), &cairo_surface_destroy);
    if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
        throw support::Error("cannot make a " + std::to_string(picture.width) + " x " + std::to_string(picture.height)
            + " picture: " + cairo_status_to_string(cairo_surface_status(surface.get())));
    Context context(cairo_create(surface.get()), &cairo_destroy);
    cairo_t* cr = context.get();
    Painter p(cr, picture.dpi);
    p.gray(1);
    cairo_paint(cr);

    // Margins: title (and the summary note) above, tick labels and axis title below and left, legend right.
    const std::string note = grid.summarised ? std::to_string(layout.rows.size())
            + " TP groups summarised by model copy: one row per pipeline stage, each block striped with the colours of the "
            + std::to_string(layout.copyCount()) + " copies that hold it"
                                             : std::string();
    p.font(kTitlePt);
    const double titleLine = p.lineHeight();
    double top = p.px(10) + titleLine + p.px(20);
    p.font(kTickPt);
    const double tickLine = p.lineHeight();
    if (grid.summarised)
        top += tickLine * 1.4;
    double labelWidth = 0;
    for (const std::string& label : grid.rowLabels)
        labelWidth = std::max(labelWidth, p.textWidth(label));
    p.font(kAxisPt);
    const double axisLine = p.lineHeight();
    const double tickLength = p.px(3.5);
    const double bottom = p.px(10) + axisLine + p.px(6) + tickLine + tickLength + p.px(3.5);
    const double plotHeight = std::max(1.0, picture.height - top - bottom);
    // The reference keeps 5 inches for the legend and crops the white away (tight bounding box); the axes take
    // the room the legend does not need instead, so that the picture keeps the figure's size.
    const Legend legend = planLegend(p, layout, plotHeight);
    const double legendRoom = std::min(legend.width, kLegendInches * picture.dpi) + p.px(20) + p.px(10);
    p.font(kAxisPt);
    const double left = std::min(p.px(10) + axisLine + p.px(8) + labelWidth + tickLength + p.px(3.5),
        0.45 * (picture.width - legendRoom));
    const double plotLeft = left, plotTop = top;
    const double plotWidth = std::max(1.0, picture.width - legendRoom - left);
    picture.plotLeft = plotLeft, picture.plotTop = plotTop, picture.plotWidth = plotWidth, picture.plotHeight = plotHeight;
    const Axes axes { plotLeft, plotTop, plotWidth, plotHeight, plotWidth / grid.columns, plotHeight / grid.rows };
    drawBlocks(p, layout, grid, axes);

    // Axes frame, ticks and tick labels.
    p.gray(0);
    p.strokeRect(plotLeft, plotTop, plotWidth, plotHeight, 0.8);
    p.font(kTickPt);
    const int rowStep = labelStep(tickLine * 1.1, axes.cellH);
    for (int r = 0; r < grid.rows; r += rowStep) {
        p.line(plotLeft - tickLength, axes.rowY(r), plotLeft, axes.rowY(r), 0.8);
        p.text(grid.rowLabels[static_cast<std::size_t>(r)], plotLeft - tickLength - p.px(3.5), axes.rowY(r), 1);
    }
    const int columnStep = labelStep(p.textWidth("Stage " + std::to_string(grid.columns - 1)) + p.px(6), axes.cellW);
    const double xLabelY = plotTop + plotHeight + tickLength + p.px(3.5) + tickLine / 2;
    for (int c = 0; c < grid.columns; c += columnStep) {
        p.line(axes.columnX(c), plotTop + plotHeight, axes.columnX(c), plotTop + plotHeight + tickLength, 0.8);
        p.text("Stage " + std::to_string(c), axes.columnX(c), xLabelY);
    }
    p.font(kAxisPt);
    p.text("Virtual Pipeline Stage", plotLeft + plotWidth / 2, picture.height - p.px(10) - axisLine / 2);
    p.rotatedText(grid.summarised ? "Pipeline Stage (every model copy)" : "TP Group", p.px(10) + axisLine / 2,
        plotTop + plotHeight / 2);
    p.font(kTitlePt);
    p.text(layout.title, plotLeft + plotWidth / 2, p.px(10) + titleLine / 2);
    if (grid.summarised) {
        p.font(kTickPt);
        p.gray(0.3);
        p.text(note, plotLeft + plotWidth / 2, p.px(10) + titleLine + p.px(6) + tickLine / 2);
    }
    drawLegend(p, layout, legend, plotLeft + plotWidth + p.px(20), plotTop + plotHeight / 2);

    cairo_surface_flush(surface.get());
    picture.png = encodePng(cairo_image_surface_get_data(surface.get()), picture.width, picture.height,
        cairo_image_surface_get_stride(surface.get()));
    return picture;
}

void savePicture(const PlotPicture& picture, const std::filesystem::path& file)
{
    support::AtomicFile out(file, support::AtomicFile::OnClash::Replace);
    out.write(picture.png);
    out.commit();
}

} // namespace msprobe::parallel
