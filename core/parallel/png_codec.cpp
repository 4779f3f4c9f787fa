// SPDX-License-Identifier: Apache-2.0
#include "parallel/png_codec.h"

#include "support/error.h"

#include <cairo.h>
#include <png.h>

#include <bit>
#include <csetjmp>
#include <memory>

namespace msprobe::parallel {

namespace {

void appendBytes(png_structp png, png_bytep data, png_size_t length)
{
    static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), length);
}

thread_local std::string encodingFailure;

// libpng reports errors by longjmp; the message is kept for the exception thrown once back in encodePng.
[[noreturn]] void failEncoding(png_structp png, png_const_charp message)
{
    encodingFailure = message;
    png_longjmp(png, 1);
}

} // namespace

std::string encodePng(const unsigned char* pixels, int width, int height, int stride)
{
    std::string out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, &failEncoding, nullptr);
    if (!png)
        throw support::Error("cannot encode the picture as PNG: out of memory");
    png_infop info = png_create_info_struct(png);
    struct Release {
        png_structp& png;
        png_infop& info;
        ~Release() { png_destroy_write_struct(&png, &info); }
    } release { png, info };
    if (!info)
        throw support::Error("cannot encode the picture as PNG: out of memory");
    if (setjmp(png_jmpbuf(png)))
        throw support::Error("cannot encode the picture as PNG: " + encodingFailure);
    png_set_write_fn(png, &out, &appendBytes, nullptr);
    png_set_compression_level(png, 1);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8, PNG_COLOR_TYPE_RGB,
        PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    // The 32-bit words are B, G, R, unused in memory on a little-endian machine; unused, R, G, B on a big-endian one.
    if constexpr (std::endian::native == std::endian::little) {
        png_set_bgr(png);
        png_set_filler(png, 0, PNG_FILLER_AFTER);
    } else {
        png_set_filler(png, 0, PNG_FILLER_BEFORE);
    }
    for (int y = 0; y < height; ++y)
        png_write_row(png, const_cast<png_bytep>(pixels + static_cast<std::ptrdiff_t>(y) * stride));
    png_write_end(png, info);
    return out;
}

PngPixels readPng(const std::filesystem::path& file)
{
    std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
        cairo_image_surface_create_from_png(file.c_str()), &cairo_surface_destroy);
    cairo_surface_t* s = surface.get();
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
        throw support::Error(file.string(), {}, std::string("cannot read as PNG: ") + cairo_status_to_string(cairo_surface_status(s)));
    cairo_surface_flush(s);
    PngPixels pixels;
    pixels.width = cairo_image_surface_get_width(s);
    pixels.height = cairo_image_surface_get_height(s);
    const int stride = cairo_image_surface_get_stride(s);
    const unsigned char* data = cairo_image_surface_get_data(s);
    pixels.argb.reserve(static_cast<std::size_t>(pixels.width) * static_cast<std::size_t>(pixels.height));
    for (int y = 0; y < pixels.height; ++y) {
        const auto* row = reinterpret_cast<const std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
        pixels.argb.insert(pixels.argb.end(), row, row + pixels.width);
    }
    return pixels;
}

} // namespace msprobe::parallel
