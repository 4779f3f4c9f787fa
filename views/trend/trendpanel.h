// SPDX-License-Identifier: Apache-2.0
// The trend panel (spec Part 3 §3.5): a toolbar (metric, statistic, dimension, searchable value, tag filter,
// heat-map mode, difference), the heat map over the line chart in a splitter. It shows what the session's
// TrendSource has open and follows the studio's one selection: a graph node selects its heat-map row, a cell
// focuses its step, rank and node. It never opens a file: dropped paths and export go out as signals.
#pragma once

#include "axisscrollbar.h"
#include "trendheatmap.h"
#include "trendlinechart.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSplitter;
class StudioFocus;
class TrendSource;

class TrendPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrendPanel(QWidget* parent = nullptr);

    void setSource(TrendSource* source);
    void setStudioFocus(StudioFocus* focus);

    TrendHeatmap* heatmap() const { return m_heatmap; }
    TrendLineChart* lineChart() const { return m_lines; }
    QComboBox* metricBox() const { return m_metric; }
    QComboBox* statBox() const { return m_stat; }
    QComboBox* dimensionBox() const { return m_dimension; }
    QComboBox* valueBox() const { return m_value; }
    QComboBox* modeBox() const { return m_mode; }
    QListWidget* tagList() const { return m_tags; }
    QCheckBox* differenceBox() const { return m_difference; }
    AxisScrollBar* xSlider() const { return m_xSlider; }
    AxisScrollBar* ySlider() const { return m_ySlider; }
    // What the toolbar asks for now.
    msprobe::studio::TrendQuery query() const;
    // The heat map's cells as CSV (gridCsv).
    QString cellsCsv() const;
    QString divergenceText() const;

    // What a click on a heat-map cell does: adds its line (both runs' for a pair) and focuses its step, rank and
    // node.
    void activateCell(int column, int row);
    // Whether the heat map waits for its query (run off the GUI thread; heatmapShown follows).
    bool heatmapPending() const { return m_pendingGrid != 0; }
    // Waits for that query and shows its heat map (an export draws what the toolbar asks for).
    void finishHeatmap();

signals:
    // Paths dropped on the panel (a *.trend.db, a monitor or dump folder; two: problem and bench).
    void openRequested(const QStringList& paths);
    void exportRequested();
    // The heat map now shows the toolbar's choice.
    void heatmapShown();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildToolbar();
    void rebuildChoices();
    void metricChanged();
    void statChanged();
    void reloadTags();
    void reloadValues();
    void reloadHeatmap();
    void showHeatmap(const msprobe::studio::TrendGrid& grid, const QString& error);
    void followNode(const QString& name);
    void followGraph(int step, int rank);
    void filterTags(const QString& text);
    void retranslate();

    QPointer<TrendSource> m_source;
    QPointer<StudioFocus> m_focus;
    QComboBox *m_metric, *m_stat, *m_dimension, *m_value, *m_mode;
    QLineEdit* m_tagFilter;
    QListWidget* m_tags;
    QCheckBox* m_difference;
    QLabel *m_empty, *m_legendNote, *m_divergence;
    QLabel *m_metricLabel, *m_statLabel, *m_dimensionLabel, *m_valueLabel, *m_tagsLabel, *m_modeLabel;
    QSplitter* m_splitter;
    TrendHeatmap* m_heatmap;
    TrendLineChart* m_lines;
    AxisScrollBar *m_xSlider = nullptr, *m_ySlider = nullptr;
    quint64 m_pendingGrid = 0; // the TrendSource request whose grid the heat map waits for
    bool m_rebuilding = false;
    bool m_focusing = false;
};
