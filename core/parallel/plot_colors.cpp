// SPDX-License-Identifier: Apache-2.0
#include "parallel/plot_colors.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace msprobe::parallel {

namespace {

using Palette = std::array<std::uint32_t, 20>;

// matplotlib's qualitative colour maps.
constexpr Palette kTab20 = { 0x1f77b4, 0xaec7e8, 0xff7f0e, 0xffbb78, 0x2ca02c, 0x98df8a, 0xd62728, 0xff9896, 0x9467bd,
    0xc5b0d5, 0x8c564b, 0xc49c94, 0xe377c2, 0xf7b6d2, 0x7f7f7f, 0xc7c7c7, 0xbcbd22, 0xdbdb8d, 0x17becf, 0x9edae5 };
constexpr Palette kTab20b = { 0x393b79, 0x5254a3, 0x6b6ecf, 0x9c9ede, 0x637939, 0x8ca252, 0xb5cf6b, 0xcedb9c, 0x8c6d31,
    0xbd9e39, 0xe7ba52, 0xe7cb94, 0x843c39, 0xad494a, 0xd6616b, 0xe7969c, 0x7b4173, 0xa55194, 0xce6dbd, 0xde9ed6 };
constexpr Palette kTab20c = { 0x3182bd, 0x6baed6, 0x9ecae1, 0xc6dbef, 0xe6550d, 0xfd8d3c, 0xfdae6b, 0xfdd0a2, 0x31a354,
    0x74c476, 0xa1d99b, 0xc7e9c0, 0x756bb1, 0x9e9ac8, 0xbcbddc, 0xdadaeb, 0x636363, 0x969696, 0xbdbdbd, 0xd9d9d9 };
// viridis at 0, 1/8, ..., 1; interpolated linearly in between.
constexpr std::array<std::uint32_t, 9> kViridis = { 0x440154, 0x472c7a, 0x3b518b, 0x2c718e, 0x21908d, 0x27ad81, 0x5cc863,
    0xaadc32, 0xfde725 };

Rgb fromHex(std::uint32_t hex)
{
    return { ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0 };
}

Rgb viridis(double t)
{
    t = std::clamp(t, 0.0, 1.0) * (kViridis.size() - 1);
    const auto low = std::min(static_cast<std::size_t>(t), kViridis.size() - 2);
    const double f = t - static_cast<double>(low);
    const Rgb a = fromHex(kViridis[low]), b = fromHex(kViridis[low + 1]);
    return { a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f };
}

} // namespace

Rgb copyColor(int copy, int copyCount)
{
    if (copyCount <= 20)
        return fromHex(kTab20[static_cast<std::size_t>(copy % 20)]);
    if (copyCount <= 40)
        return fromHex(copy < 20 ? kTab20b[static_cast<std::size_t>(copy)] : kTab20c[static_cast<std::size_t>(copy - 20)]);
    return viridis(static_cast<double>(copy) / (copyCount - 1));
}

} // namespace msprobe::parallel
