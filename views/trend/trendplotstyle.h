// SPDX-License-Identifier: Apache-2.0
// The trend plots in the window's palette (light or dark theme): background, axes, grid and text.
#pragma once

class QCustomPlot;

namespace msprobe::views {

void styleTrendPlot(QCustomPlot* plot);

} // namespace msprobe::views
