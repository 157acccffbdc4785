#include "mlregress/tier.h"

#include "support/enum_names.h"

namespace mlregress {

namespace {

constexpr auto kTierNames = internal::enum_names<Tier>(
    {{Tier::Fast, "fast"}, {Tier::Medium, "medium"}, {Tier::Full, "full"}});

}  // namespace

std::string_view tier_name(Tier tier) { return kTierNames.name(tier, "unknown"); }

std::optional<Tier> parse_tier(std::string_view text) { return kTierNames.parse(text); }

}  // namespace mlregress
