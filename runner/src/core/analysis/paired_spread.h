// The spread of a metric's paired per-seed differences, measured before the run: the sd of
// (new - old) over the seeds two promoted runs of the same seeds shared, stored with the baseline
// by promote. Paired likelihood-ratio looks take it as their scale, as fresh-seed looks take the
// baseline arm's sd, so that they can look from the first seeds instead of estimating the scale
// from a first look of their own (runner/docs/seeded-tests.md, "What the scale costs").
//
// Its assumption is the fresh-seed looks' own: a candidate's differences spread as the stored
// ones did (a change that moves every seed's numbers without changing the quality, as the
// promoted change did). A change that spreads them further raises the false REGRESSION rate as
// a candidate whose seeds spread more than the baseline's does for fresh seeds.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlregress::internal {

struct PairedSpread {
  double sd = 0.0;  ///< of the per-seed differences, in the metric's units; > 0
  int pairs = 0;    ///< the seeds both runs shared (the sd has pairs - 1 df)
  /// The mean of the differences and the seeds they were measured on, ascending: with sd and
  /// pairs, what `promote --paired-spread --add-pairs` needs to add another run's pairs exactly
  /// and to count a seed once. Empty seeds: a spread stored before they were kept (pairs can be
  /// replaced, not added to).
  double mean = 0.0;
  std::vector<std::uint64_t> seeds;
  std::string source_run;   ///< the promoted run whose values made the new side of the pairs
  std::string measured_at;  ///< UTC
  friend bool operator==(const PairedSpread&, const PairedSpread&) = default;
};

/// Fewer shared seeds than this measure no spread worth storing: the first look's own sd of a
/// paired design (8 seeds) would be as good.
inline constexpr int kFewestStoredPairs = 9;

/// A spread that can scale paired looks: a positive, finite sd on at least 2 pairs (the baseline
/// reader refuses any other; a baseline built in memory may still hold one).
inline bool usable_spread(const std::optional<PairedSpread>& spread) {
  return spread && spread->sd > 0.0 && std::isfinite(spread->sd) && spread->pairs >= 2;
}

}  // namespace mlregress::internal
