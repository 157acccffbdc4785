// runs/ledger.jsonl: one line per run (a test run or an A/B comparison), appended when it ends,
// so that the history of a runs folder can be read without opening every run folder.
//
//   {"run_id": "...", "binary": "my_tests", "started_at": "...", "finished_at": "...",
//    "duration_s": 5.2, "tiers": ["fast"], "filter": "", "git_commit": "...", "git_dirty": false,
//    "summary": {...}, "exit_code": 0, "exit_status": "passed", "hypothesis": "...",
//    "change": "...", "criteria": "met", "metrics": {"Passes": {"value": 1.5}}}
//   (hypothesis, change, criteria and metrics only when there is something to say; older lines
//   lack them)
//   {"run_id": "...", "kind": "ab", "binary": "...", "other_binary": "...", ...}
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "environment/git_info.h"
#include "mlregress/exit_code.h"
#include "storage/results_json.h"

namespace mlregress::internal {

struct LedgerEntry {
  std::string run_id;
  std::string kind = "run";  ///< "run" or "ab"
  std::string binary;
  std::string other_binary;  ///< ab: the build compared with
  std::string started_at;
  std::string finished_at;  ///< run only
  double duration_s = 0.0;
  std::vector<std::string> tiers;  ///< run only
  std::string filter;              ///< run only
  GitInfo git;
  std::optional<RunSummary> summary;  ///< run only
  ExitCode exit_code = ExitCode::kPassed;
  std::string hypothesis;  ///< run only, when given (run --hypothesis)
  std::string change;      ///< run only, when given (run --change): the single intentional change
  /// run only: the notes' machine-checkable criteria taken together ("met", "not met", "not
  /// evaluated"; criteria_outcome), "" when the run had none.
  std::string criteria;
  /// run only: every finished test's single values, test name -> metric -> value (a seeded
  /// test's: the mean over its seeds), which `ledger --metric` shows. Absent from older lines.
  std::map<std::string, std::map<std::string, double>> metrics;
};

/// keep or reject, by the rule `ledger` documents: "keep" when the criteria were met and the run
/// passed, "reject" when they were not met or the run did not pass (a failed test, a regression,
/// ...), "" (undecided) when the run had no machine-checkable criteria or they could not be
/// evaluated.
std::string ledger_decision(const LedgerEntry& entry);

/// The entry of a finished test run.
LedgerEntry ledger_entry(const RunResult& run);

void to_json(nlohmann::json& json, const LedgerEntry& entry);
/// The inverse: run_id and exit_code are required, the others default when missing. Throws
/// JsonFieldError naming the field.
void from_json(const nlohmann::json& json, LedgerEntry& entry);

struct RunLedger {
  std::vector<LedgerEntry> entries;  ///< in the order the runs ended
  /// "runs/ledger.jsonl:3: skipped, not a ledger line (...)": one note per damaged line, which
  /// the reader reports and skips.
  std::vector<std::string> damaged;
};

/// Reads `<runs_folder>/ledger.jsonl`. Throws RunFolderError naming the file when it cannot be
/// read; a damaged line is skipped and reported in `damaged`, naming the file, the line and the
/// field.
RunLedger read_run_ledger(const std::string& runs_folder);

}  // namespace mlregress::internal
