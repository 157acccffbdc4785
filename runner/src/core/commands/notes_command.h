// `notes RUN [--interpretation TEXT] [--next TEXT]`: adds a person's reading of the result to the
// run's notes.md (or prints it), and `ledger [RUNS_DIR]`: the runs of a folder with their
// hypotheses and outcomes, from ledger.jsonl.
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"
#include "record/run_result.h"

namespace mlregress::internal {

ExitCode notes_command(const NotesOptions& options);
ExitCode ledger_command(const LedgerOptions& options);

}  // namespace mlregress::internal
