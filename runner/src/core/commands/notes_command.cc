#include "commands/notes_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "comparison/run_criteria.h"
#include "renderers/experiment_result.h"
#include "renderers/ledger_table.h"
#include "storage/experiment_notes.h"
#include "storage/results_json.h"
#include "storage/run_ledger.h"
#include "storage/run_record.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {

ExitCode notes_command(const NotesOptions& options) {
  RunRecord record = read_run_record(options.run);
  const std::string path = options.run + "/notes.md";
  ExperimentNotes notes;
  if (std::filesystem::exists(path)) {
    notes = read_notes_file(path);
  }
  // The criteria are checked again on the record as it is now (a notes.md edited by hand, a
  // merged run), and the Result says what they give.
  if (!notes.criteria.empty()) record.run.criteria = check_criteria(notes.criteria, record.run);
  if (notes.result.empty() || !notes.criteria.empty()) notes.result = experiment_result(record.run);
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
  const std::vector<LedgerMetricColumn> columns =
      ledger_metric_columns(ledger, options.metrics, options.test);
  const std::string table =
      options.format == "json" ? ledger_json(ledger, columns) : ledger_text(ledger, columns);
  std::fputs(table.c_str(), stdout);
  for (const std::string& damaged : ledger.damaged) std::fprintf(stderr, "%s\n", damaged.c_str());
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
