// The operator counter's own overhead: training steps of the seed's small CNN timed bare and with
// an OpCounter around each step, in alternating rounds (A B A B ...) so that drift of the machine
// hits both arms alike. Prints the median step time of each arm, their ratio, and the cost per
// observed operator call. Not a test: run by hand, e.g. `bench_op_counter_overhead 200 7`.
#include <fmt/format.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "counted_cnn.h"
#include "mlregress/torch/op_counter.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Seconds per step over `steps` steps; with `counted`, an OpCounter spans each step.
double time_round(mlregress::test_counters::CnnTraining& training, int steps, bool counted,
                  std::int64_t& ops_per_step) {
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < steps; ++i) {
    if (counted) {
      mlregress::OpCounter ops;
      training.step();
      ops.stop();
      ops_per_step = ops.total();
    } else {
      training.step();
    }
  }
  return std::chrono::duration<double>(Clock::now() - start).count() / steps;
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 200;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  if (steps < 1 || rounds < 1) {
    fmt::print(stderr, "usage: {} [steps per round >= 1] [rounds >= 1]\n", argv[0]);
    return 2;
  }
  at::set_num_threads(1);
  mlregress::test_counters::CnnTraining training;
  std::int64_t ops_per_step = 0;
  time_round(training, steps, false, ops_per_step);  // warm-up: Adam state, oneDNN primitives
  time_round(training, steps, true, ops_per_step);

  std::vector<double> bare;
  std::vector<double> counted;
  std::vector<double> ratios;
  for (int round = 0; round < rounds; ++round) {
    bare.push_back(time_round(training, steps, false, ops_per_step));
    counted.push_back(time_round(training, steps, true, ops_per_step));
    ratios.push_back(counted.back() / bare.back());
  }
  const double bare_step = median(bare);
  const double counted_step = median(counted);
  fmt::print("small CNN training step, 1 thread, {} rounds x {} steps, alternating\n", rounds,
             steps);
  fmt::print("  bare step          {:9.1f} us (median of rounds)\n", bare_step * 1e6);
  fmt::print("  with OpCounter     {:9.1f} us\n", counted_step * 1e6);
  fmt::print(
      "  ratio              {:9.4f} (median of per-round ratios {:.4f}, range {:.4f}..{:.4f})\n",
      counted_step / bare_step, median(ratios), *std::min_element(ratios.begin(), ratios.end()),
      *std::max_element(ratios.begin(), ratios.end()));
  fmt::print("  operator calls     {:9d} per step\n", ops_per_step);
  fmt::print("  overhead per call  {:9.1f} ns\n",
             (counted_step - bare_step) / static_cast<double>(ops_per_step) * 1e9);
  return 0;
}
