// Seeds as text a person reads at a glance: "0-7, 100-107" instead of sixteen numbers. A seed
// pool's blocks (baseline.h, PoolBlock) name their seeds this way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress::internal {

/// Ascending, each run of consecutive seeds as "first-last", single seeds alone, joined by ", ".
/// Duplicates are written once.
std::string seed_ranges_text(std::vector<std::uint64_t> seeds);

/// The seeds `text` names, ascending; nullopt when it is not of the form seed_ranges_text writes
/// (a range that runs backwards, a seed listed twice, anything but digits, '-', ',' and spaces),
/// or names more than `max_seeds` seeds (a typo such as "0-1000000000" must not allocate a
/// billion).
std::optional<std::vector<std::uint64_t>> parse_seed_ranges(std::string_view text,
                                                            std::size_t max_seeds = 1'000'000);

}  // namespace mlregress::internal
