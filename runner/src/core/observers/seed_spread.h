// The "spread over seeds" block of a randomness study's ablation table
// (Seeds(n).randomness_study()): per metric and variant, the sd over the seeds with its 95%
// chi-square interval and its variance as a share of the variant "all"'s; and a warning for a
// variant whose varied stream changed nothing (every metric's sd exactly 0).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mlregress::internal {

/// metric -> variant -> the variant's values over its seeds (the seeds that passed).
using SpreadSamples = std::map<std::string, std::map<std::string, std::vector<double>>>;

/// The block for `variants` (in declared order) and `metrics` (in table order); "" when the
/// variants are not a randomness study's (all, data_order_only, initialisation_only, data_only).
std::string spread_over_seeds_block(const std::vector<std::string>& variants,
                                    const std::vector<std::string>& metrics,
                                    const SpreadSamples& samples);

}  // namespace mlregress::internal
