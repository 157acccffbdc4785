// Determinism: the same seed and settings must give the same bits, run after run, or no
// baseline with an exact band can be trusted. Runs a training function twice and names the first
// step and the first parameter or buffer that differ, together with the settings in force.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlregress::checks {

/// What one training run hands back: the loss of every step and the trained module.
struct TrainingRun {
  std::vector<double> losses;
  std::shared_ptr<torch::nn::Module> module;  ///< e.g. a torch::nn::Sequential's .ptr()
};

/// The settings that decide whether CPU training repeats bit for bit.
struct DeterminismSettings {
  int intra_op_threads = 0;               ///< at::get_num_threads()
  bool deterministic_algorithms = false;  ///< at::globalContext().deterministicAlgorithms()
  bool deterministic_warn_only = false;   ///< ...deterministicAlgorithmsWarnOnly()

  /// The settings now.
  static DeterminismSettings current();
  /// "intra-op threads 1, deterministic algorithms on (warn only)"
  std::string describe() const;
};

struct DeterminismOptions {
  /// When set, torch::manual_seed(seed) before each run; otherwise the function seeds itself.
  std::optional<std::uint64_t> seed;
};

/// Where two runs first part, if they do.
struct TensorDifference {
  std::string name;  ///< "parameter 0.weight" or "buffer 1.running_mean"
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> first_index;
  double first_value = 0.0;
  double second_value = 0.0;
  double max_abs_difference = 0.0;
};

struct DeterminismResult {
  DeterminismSettings settings;          ///< read before the first run
  bool settings_changed_by_run = false;  ///< the function changed threads or the flag
  DeterminismSettings settings_after;
  std::vector<double> first_losses;
  std::vector<double> second_losses;
  std::optional<std::int64_t> first_differing_step;  ///< also set when the lengths differ
  std::optional<TensorDifference> first_differing_tensor;
  std::optional<std::string> structure_mismatch;  ///< different names, shapes or dtypes
  bool passed = false;

  /// Names the first differing step (with both losses) and tensor (with index and values) and
  /// states the settings.
  ::testing::AssertionResult assertion() const;
  operator ::testing::AssertionResult() const {
    return assertion();
  }  // NOLINT(google-explicit-constructor)
};

/// Calls `train` twice and requires bit-identical losses, parameters and buffers. Set the
/// thread count (at::set_num_threads(1)) and deterministic algorithms before calling.
DeterminismResult check_determinism(const std::function<TrainingRun()>& train,
                                    const DeterminismOptions& options = {});

}  // namespace mlregress::checks
