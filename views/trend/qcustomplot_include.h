// SPDX-License-Identifier: Apache-2.0
// QCustomPlot's header for code built with QT_NO_FOREACH: two of its inline templates use foreach, given here
// as the range-for it stands for, only while the header is read.
#pragma once

#ifndef foreach
#define foreach(variable, container) for (variable : container)
#define MSPROBE_QCP_FOREACH
#endif
#include <qcustomplot.h>
#ifdef MSPROBE_QCP_FOREACH
#undef foreach
#undef MSPROBE_QCP_FOREACH
#endif
