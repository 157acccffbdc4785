// An uncompressed 24-bit BMP file of one 8-bit image: what report.html inlines as a data: URI to
// show a recorded batch (its CSP allows images from data: only). No library, no compression: a
// 32x32 RGB image is 3,126 bytes.
#pragma once

#include <cstdint>
#include <string>

namespace mlregress::internal {

/// The BMP file of the image at `pixels` (height x width x channels, row-major, top row first;
/// 1 channel is grey, 3 are RGB). Rows are stored bottom-up as BGR, padded to 4 bytes.
std::string bmp_file(const std::uint8_t* pixels, std::int64_t height, std::int64_t width,
                     std::int64_t channels);

/// "data:image/bmp;base64,…" of that file.
std::string bmp_data_uri(const std::uint8_t* pixels, std::int64_t height, std::int64_t width,
                         std::int64_t channels);

}  // namespace mlregress::internal
