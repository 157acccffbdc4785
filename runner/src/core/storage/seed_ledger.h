// seeds.jsonl in a run folder: one JSON line per finished seed run of a seeded test, appended the
// moment the seed's process ends. Each line is the seed run as results.json stores it (variant,
// seed, status, duration, metrics by name) plus the test's name.
#pragma once

#include <string>
#include <vector>

#include "execution/run_result.h"

namespace mlregress::internal {

struct SeedLedgerLine {
  std::string test;
  SeedRun run;
};

/// One line, without the newline.
std::string seed_ledger_line(const std::string& test, const SeedRun& run);

/// Reads a seed ledger. Throws RunFolderError naming the file, the line and the field for a
/// damaged line.
std::vector<SeedLedgerLine> read_seed_ledger(const std::string& path);

}  // namespace mlregress::internal
