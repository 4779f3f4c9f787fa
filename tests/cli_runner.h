// SPDX-License-Identifier: Apache-2.0
// Runs the msprobe executable for the CLI test suites.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace msprobe::test {

struct Run {
    int exitCode;
    QString out, err;
};

inline Run runCli(const QStringList& args)
{
    QProcess process;
    process.start(QStringLiteral(MSPROBE_CLI_PATH), args);
    process.waitForFinished(300000);
    return { process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
        QString::fromUtf8(process.readAllStandardError()) };
}

} // namespace msprobe::test
