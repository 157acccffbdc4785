#include "commands/notes_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "renderers/experiment_result.h"
#include "storage/experiment_notes.h"
#include "storage/results_json.h"
#include "storage/run_ledger.h"
#include "storage/run_record.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {

ExitCode notes_command(const NotesOptions& options) {
  const RunRecord record = read_run_record(options.run);
  const std::string path = options.run + "/notes.md";
  ExperimentNotes notes;
  if (std::filesystem::exists(path)) {
    notes = read_notes_file(path);
  } else {
    notes.result = experiment_result(record.run);
  }
  if (options.interpretation.empty() && options.next.empty()) {
    std::fputs(render_notes(notes, record.run.info.run_id).c_str(), stdout);
    return ExitCode::kPassed;
  }
  if (!options.interpretation.empty()) notes.interpretation = options.interpretation;
  if (!options.next.empty()) notes.next = options.next;
  write_file_atomically(path, render_notes(notes, record.run.info.run_id));
  std::printf("notes: %s\n", path.c_str());
  return ExitCode::kPassed;
}

ExitCode ledger_command(const LedgerOptions& options) {
  const RunLedger ledger = read_run_ledger(options.runs);
  std::printf("%-28s %-18s %-22s %s\n", "run", "status", "tests", "hypothesis");
  for (const LedgerEntry& entry : ledger.entries) {
    const RunSummary summary = entry.summary.value_or(RunSummary{});
    const std::string tests = entry.kind == "ab"
                                  ? "A/B timing"
                                  : fmt::format("{} run, {} passed", summary.tests, summary.passed);
    std::printf("%-28s %-18s %-22s %s\n", entry.run_id.c_str(), exit_code_name(entry.exit_code),
                tests.c_str(), entry.hypothesis.c_str());
  }
  for (const std::string& damaged : ledger.damaged) std::fprintf(stderr, "%s\n", damaged.c_str());
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
