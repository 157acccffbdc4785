// `notes RUN [--interpretation TEXT] [--next TEXT]`: adds a person's reading of the result to the
// run's notes.md (or prints it), its success criteria checked again from results.json; and
// `ledger [RUNS_DIR] [--metric NAME]... [--test NAME] [--format text|json]`: the runs of a folder
// with their outcomes, criteria, keep/reject, chosen metrics, change and hypothesis, from
// ledger.jsonl (renderers/ledger_table.h).
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"
#include "record/run_result.h"

namespace mlregress::internal {

ExitCode notes_command(const NotesOptions& options);
ExitCode ledger_command(const LedgerOptions& options);

}  // namespace mlregress::internal
