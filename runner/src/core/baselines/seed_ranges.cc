#include "baselines/seed_ranges.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace mlregress::internal {

std::string seed_ranges_text(std::vector<std::uint64_t> seeds) {
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
  std::string text;
  for (std::size_t i = 0; i < seeds.size();) {
    std::size_t last = i;
    while (last + 1 < seeds.size() && seeds[last + 1] == seeds[last] + 1) ++last;
    if (!text.empty()) text += ", ";
    text += last == i ? fmt::format("{}", seeds[i]) : fmt::format("{}-{}", seeds[i], seeds[last]);
    i = last + 1;
  }
  return text;
}

namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

std::optional<std::uint64_t> seed_number(std::string_view text) {
  text = trimmed(text);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::vector<std::uint64_t>> parse_seed_ranges(std::string_view text,
                                                            std::size_t max_seeds) {
  std::vector<std::uint64_t> seeds;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view part = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (comma != std::string_view::npos && trimmed(text).empty()) return std::nullopt;  // "1,"
    const std::size_t dash = part.find('-');
    const std::optional<std::uint64_t> first = seed_number(part.substr(0, dash));
    const std::optional<std::uint64_t> last =
        dash == std::string_view::npos ? first : seed_number(part.substr(dash + 1));
    if (!first || !last || *last < *first) return std::nullopt;
    if (*last - *first >= max_seeds - std::min(max_seeds, seeds.size())) return std::nullopt;
    for (std::uint64_t seed = *first;; ++seed) {
      seeds.push_back(seed);
      if (seed == *last) break;
    }
  }
  std::vector<std::uint64_t> sorted = seeds;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return std::nullopt;
  if (sorted != seeds) return std::nullopt;  // ranges out of order: not what the writer writes
  return seeds;
}

}  // namespace mlregress::internal
