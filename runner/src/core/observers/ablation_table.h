// The ablation table of a seeded test with variants, built from the run's seed ledger
// (seeds.jsonl) as the seeds' ablation script builds its summary from its JSONL log: per
// variant and metric, mean ± sd over the seeds and the per-seed values; then each variant
// against the first, paired seed by seed (the variants share their seeds), with the difference,
// its 95% confidence interval and a two-sided paired-t p-value, Holm-adjusted across the
// table's comparisons (each extra variant is one more chance of a spurious "effect").
#pragma once

#include <string>
#include <vector>

#include "storage/seed_ledger.h"

namespace mlregress::internal {

/// The tables of every test in `lines` that has at least two variants (only `test` when it is
/// not empty), from the seeds that passed. Empty when there is no such test.
std::string render_ablation_tables(std::vector<SeedLedgerLine> lines, const std::string& test = "");

}  // namespace mlregress::internal
