// The "bare main" half of the runner-overhead benchmark (ci/benchmark-runner-overhead.sh):
// exactly the work of the suite test Fast.CnnOverfitsOneBatch
// (suites/fast/overfit_one_batch_test.cc) with no runner around it, so that the two can be timed
// against each other and checked to compute the same final loss. The runner's per-test setup
// (torch_hooks.cc) is reproduced here: seed 0, one intra-op thread, deterministic algorithms (warn
// only).
#include <chrono>
#include <cstdio>
#include <vector>

#include "small_cnn.h"

int main() {
  using Clock = std::chrono::steady_clock;
  using mlregress::examples::make_random_batch;
  using mlregress::examples::make_small_cnn;
  using mlregress::examples::train_on_batch;

  // What the runner does before each test body (seed_and_fix_threads).
  torch::manual_seed(0);
  at::set_num_threads(1);
  at::globalContext().setDeterministicAlgorithms(true, /*warn_only=*/true);

  // The test body: batch first, then reseed and build the model, then train.
  const Clock::time_point body_start = Clock::now();
  const auto batch = make_random_batch();
  torch::manual_seed(0);
  auto model = make_small_cnn(false);
  const Clock::time_point loop_start = Clock::now();
  const std::vector<double> losses = train_on_batch(model, batch, 1e-3, 501);
  const Clock::time_point loop_end = Clock::now();

  const double loop_seconds = std::chrono::duration<double>(loop_end - loop_start).count();
  const double body_seconds = std::chrono::duration<double>(loop_end - body_start).count();
  // %.17g round-trips a double, so the script can compare it exactly with results.json.
  std::printf("final_loss=%.17g\n", losses.back());
  std::printf("loop_seconds=%.6f\n", loop_seconds);
  std::printf("body_seconds=%.6f\n", body_seconds);
  return 0;
}
