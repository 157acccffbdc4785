#include "renderers/bmp_image.h"

#include "support/base64.h"

namespace mlregress::internal {
namespace {

void put_u16(std::string& out, std::uint32_t value) {
  out += static_cast<char>(value & 255);
  out += static_cast<char>((value >> 8) & 255);
}

void put_u32(std::string& out, std::uint32_t value) {
  put_u16(out, value & 0xFFFF);
  put_u16(out, value >> 16);
}

}  // namespace

std::string bmp_file(const std::uint8_t* pixels, std::int64_t height, std::int64_t width,
                     std::int64_t channels) {
  const auto w = static_cast<std::uint32_t>(width);
  const auto h = static_cast<std::uint32_t>(height);
  const std::uint32_t stride = (3 * w + 3) & ~3U;
  const std::uint32_t data_bytes = stride * h;
  std::string out;
  out.reserve(54 + data_bytes);
  out += "BM";
  put_u32(out, 54 + data_bytes);  // file size
  put_u32(out, 0);                // reserved
  put_u32(out, 54);               // offset of the pixels
  put_u32(out, 40);               // BITMAPINFOHEADER
  put_u32(out, w);
  put_u32(out, h);  // positive: rows bottom-up
  put_u16(out, 1);  // planes
  put_u16(out, 24);
  put_u32(out, 0);  // BI_RGB, no compression
  put_u32(out, data_bytes);
  put_u32(out, 2835);  // 72 dpi
  put_u32(out, 2835);
  put_u32(out, 0);
  put_u32(out, 0);
  const auto c = static_cast<std::size_t>(channels);
  for (std::int64_t y = height - 1; y >= 0; --y) {
    const std::uint8_t* row = pixels + static_cast<std::size_t>(y * width) * c;
    for (std::int64_t x = 0; x < width; ++x) {
      const std::uint8_t* p = row + static_cast<std::size_t>(x) * c;
      const bool rgb = channels == 3;
      out += static_cast<char>(rgb ? p[2] : p[0]);  // B
      out += static_cast<char>(rgb ? p[1] : p[0]);  // G
      out += static_cast<char>(p[0]);               // R
    }
    out.append(stride - 3 * w, '\0');
  }
  return out;
}

std::string bmp_data_uri(const std::uint8_t* pixels, std::int64_t height, std::int64_t width,
                         std::int64_t channels) {
  return "data:image/bmp;base64," + base64_encode(bmp_file(pixels, height, width, channels));
}

}  // namespace mlregress::internal
