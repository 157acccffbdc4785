// Tiers sort tests by cost: fast (seconds, invariants), medium (minutes, throughput and memory),
// full (tens of minutes, multi-seed statistics). A test declares its tier once, in ML_TEST.
#pragma once

#include <optional>
#include <string_view>

namespace mlregress {

enum class Tier { Fast, Medium, Full };

/// Lower-case name used on the command line, in labels and in reports: "fast", "medium", "full".
std::string_view tier_name(Tier tier);

/// Parses a lower-case tier name; nullopt for anything else.
std::optional<Tier> parse_tier(std::string_view text);

}  // namespace mlregress
