// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace msprobe::parallel {

struct Rgb {
    double r = 0, g = 0, b = 0; // 0..1
};

// Colour of model copy `copy` (0-based) among `copyCount` copies, as the reference picks them (spec 4.4):
// up to 20 copies tab20, 21 to 40 tab20b then tab20c, more viridis sampled evenly.
Rgb copyColor(int copy, int copyCount);

} // namespace msprobe::parallel
