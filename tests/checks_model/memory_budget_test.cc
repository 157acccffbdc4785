// The absolute memory budget: a 4 MiB tensor held in a scope passes a budget of 8 MiB, fails one
// of 2 MiB with both numbers in the message, and a check whose counts cannot be read fails with
// the reason instead of passing on zeros.
#include "mlregress/checks/memory_budget.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

namespace mlregress::checks {
namespace {

// EXPECT_TRUE(contains(message, "...")) shows the whole message when the part is missing.
::testing::AssertionResult contains(const std::string& message, const std::string& part) {
  if (message.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' not in: " << message;
}

constexpr std::int64_t kMiB = 1024 * 1024;

// First in the file, so that it runs before any test of this binary installs the tracker (ctest
// runs each test in its own process; a whole-binary run keeps the file's order).
TEST(MemoryBudget, UntrackedScopeFailsWithTheReason) {
  if (memory_tracker_installed()) GTEST_SKIP() << "the tracker is already installed here";
  MemoryScopeStats never_counted;  // what a scope reports when the tracker could not install
  never_counted.name = "training step";
  const MemoryBudgetResult r = check_peak_bytes(never_counted, 8 * kMiB);
  EXPECT_FALSE(r.tracked);
  EXPECT_FALSE(r.passed);
  const ::testing::AssertionResult a = r;
  EXPECT_FALSE(a);
  EXPECT_TRUE(contains(std::string(a.message()), "memory tracker not installed"));
  EXPECT_TRUE(contains(std::string(a.message()), "training step"));
  EXPECT_FALSE(check_process_peak_bytes(8 * kMiB).passed);
}

MemoryScopeStats hold_four_mib() {
  EXPECT_TRUE(install_memory_tracker());
  MemoryScope scope("training step");
  const torch::Tensor held = torch::empty({1024, 1024});  // 4 MiB of float
  EXPECT_EQ(held.numel(), 1024 * 1024);
  return scope.stop();
}

TEST(MemoryBudget, PeakUnderTheBudgetPasses) {
  const MemoryScopeStats stats = hold_four_mib();
  ASSERT_GE(stats.peak_bytes_above_start, 4 * kMiB);
  const MemoryBudgetResult r = check_peak_bytes(stats, 8 * kMiB);
  EXPECT_TRUE(r.tracked);
  EXPECT_TRUE(r.passed);
  EXPECT_TRUE(r.above_start);
  const ::testing::AssertionResult a = r;
  EXPECT_TRUE(a) << a.message();
  EXPECT_TRUE(contains(std::string(a.message()), "headroom"));
}

TEST(MemoryBudget, PeakOverTheBudgetFailsNamingBothNumbers) {
  const MemoryScopeStats stats = hold_four_mib();
  const MemoryBudgetResult r = check_peak_bytes(stats, 2 * kMiB);
  EXPECT_TRUE(r.tracked);
  EXPECT_FALSE(r.passed);
  const ::testing::AssertionResult a = r;
  EXPECT_FALSE(a);
  const std::string message = a.message();
  EXPECT_TRUE(contains(message, "training step: peak "));
  EXPECT_TRUE(contains(message, "above start > budget 2.00 MiB (2097152 B)"));
  EXPECT_TRUE(contains(message, std::to_string(stats.peak_bytes_above_start) + " B"));
  EXPECT_TRUE(contains(message, "; over by "));
}

TEST(MemoryBudget, PeakEqualToTheBudgetPasses) {
  const MemoryScopeStats stats = hold_four_mib();
  EXPECT_TRUE(check_peak_bytes(stats, stats.peak_bytes_above_start).passed);
  EXPECT_FALSE(check_peak_bytes(stats, stats.peak_bytes_above_start - 1).passed);
}

TEST(MemoryBudget, ANonPositiveBudgetFails) {
  const ::testing::AssertionResult a = check_peak_bytes(hold_four_mib(), 0);
  EXPECT_FALSE(a);
  EXPECT_TRUE(contains(std::string(a.message()), "the budget must be positive"));
}

TEST(MemoryBudget, ProcessPeakCountsSinceTheReset) {
  ASSERT_TRUE(install_memory_tracker());
  reset_peak_bytes();
  const std::int64_t before = memory_counters().current_bytes;
  {
    const torch::Tensor held = torch::empty({1024, 1024});
    EXPECT_EQ(held.numel(), 1024 * 1024);
  }
  EXPECT_TRUE(check_process_peak_bytes(before + 8 * kMiB).passed);
  const MemoryBudgetResult r = check_process_peak_bytes(before + 2 * kMiB);
  EXPECT_FALSE(r.passed);
  EXPECT_FALSE(r.above_start);
  EXPECT_TRUE(contains(std::string(r.assertion().message()), "process: peak "));
}

TEST(MemoryBudget, CudaWithoutADeviceFailsWithTheReason) {
  if (torch::cuda::is_available()) GTEST_SKIP() << "a CUDA device is present";
  const MemoryBudgetResult r = check_cuda_peak_bytes(1 * kMiB);
  EXPECT_FALSE(r.tracked);
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(contains(std::string(r.assertion().message()), "no CUDA memory statistics"));
}

}  // namespace
}  // namespace mlregress::checks
