// SPDX-License-Identifier: Apache-2.0
// The memory dumps the studio has open: the primary one the timeline shows and, optionally, a second one to
// compare it with. Each loads a msMemScope CSV/.db on a worker thread (progress by stage, cancel between stages)
// into the document — trace, model, analyses, timeline — that the memory panel shows.
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
    enum class Slot { Primary, Compared };
    Q_ENUM(Slot)

    explicit MemorySession(QObject* parent = nullptr);
    ~MemorySession() override;

    // Starts loading file into the slot; a load in progress there is cancelled first. loadFinished follows.
    void open(const QString& file, Slot slot = Slot::Primary);
    void cancel(); // both slots
    void cancel(Slot slot);
    bool isLoading() const { return m_loads[0].watcher.isRunning() || m_loads[1].watcher.isRunning(); }
    std::shared_ptr<const msprobe::studio::MemoryDocument> document(Slot slot = Slot::Primary) const { return m_loads[index(slot)].document; }
    void closeCompared();
    // A memory trace by its look: a CSV whose header starts "ID,Event,Event Type", a .db named memscope*, or a
    // PyTorch memory snapshot (looksLikeTorchSnapshot).
    static bool looksLikeMemoryDump(const QString& path);
    // A binary pickle naming "segments" or "device_traces" in its first 4 KiB, whatever its name.
    static bool looksLikeTorchSnapshot(const QString& path);

signals:
    void progress(int percent, const QString& stage);
    // ok false: message is core's error (naming file and line), or empty when the load was cancelled.
    void loadFinished(bool ok, const QString& message, MemorySession::Slot slot);
    void documentChanged();

private:
    struct Result {
        std::shared_ptr<const msprobe::studio::MemoryDocument> document;
        QString error;
    };
    struct Load {
        QFutureWatcher<Result> watcher;
        std::shared_ptr<std::atomic<bool>> cancel;
        std::shared_ptr<const msprobe::studio::MemoryDocument> document;
    };
    static int index(Slot slot) { return slot == Slot::Primary ? 0 : 1; }
    Load m_loads[2];
};
