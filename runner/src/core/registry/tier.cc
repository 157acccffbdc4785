#include "mlregress/tier.h"

namespace mlregress {

std::string_view tier_name(Tier tier) {
  switch (tier) {
    case Tier::Fast:
      return "fast";
    case Tier::Medium:
      return "medium";
    case Tier::Full:
      return "full";
  }
  return "unknown";
}

std::optional<Tier> parse_tier(std::string_view text) {
  for (Tier tier : {Tier::Fast, Tier::Medium, Tier::Full}) {
    if (text == tier_name(tier)) return tier;
  }
  return std::nullopt;
}

}  // namespace mlregress
