// Base64 (RFC 4648, with padding) for bytes that travel inside text: a batch's pixels in its JSON
// file and an image inline in report.html (a data: URI).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress::internal {

std::string base64_encode(const std::uint8_t* data, std::size_t size);
inline std::string base64_encode(std::string_view bytes) {
  return base64_encode(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

/// The bytes of `text`, or nullopt when it is not base64 (a character outside the alphabet, a
/// length that is not a multiple of 4, padding in the middle).
std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text);

}  // namespace mlregress::internal
