// SPDX-License-Identifier: Apache-2.0
// Exports of the comparison with the CLI's writers (written under a temporary name, renamed when complete).
#pragma once

#include "studiosession.h"

#include <QString>

namespace msprobe::studio::reportexport {

enum class Format { Csv, Xlsx, Html };

// Csv/Xlsx: the table of one (step, rank); Html: the report over every compared pair of the session.
// Returns an empty string on success, else the error naming the file.
QString exportComparison(const StudioSession& session, int step, int rank, Format format, const QString& file);

// Whether the session has tables compared here (CSV-loaded results cannot be re-exported as reports).
bool canExport(const StudioSession& session);

} // namespace msprobe::studio::reportexport
