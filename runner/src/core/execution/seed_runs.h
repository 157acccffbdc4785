// What the seeds of a seeded test add up to. Each (variant, seed) runs in its own process and
// becomes a SeedRun; when the last one has ended, the test's failures, metrics (per-seed
// samples) and status are summarised from them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "execution/run_plan.h"
#include "execution/test_events.h"
#include "record/run_result.h"

namespace mlregress::internal {

/// The SeedRun of one seed from the events its process sent. `death` is empty when the process
/// ended normally, else why it did not ("killed by signal 9", "timed out after 600 s"): a seed
/// that did not finish is crashed. Its curves are appended to `curves`, named
/// "<curve>[<variant>].seed<N>" so that seeds and variants do not collide (a flaky-aware test's:
/// the first attempt's only, under their own names).
SeedRun seed_run_from_events(const SeedJob& job, const std::vector<TestEvent>& events,
                             const std::string& death, double duration_s,
                             std::vector<CurveRecord>& curves);

/// Inserts `run` in plan order (variant, then seed), whatever order the workers finished in:
/// results must not depend on --jobs. Returns the inserted element.
SeedRun& insert_in_plan_order(std::vector<SeedRun>& runs, SeedRun run);

/// After the last seed: one failure per failed or crashed seed, the metrics (the per-seed
/// samples of the seeds that passed, in plan order, their mean as the value), and the status
/// (crashed if a seed did not finish, failed if one failed, skipped if all skipped). The status
/// is returned; the test's other fields are filled in.
/// A flaky-aware test (test.attempts set) instead: the metrics of its first attempt in plan
/// order, and the failure-rate metric with one sample per attempt that did not skip (1 failed
/// or crashed, 0 passed); a failed attempt adds no failure to the test, which passes (or skips,
/// when every attempt skipped): the gate judges the rate.
TestStatus summarize_seed_runs(TestResult& test);

/// "attempt 3 (seed 2)": a flaky-aware test's attempt, counted from 1.
std::string attempt_label(const TestResult& test, const SeedRun& run);

}  // namespace mlregress::internal
