// SPDX-License-Identifier: Apache-2.0
// The memory dump the studio has open: loads a msMemScope CSV/.db on a worker thread (progress by stage, cancel
// between stages) and keeps the document — trace, model, analyses, timeline — that the memory panel shows.
#pragma once

#include "memorydocument.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class MemorySession : public QObject {
    Q_OBJECT
public:
    explicit MemorySession(QObject* parent = nullptr);
    ~MemorySession() override;

    // Starts loading file; a load in progress is cancelled first. loadFinished follows.
    void open(const QString& file);
    void cancel();
    bool isLoading() const { return m_watcher.isRunning(); }
    std::shared_ptr<const studio::MemoryDocument> document() const { return m_document; }

signals:
    void progress(int percent, const QString& stage);
    // ok false: message is core's error (naming file and line), or empty when the load was cancelled.
    void loadFinished(bool ok, const QString& message);
    void documentChanged();

private:
    struct Result {
        std::shared_ptr<const studio::MemoryDocument> document;
        QString error;
    };
    QFutureWatcher<Result> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<const studio::MemoryDocument> m_document;
};
