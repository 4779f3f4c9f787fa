// SPDX-License-Identifier: Apache-2.0
#include "memorysession.h"

#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

bool MemorySession::looksLikeMemoryDump(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return false;
    if (looksLikeTorchSnapshot(path))
        return true;
    if (info.suffix().compare(QLatin1String("db"), Qt::CaseInsensitive) == 0)
        return info.fileName().startsWith(QLatin1String("memscope"), Qt::CaseInsensitive);
    if (info.suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) != 0)
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    QByteArray header = file.readLine(256);
    if (header.startsWith("\xEF\xBB\xBF"))
        header = header.mid(3);
    return header.startsWith("ID,Event,Event Type");
}

bool MemorySession::looksLikeTorchSnapshot(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // A binary pickle (PROTO 2..5) of the dict torch.cuda.memory._snapshot() returns: its first key comes first.
    const QByteArray head = file.read(4096);
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x80 && head[1] >= 2 && head[1] <= 5
        && (head.contains("segments") || head.contains("device_traces"));
}

MemorySession::MemorySession(QObject* parent)
    : QObject(parent)
{
    for (Slot slot : { Slot::Primary, Slot::Compared }) {
        Load& load = m_loads[index(slot)];
        connect(&load.watcher, &QFutureWatcher<Result>::finished, this, [this, &load, slot] {
            const Result result = load.watcher.result();
            const bool cancelled = load.cancel && load.cancel->load();
            if (cancelled) {
                emit loadFinished(false, QString(), slot);
                return;
            }
            if (!result.document) {
                emit loadFinished(false, result.error, slot);
                return;
            }
            load.document = result.document;
            emit documentChanged();
            emit loadFinished(true, QString(), slot);
        });
    }
}

MemorySession::~MemorySession()
{
    cancel();
    for (Load& load : m_loads)
        load.watcher.waitForFinished();
}

void MemorySession::cancel()
{
    for (Load& load : m_loads)
        if (load.cancel)
            load.cancel->store(true);
}

void MemorySession::cancel(Slot slot)
{
    if (const auto& flag = m_loads[index(slot)].cancel)
        flag->store(true);
}

void MemorySession::closeCompared()
{
    Load& load = m_loads[index(Slot::Compared)];
    if (load.cancel)
        load.cancel->store(true);
    load.watcher.waitForFinished();
    if (load.document) {
        load.document.reset();
        emit documentChanged();
    }
}

void MemorySession::open(const QString& file, Slot slot)
{
    Load& load = m_loads[index(slot)];
    if (load.cancel)
        load.cancel->store(true);
    load.watcher.waitForFinished();
    load.cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = load.cancel;
    // The destructor waits for the worker, and a queued call to a destroyed context is dropped.
    MemorySession* self = this;
    load.watcher.setFuture(QtConcurrent::run([file, cancelFlag, self]() -> Result {
        Result result;
        try {
            result.document = msprobe::studio::loadMemoryDocument(file.toStdString(), cancelFlag.get(), [&](int percent, const std::string& stage) {
                const QString text = QString::fromStdString(stage);
                QMetaObject::invokeMethod(self, [self, percent, text] { emit self->progress(percent, text); }, Qt::QueuedConnection);
            });
        } catch (const std::exception& error) {
            result.error = QString::fromUtf8(error.what());
        }
        return result;
    }));
}
