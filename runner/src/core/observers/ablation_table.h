// The ablation table of a seeded test with variants, built from the run's seed ledger
// (seeds.jsonl) as the seeds' ablation script builds its summary from its JSONL log: per
// variant and metric, the mean over the seeds with its standard error and 95% t interval, the sd
// and the per-seed values (optionally robust summaries: the IQM with a bootstrap interval and the
// median with its order-statistic interval); then each variant
// against the first, paired seed by seed (the variants share their seeds), with the difference,
// its 95% confidence interval and a two-sided paired-t p-value, Holm-adjusted across the
// table's comparisons (each extra variant is one more chance of a spurious "effect").
#pragma once

#include <string>
#include <vector>

#include "storage/seed_ledger.h"

namespace mlregress::internal {

/// The tables of every test in `lines` that has at least two variants (only `test` when it is
/// not empty), from the seeds that passed. Empty when there is no such test. `robust` adds, under
/// each variant, "IQM x [bootstrap 95% a, b] · median m [c, d] (coverage%)".
std::string render_ablation_tables(std::vector<SeedLedgerLine> lines, const std::string& test = "",
                                   bool robust = false);

}  // namespace mlregress::internal
