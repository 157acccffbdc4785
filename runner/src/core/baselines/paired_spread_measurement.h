// Measuring the spread of paired differences a baseline stores (analysis/paired_spread.h): the sd
// of new - old over the seeds a run shares with the stored values. A plain promotion measures it
// on the way when it replaces the values of seeds the baseline held; `promote --paired-spread`
// measures it alone, leaving the samples as they are (a pool grown with --add-seeds keeps its
// seeds, and gains the scale its paired looks need).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/paired_spread.h"
#include "baselines/baseline.h"
#include "baselines/promotion.h"
#include "record/run_result.h"

namespace mlregress::internal {

/// The spread of `samples` (on `seeds`) against `stored`'s values of the same seeds: nullopt when
/// they share fewer than kFewestStoredPairs seeds or no seed moved (the same values again).
std::optional<PairedSpread> measure_paired_spread(const BaselineMetric& stored,
                                                  const std::vector<std::uint64_t>& seeds,
                                                  const std::vector<double>& samples,
                                                  const std::string& source_run,
                                                  const std::string& now);

/// `promote --paired-spread`: per seeded metric of the run's selected tests, the spread of its
/// paired differences against the stored values, stored as the metric's paired_spread; nothing
/// else changes. The run may be of another configuration (what moved the seeds may be a
/// parameter). A metric none of whose shared seeds moved (a covariate of the data alone) is left
/// without a spread, with a line saying so. Throws PromotionRefused, listing every reason and
/// writing nothing, for a failed test, a test without a baseline, a metric the baseline lacks or
/// sharing fewer than kFewestStoredPairs seeds with the run, or a run that moved no metric. With
/// request.add_pairs the run's pairs join a stored spread's (the sd and mean over every
/// difference), refused when it does not record its seeds or already counts one of the run's.
/// Returns only the files that change.
std::vector<PlannedFile> plan_paired_spread(const RunRecord& record, const BaselineSet& existing,
                                            const PromotionRequest& request);

}  // namespace mlregress::internal
