#include "mlregress/checks/determinism.h"

#include <gtest/gtest.h>

#include "tiny_models.h"

namespace mlregress::checks {
namespace {

// Bitwise repeatability is promised with one intra-op thread; restore the caller's count.
class Determinism : public ::testing::Test {
 protected:
  void SetUp() override {
    threads_ = at::get_num_threads();
    at::set_num_threads(1);
  }
  void TearDown() override { at::set_num_threads(threads_); }

 private:
  int threads_ = 1;
};

TrainingRun train_mlp(std::uint64_t seed, int steps = 20) {
  torch::manual_seed(seed);
  const auto batch = make_tiny_batch();
  auto model = make_mlp(/*dropout=*/true, /*batch_norm=*/true);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
  TrainingRun run;
  for (int step = 0; step < steps; ++step) {
    run.losses.push_back(train_step(model, optimizer, batch).item<double>());
  }
  run.module = model.ptr();
  return run;
}

TEST_F(Determinism, SameSeedGivesSameBits) {
  const DeterminismResult result = check_determinism([] { return train_mlp(0); });
  EXPECT_TRUE(result);
  EXPECT_EQ(result.first_losses.size(), 20u);
  EXPECT_EQ(result.settings.intra_op_threads, 1);
  EXPECT_EQ(result.settings.deterministic_algorithms,
            at::globalContext().deterministicAlgorithms());
  EXPECT_FALSE(result.settings_changed_by_run);
  EXPECT_TRUE(explains(result, "intra-op threads 1"));
}

TEST_F(Determinism, SeedOptionSeedsEachRun) {
  // The function does not seed itself; the check does.
  auto unseeded = [] {
    const auto batch = make_tiny_batch();
    auto model = make_mlp();
    torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
    TrainingRun run;
    for (int step = 0; step < 5; ++step) {
      run.losses.push_back(train_step(model, optimizer, batch).item<double>());
    }
    run.module = model.ptr();
    return run;
  };
  EXPECT_TRUE(check_determinism(unseeded, {.seed = 3}));
  EXPECT_FALSE(check_determinism(unseeded).passed);
}

TEST_F(Determinism, DifferentSeedPerCallIsCaught) {
  // Planted bug: the training function draws a fresh seed on every call.
  std::uint64_t calls = 0;
  const DeterminismResult result = check_determinism([&] { return train_mlp(calls++); });
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.first_differing_step, 0);
  ASSERT_TRUE(result.first_differing_tensor.has_value());
  EXPECT_EQ(result.first_differing_tensor->name, "parameter 0.weight");
  EXPECT_EQ(result.first_differing_tensor->first_index, (std::vector<std::int64_t>{0, 0}));
  EXPECT_TRUE(explains(result, "losses first differ at step 0"));
  EXPECT_TRUE(explains(result, "first differing tensor: parameter 0.weight [16, 4] at [0, 0]"));
}

TEST_F(Determinism, DivergenceLateInTrainingNamesTheStep) {
  // Planted: the second run perturbs one weight after step 10, as a racy kernel would.
  int calls = 0;
  const DeterminismResult result = check_determinism([&] {
    const bool perturb = calls++ == 1;
    torch::manual_seed(0);
    const auto batch = make_tiny_batch();
    auto model = make_mlp();
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
    TrainingRun run;
    for (int step = 0; step < 20; ++step) {
      run.losses.push_back(train_step(model, optimizer, batch).item<double>());
      if (perturb && step == 10) {
        torch::NoGradGuard no_grad;
        model->named_parameters()["2.bias"][1].add_(1e-6);
      }
    }
    run.module = model.ptr();
    return run;
  });
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.first_differing_step, 11);
  ASSERT_TRUE(result.first_differing_tensor.has_value());
}

TEST_F(Determinism, DifferentNumberOfStepsIsADifference) {
  int calls = 0;
  const DeterminismResult result =
      check_determinism([&] { return train_mlp(0, calls++ == 0 ? 5 : 6); });
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.first_differing_step, 5);
  EXPECT_TRUE(explains(result, "the runs have 5 and 6 losses"));
}

TEST_F(Determinism, BatchNormBuffersAreCompared) {
  int calls = 0;
  const DeterminismResult result = check_determinism([&] {
    TrainingRun run = train_mlp(0, 3);
    if (calls++ == 1) {
      torch::NoGradGuard no_grad;
      run.module->named_buffers()["1.running_var"][2].add_(1.0);
    }
    return run;
  });
  EXPECT_FALSE(result.passed);
  EXPECT_FALSE(result.first_differing_step.has_value());
  ASSERT_TRUE(result.first_differing_tensor.has_value());
  EXPECT_EQ(result.first_differing_tensor->name, "buffer 1.running_var");
  EXPECT_EQ(result.first_differing_tensor->first_index, std::vector<std::int64_t>{2});
}

}  // namespace
}  // namespace mlregress::checks
