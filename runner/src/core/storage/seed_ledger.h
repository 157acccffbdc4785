// seeds.jsonl in a run folder: one JSON line per finished seed run of a seeded test, appended the
// moment the seed's process ends. Each line is the seed run as results.json stores it (variant,
// seed, status, duration, metrics by name) plus the test's name. A sequential test adds, when it
// ends, one line per look of the gate at each metric: {"test", "metric", "look": {...}}.
#pragma once

#include <string>
#include <vector>

#include "record/run_result.h"

namespace mlregress::internal {

struct SeedLedgerLine {
  std::string test;
  SeedRun run;
};

/// One look of a sequential test's gate at one metric.
struct SeedLedgerLook {
  std::string test;
  std::string metric;
  SequentialLook look;
};

/// One line, without the newline.
std::string seed_ledger_line(const std::string& test, const SeedRun& run);
std::string seed_ledger_line(const std::string& test, const std::string& metric,
                             const SequentialLook& look);

struct SeedLedger {
  std::vector<SeedLedgerLine> lines;
  std::vector<SeedLedgerLook> looks;
  /// "seeds.jsonl:9: skipped, not a seed ledger line (...)": one note per damaged line (a
  /// process killed while writing it), which the reader reports and skips.
  std::vector<std::string> damaged;
};

/// Reads a seed ledger. Throws RunFolderError when the file cannot be read; a damaged line is
/// skipped and reported in `damaged`, naming the file, the line and the field.
SeedLedger read_seed_ledger(const std::string& path);

}  // namespace mlregress::internal
