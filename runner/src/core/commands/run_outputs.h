// Everything a run writes while it goes on, as observers of the run: the console, the files in
// its folder (junit.xml, results.json, curves, predictions, batches, seeds.jsonl), the --junit copy
// and, for ctest, the measurements. `run` feeds them as tests end; `merge` replays a merged run
// through them.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "observers/batch_view_writer.h"
#include "observers/console_reporter.h"
#include "observers/ctest_measurements.h"
#include "observers/curve_csv_writer.h"
#include "observers/junit_reporter.h"
#include "observers/predictions_writer.h"
#include "observers/results_json_writer.h"
#include "observers/seed_ledger_writer.h"
#include "storage/run_folder.h"

namespace mlregress::internal {

// What the outputs read of a command's options: `run` fills it from its RunOptions, `merge` from
// its MergeOptions.
struct OutputSettings {
  std::string color = "auto";       ///< "always", "never" or "auto" (when stdout is a terminal)
  std::string junit;                ///< extra copy of the JUnit file; empty: none
  bool ctest_measurements = false;  ///< print each metric as a <CTestMeasurement> for CDash
  bool write_curves = true;         ///< false when the curve files are copied instead (merge)
};

// Everything a run writes while it goes on: the console, the files in its folder, --junit.
struct RunOutputs {
  RunOutputs(const OutputSettings& settings, const RunFolder& folder)
      : console(stdout,
                settings.color == "always" ||
                    (settings.color == "auto" && terminal_wants_color(stdout)),
                ::isatty(::fileno(stdout)) != 0),
        junit(folder.path + "/junit.xml"),
        junit_copy(settings.junit),
        results(folder.path + "/results.json"),
        curves(folder.path),
        predictions(folder.path),
        batches(folder.path),
        seed_ledger(folder.path + "/seeds.jsonl"),
        ctest_measurements(stdout) {
    console.show_ablations_from(folder.path + "/seeds.jsonl");
    // Predictions before the console and results.json, which name their files.
    observers = {&predictions, &batches, &console, &junit, &results, &seed_ledger};
    if (settings.write_curves) observers.push_back(&curves);
    if (!settings.junit.empty()) observers.push_back(&junit_copy);
    if (settings.ctest_measurements) observers.push_back(&ctest_measurements);
  }
  ConsoleReporter console;
  JunitReporter junit, junit_copy;
  ResultsJsonWriter results;
  CurveCsvWriter curves;
  PredictionsWriter predictions;
  BatchViewWriter batches;
  SeedLedgerWriter seed_ledger;
  CTestMeasurementReporter ctest_measurements;
  std::vector<RunObserver*> observers;
};

}  // namespace mlregress::internal
