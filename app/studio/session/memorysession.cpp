// SPDX-License-Identifier: Apache-2.0
#include "memorysession.h"

#include <QtConcurrent/QtConcurrentRun>

MemorySession::MemorySession(QObject* parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, [this] {
        const Result result = m_watcher.result();
        const bool cancelled = m_cancel && m_cancel->load();
        if (cancelled) {
            emit loadFinished(false, QString());
            return;
        }
        if (!result.document) {
            emit loadFinished(false, result.error);
            return;
        }
        m_document = result.document;
        emit documentChanged();
        emit loadFinished(true, QString());
    });
}

MemorySession::~MemorySession()
{
    cancel();
    m_watcher.waitForFinished();
}

void MemorySession::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void MemorySession::open(const QString& file)
{
    cancel();
    m_watcher.waitForFinished();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    // The destructor waits for the worker, and a queued call to a destroyed context is dropped.
    MemorySession* self = this;
    m_watcher.setFuture(QtConcurrent::run([file, cancelFlag, self]() -> Result {
        Result result;
        try {
            result.document = studio::loadMemoryDocument(file.toStdString(), cancelFlag.get(), [&](int percent, const std::string& stage) {
                const QString text = QString::fromStdString(stage);
                QMetaObject::invokeMethod(self, [self, percent, text] { emit self->progress(percent, text); }, Qt::QueuedConnection);
            });
        } catch (const std::exception& error) {
            result.error = QString::fromUtf8(error.what());
        }
        return result;
    }));
}
