// Everything a run writes while it goes on, as observers of the run: the console, the files in
// its folder (junit.xml, results.json, curves, predictions, seeds.jsonl), the --junit copy and, for
// ctest, the measurements. `run` feeds them as tests end; `merge` replays a merged run through
// them.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <vector>

#include "commands/cli_options.h"
#include "observers/console_reporter.h"
#include "observers/ctest_measurements.h"
#include "observers/curve_csv_writer.h"
#include "observers/junit_reporter.h"
#include "observers/predictions_writer.h"
#include "observers/results_json_writer.h"
#include "observers/seed_ledger_writer.h"
#include "storage/run_folder.h"

namespace mlregress::internal {

// Everything a run writes while it goes on: the console, the files in its folder, --junit.
struct RunOutputs {
  /// `write_curves`: false when the curve files are copied instead (merge).
  RunOutputs(const RunOptions& options, const RunFolder& folder, bool write_curves = true)
      : console(
            stdout,
            options.color == "always" || (options.color == "auto" && terminal_wants_color(stdout)),
            ::isatty(::fileno(stdout)) != 0),
        junit(folder.path + "/junit.xml"),
        junit_copy(options.junit),
        results(folder.path + "/results.json"),
        curves(folder.path),
        predictions(folder.path),
        seed_ledger(folder.path + "/seeds.jsonl"),
        ctest_measurements(stdout) {
    console.show_ablations_from(folder.path + "/seeds.jsonl");
    // Predictions before the console and results.json, which name their files.
    observers = {&predictions, &console, &junit, &results, &seed_ledger};
    if (write_curves) observers.push_back(&curves);
    if (!options.junit.empty()) observers.push_back(&junit_copy);
    if (options.ctest_measurements) observers.push_back(&ctest_measurements);
  }
  ConsoleReporter console;
  JunitReporter junit, junit_copy;
  ResultsJsonWriter results;
  CurveCsvWriter curves;
  PredictionsWriter predictions;
  SeedLedgerWriter seed_ledger;
  CTestMeasurementReporter ctest_measurements;
  std::vector<RunObserver*> observers;
};

}  // namespace mlregress::internal
