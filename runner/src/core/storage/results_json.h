// results.json: the machine-readable record of a run (schema in runner/docs/results-schema.md),
// defined once as to_json / from_json of the run record. The run writes it after every test;
// promote, compare, --ab and the reports read it back into the same types.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "record/run_result.h"

namespace mlregress::internal {

inline constexpr int kResultsSchemaVersion = 1;

/// How many finished tests ended in each status.
struct RunSummary {
  std::size_t tests = 0, passed = 0, failed = 0, skipped = 0, crashed = 0, regressed = 0,
              timed_out = 0;
};
RunSummary summarize_run(const RunResult& run);

void to_json(nlohmann::json& json, const RunSummary& summary);
/// The whole document. Only finished tests are written.
void to_json(nlohmann::json& json, const RunResult& run);
/// One seed run of a seeded test: variant, seed, status, duration, metrics by name.
void to_json(nlohmann::json& json, const SeedRun& run);

/// The inverse. Throws JsonFieldError naming the field ("tests[3].metrics[1].value: ...").
/// The environment and the run folder are not part of results.json: the reader fills them in.
void from_json(const nlohmann::json& json, RunResult& run);
void from_json(const nlohmann::json& json, SeedRun& run);

/// One look of a sequential test at one metric (results.json's "looks", seeds.jsonl's "look"):
/// seeds, information fraction, share of alpha, difference, the look's interval and level, the
/// raw and sequential p-values, the outcome.
void to_json(nlohmann::json& json, const SequentialLook& look);
void from_json(const nlohmann::json& json, SequentialLook& look);

/// The document as written to disk (2-space indent, invalid UTF-8 in user text replaced).
std::string render_results_json(const RunResult& run);

/// Reads a results.json file. Throws RunFolderError naming the file and the field.
RunResult read_results_json(const std::string& path);

}  // namespace mlregress::internal
