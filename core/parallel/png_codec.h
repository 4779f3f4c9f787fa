// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace msprobe::parallel {

// An 8-bit RGB PNG of a cairo RGB24 image (one 32-bit 0x00RRGGBB word per pixel, rows `stride` bytes apart).
// Compressed fast rather than small: a plot's flat areas shrink well at any level, and the default level
// triples the time of a 10,000-pixel-high picture.
std::string encodePng(const unsigned char* pixels, int width, int height, int stride);

// A PNG file decoded to 0xAARRGGBB pixels, row by row (for checks of what was drawn).
struct PngPixels {
    int width = 0, height = 0;
    std::vector<std::uint32_t> argb;
    std::uint32_t at(int x, int y) const
    {
        return argb[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
    }
};
// Throws msprobe::Error naming the file when it cannot be read as PNG.
PngPixels readPng(const std::filesystem::path& file);

} // namespace msprobe::parallel
