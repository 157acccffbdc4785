// What `ledger RUNS` prints: one row per run of ledger.jsonl with its status, counts, criteria
// (met / not met), keep or reject (ledger_decision), the chosen metrics' values, the change and
// the hypothesis; as aligned text or as JSON.
#pragma once

#include <string>
#include <vector>

#include "storage/run_ledger.h"

namespace mlregress::internal {

/// The columns of `ledger --metric M [--test T]`: one per test that recorded M in some run (or
/// just T's), headed "M" when there is one such test, else "TEST.M".
struct LedgerMetricColumn {
  std::string test;
  std::string metric;
  std::string header;
};
std::vector<LedgerMetricColumn> ledger_metric_columns(const RunLedger& ledger,
                                                      const std::vector<std::string>& metrics,
                                                      const std::string& test);

/// The table, columns aligned; "—" where a run has no value, criteria or decision.
std::string ledger_text(const RunLedger& ledger, const std::vector<LedgerMetricColumn>& columns);
/// The same rows as a JSON array (one object per run, "metrics" by column header, null where a
/// run has no value), with a newline.
std::string ledger_json(const RunLedger& ledger, const std::vector<LedgerMetricColumn>& columns);

}  // namespace mlregress::internal
