// runs/ledger.jsonl: one line per run (a test run or an A/B comparison), appended when it ends,
// so that the history of a runs folder can be read without opening every run folder.
//
//   {"run_id": "...", "binary": "my_tests", "started_at": "...", "finished_at": "...",
//    "duration_s": 5.2, "tiers": ["fast"], "filter": "", "git_commit": "...", "git_dirty": false,
//    "summary": {...}, "exit_code": 0, "exit_status": "passed"}
//   {"run_id": "...", "kind": "ab", "binary": "...", "other_binary": "...", ...}
#pragma once

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
};

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
