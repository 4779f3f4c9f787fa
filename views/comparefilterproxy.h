// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "comparerows.h"

#include <QSortFilterProxyModel>

// Filters compare rows by a case-insensitive text (NPU or Bench name) and by Result; sorts numbers as numbers.
class CompareFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    // Which Result values pass the filter.
    enum ResultFilter { AllResults, NotPass, ErrorOnly, WarningOnly, PassOnly };
    Q_ENUM(ResultFilter)

    explicit CompareFilterProxy(QObject* parent = nullptr);

    void setText(const QString& text);
    void setResultFilter(ResultFilter filter);
    ResultFilter resultFilter() const { return m_result; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QString m_text;
    ResultFilter m_result = AllResults;
};
