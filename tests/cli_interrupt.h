// SPDX-License-Identifier: Apache-2.0
// Interrupts the msprobe executable at a chosen moment, for the CLI test suites: MSPROBE_TEST_HOLD_BEFORE_COMMIT=N
// makes the N-th commit of output files wait (its files complete under their temporary names) after announcing
// itself on stderr; the test then looks at the output folder and sends the signal.
#pragma once

#include "cli_runner.h"

#include <QProcess>
#include <QElapsedTimer>
#include <QProcessEnvironment>

#include <csignal>
#include <functional>

namespace msprobe::test {

struct InterruptedRun {
    bool held = false; // the run reached the hold point
    bool exitedNormally = false; // not killed by a signal
    int exitCode = -1;
    QString out, err;
};

inline InterruptedRun runCliInterrupted(const QStringList& args, int commit, int signal,
    const std::function<void()>& whileHeld = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("MSPROBE_TEST_HOLD_BEFORE_COMMIT", QString::number(commit));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(MSPROBE_CLI_PATH), args);
    InterruptedRun run;
    QByteArray err;
    const QByteArray marker = "msprobe: test hold before commit " + QByteArray::number(commit);
    QElapsedTimer timer;
    timer.start();
    while (!err.contains(marker) && process.state() != QProcess::NotRunning && timer.elapsed() < 120000) {
        process.waitForReadyRead(200);
        err += process.readAllStandardError();
    }
    run.held = err.contains(marker);
    if (run.held) {
        if (whileHeld)
            whileHeld();
        ::kill(static_cast<pid_t>(process.processId()), signal);
    } else {
        process.kill();
    }
    process.waitForFinished(60000);
    run.exitedNormally = process.exitStatus() == QProcess::NormalExit;
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(err + process.readAllStandardError());
    return run;
}

} // namespace msprobe::test
