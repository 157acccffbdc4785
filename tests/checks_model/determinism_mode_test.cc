// The torch side of `run --determinism`: the hook the worker calls before every test sets each
// mode, strict makes a kernel without a deterministic implementation throw, and a later test's
// mode replaces the one before it (no leak between tests of one process).
#include "mlregress/determinism_mode.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "mlregress/torch/torch_hooks.h"

namespace mlregress {
namespace {

// A kernel without a deterministic implementation reports itself this way (index_put_ with
// accumulate on CUDA, scatter_add_, ...): the plant, the same in LibTorch 1.13 and 2.x.
void planted_nondeterministic_kernel() {
  at::Context::alertNotDeterministic("planted_nondeterministic_kernel");
}

// Restores what the test process had, so that the other tests here see LibTorch's defaults.
class DeterminismModeHook : public ::testing::Test {
 protected:
  void SetUp() override {
    algorithms_ = at::globalContext().deterministicAlgorithms();
    warn_only_ = at::globalContext().deterministicAlgorithmsWarnOnly();
    cudnn_ = at::globalContext().deterministicCuDNN();
  }
  void TearDown() override {
    at::globalContext().setDeterministicAlgorithms(algorithms_, warn_only_);
    at::globalContext().setDeterministicCuDNN(cudnn_);
  }
  // What the worker does before a test: seed and threads, then the test's mode.
  static void start_test(DeterminismMode mode) {
    const RunnerHooks hooks = torch_runner_hooks();
    ASSERT_TRUE(hooks.before_each_test);
    ASSERT_TRUE(hooks.apply_determinism);
    hooks.before_each_test(0, 1);
    hooks.apply_determinism(mode);
  }

 private:
  bool algorithms_ = false, warn_only_ = false, cudnn_ = false;
};

TEST_F(DeterminismModeHook, EachModeReadsBack) {
  start_test(DeterminismMode::Off);
  EXPECT_FALSE(at::globalContext().deterministicAlgorithms());
  EXPECT_FALSE(at::globalContext().deterministicCuDNN());

  start_test(DeterminismMode::Warn);
  EXPECT_TRUE(at::globalContext().deterministicAlgorithms());
  EXPECT_TRUE(at::globalContext().deterministicAlgorithmsWarnOnly());
  EXPECT_TRUE(at::globalContext().deterministicCuDNN());

  start_test(DeterminismMode::Strict);
  EXPECT_TRUE(at::globalContext().deterministicAlgorithms());
  EXPECT_FALSE(at::globalContext().deterministicAlgorithmsWarnOnly());
  EXPECT_TRUE(at::globalContext().deterministicCuDNN());
}

TEST_F(DeterminismModeHook, StrictThrowsOnANondeterministicKernelAndWarnLetsItRun) {
  start_test(DeterminismMode::Strict);
  try {
    planted_nondeterministic_kernel();
    ADD_FAILURE() << "strict let a nondeterministic kernel run";
  } catch (const c10::Error& error) {
    // The failure names the kernel, so that the test's report says which one to replace.
    EXPECT_NE(std::string(error.what()).find("planted_nondeterministic_kernel"), std::string::npos)
        << error.what();
  }
  start_test(DeterminismMode::Warn);
  EXPECT_NO_THROW(planted_nondeterministic_kernel());
  start_test(DeterminismMode::Off);
  EXPECT_NO_THROW(planted_nondeterministic_kernel());
}

// A strict test followed by one that runs under the default: the second starts from its own
// mode, not from what the first left behind.
TEST_F(DeterminismModeHook, AStrictTestDoesNotLeakIntoTheNext) {
  start_test(DeterminismMode::Strict);
  EXPECT_THROW(planted_nondeterministic_kernel(), c10::Error);
  start_test(DeterminismMode::Warn);
  EXPECT_TRUE(at::globalContext().deterministicAlgorithmsWarnOnly());
  EXPECT_NO_THROW(planted_nondeterministic_kernel());
  start_test(DeterminismMode::Off);
  EXPECT_FALSE(at::globalContext().deterministicAlgorithms());
}

}  // namespace
}  // namespace mlregress
