#include "support/base64.h"

#include <array>

namespace mlregress::internal {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The value of a base64 character, or -1.
int digit(char c) {
  const std::size_t at = kAlphabet.find(c);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

}  // namespace

std::string base64_encode(const std::uint8_t* data, std::size_t size) {
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  for (std::size_t i = 0; i < size; i += 3) {
    const std::uint32_t a = data[i];
    const std::uint32_t b = i + 1 < size ? data[i + 1] : 0;
    const std::uint32_t c = i + 2 < size ? data[i + 2] : 0;
    const std::uint32_t triple = (a << 16) | (b << 8) | c;
    out += kAlphabet[(triple >> 18) & 63];
    out += kAlphabet[(triple >> 12) & 63];
    out += i + 1 < size ? kAlphabet[(triple >> 6) & 63] : '=';
    out += i + 2 < size ? kAlphabet[triple & 63] : '=';
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    std::array<int, 4> v{};
    int padding = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = text[i + static_cast<std::size_t>(k)];
      if (c == '=' && last && k >= 2) {
        ++padding;
        v[static_cast<std::size_t>(k)] = 0;
        continue;
      }
      if (padding > 0) return std::nullopt;  // a character after '='
      v[static_cast<std::size_t>(k)] = digit(c);
      if (v[static_cast<std::size_t>(k)] < 0) return std::nullopt;
    }
    const auto triple =
        static_cast<std::uint32_t>((v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3]);
    out.push_back(static_cast<std::uint8_t>(triple >> 16));
    if (padding < 2) out.push_back(static_cast<std::uint8_t>((triple >> 8) & 255));
    if (padding < 1) out.push_back(static_cast<std::uint8_t>(triple & 255));
  }
  return out;
}

}  // namespace mlregress::internal
