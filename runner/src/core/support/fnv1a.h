// FNV-1a, 64 bits: a small, stable, well-known hash for fingerprints that must never change
// between runs, machines or versions (config hashes, environment profile ids). Not for security.
#pragma once

#include <cstdint>
#include <string_view>

namespace mlregress::internal {

constexpr std::uint64_t fnv1a_64(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // offset basis
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;  // prime
  }
  return hash;
}

static_assert(fnv1a_64("") == 0xcbf29ce484222325ULL);
static_assert(fnv1a_64("a") == 0xaf63dc4c8601ec8cULL);  // the published test vector

}  // namespace mlregress::internal
