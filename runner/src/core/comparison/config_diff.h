// What changed in a test's configuration since its baseline (or since run A in `compare`): the
// parameters, seed and thread count its config hash covers, named with both values, for the
// ENVIRONMENT line: "config changed: lr 0.02 → 0.05, precision fp32 → bf16".
#pragma once

#include <map>
#include <string>

namespace mlregress::internal {

/// "lr 0.02 → 0.05, precision fp32 → bf16": the names, in order, whose values differ, one that
/// is on one side only shown as "(none)" on the other; "" when the values are the same or one
/// side has none recorded (a baseline promoted, or a run recorded, before values were kept).
std::string config_changes(const std::map<std::string, std::string>& before,
                           const std::map<std::string, std::string>& after);

/// The ENVIRONMENT line's config part: " · config same" when the hashes are equal, else
/// " · config changed: " and config_changes, or " · config changed" when the values cannot say
/// what (not recorded on both sides).
std::string config_note(const std::string& hash_before, const std::string& hash_after,
                        const std::map<std::string, std::string>& before,
                        const std::map<std::string, std::string>& after);

}  // namespace mlregress::internal
