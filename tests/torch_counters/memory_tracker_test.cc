#include "mlregress/torch/memory_tracker.h"

#include <ATen/Context.h>
#include <c10/core/CPUAllocator.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

namespace mlregress {
namespace {

constexpr std::int64_t kFloat = 4;  // bytes per float32 element

class MemoryTrackerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    at::set_num_threads(1);
    ASSERT_TRUE(install_memory_tracker());
  }
};

TEST_F(MemoryTrackerTest, InstallIsIdempotentAndWrapsTheCpuAllocator) {
  EXPECT_TRUE(install_memory_tracker());
  EXPECT_TRUE(memory_tracker_installed());
  const MemoryCounters before = memory_counters();
  torch::Tensor t = torch::empty({1000}, torch::kFloat);
  const MemoryCounters during = memory_counters();
  EXPECT_EQ(during.allocations, before.allocations + 1);
  EXPECT_EQ(during.current_bytes, before.current_bytes + 1000 * kFloat);
  EXPECT_EQ(during.allocated_bytes, before.allocated_bytes + 1000 * kFloat);
  t.reset();
  EXPECT_EQ(memory_counters().current_bytes, before.current_bytes);
}

TEST_F(MemoryTrackerTest, ZeroByteTensorsAreNotAllocations) {
  MemoryScope scope;
  torch::Tensor t = torch::empty({0}, torch::kFloat);
  EXPECT_EQ(scope.stop().allocations, 0);
}

TEST_F(MemoryTrackerTest, ScopeRecordsPeakAboveStartAndNetBytes) {
  torch::Tensor kept_from_before = torch::empty({4096}, torch::kFloat);  // part of start_bytes
  MemoryScope scope("step");
  torch::Tensor a = torch::empty({1000}, torch::kFloat);
  torch::Tensor b = torch::empty({3000}, torch::kFloat);
  b.reset();
  torch::Tensor c = torch::empty({500}, torch::kFloat);
  const MemoryScopeStats s = scope.stop();
  EXPECT_EQ(s.name, "step");
  EXPECT_EQ(s.peak_bytes_above_start, 4000 * kFloat);
  EXPECT_EQ(s.allocations, 3);
  EXPECT_EQ(s.allocated_bytes, 4500 * kFloat);
  EXPECT_EQ(s.net_bytes, 1500 * kFloat);
  EXPECT_FALSE(scope.active());
  // Frozen after stop(): later allocations do not change the figures.
  torch::Tensor d = torch::empty({10000}, torch::kFloat);
  EXPECT_EQ(scope.stats().allocations, 3);
  EXPECT_EQ(scope.stats().net_bytes, 1500 * kFloat);
  EXPECT_THAT(s.describe(), ::testing::HasSubstr("step: peak +15.6 KiB (16000 B) above start"))
      << s.describe();
}

TEST_F(MemoryTrackerTest, NestedScopesKeepTheirOwnPeaks) {
  MemoryScope outer("outer");
  torch::Tensor a = torch::empty({1 << 18}, torch::kFloat);  // 1 MiB
  MemoryScopeStats inner_stats;
  {
    MemoryScope inner("inner");
    torch::Tensor b = torch::empty({1 << 19}, torch::kFloat);  // 2 MiB
    b.reset();
    torch::Tensor c = torch::empty({1 << 17}, torch::kFloat);  // 0.5 MiB, freed at scope end
    inner_stats = inner.stats();                               // live, while active
  }
  a.reset();
  const MemoryScopeStats outer_stats = outer.stop();
  EXPECT_EQ(inner_stats.peak_bytes_above_start, 2 << 20);
  EXPECT_EQ(inner_stats.allocations, 2);
  EXPECT_EQ(inner_stats.net_bytes, 1 << 19);
  EXPECT_EQ(outer_stats.peak_bytes_above_start, 3 << 20);
  EXPECT_EQ(outer_stats.allocations, 3);
  EXPECT_EQ(outer_stats.allocated_bytes, (1 << 20) + (2 << 20) + (1 << 19));
  EXPECT_EQ(outer_stats.net_bytes, 0);
}

TEST_F(MemoryTrackerTest, ResetPeakStartsANewProcessPeak) {
  { torch::Tensor big = torch::empty({1 << 20}, torch::kFloat); }
  reset_peak_bytes();
  const MemoryCounters after_reset = memory_counters();
  EXPECT_EQ(after_reset.peak_bytes, after_reset.current_bytes);
  torch::Tensor small = torch::empty({100}, torch::kFloat);
  EXPECT_EQ(memory_counters().peak_bytes, after_reset.current_bytes + 100 * kFloat);
}

// The trap in DESIGN.md: oneDNN (ideep) allocates through Allocator::raw_allocate, which asserts
// that the DataPtr's context is its data pointer, and frees through raw_deleter().
TEST_F(MemoryTrackerTest, RawAllocateAndRawDeallocateAreCounted) {
  c10::Allocator* allocator = c10::GetCPUAllocator();
  ASSERT_NE(allocator->raw_deleter(), nullptr);
  const MemoryCounters before = memory_counters();
  void* p = allocator->raw_allocate(4096);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(memory_counters().current_bytes, before.current_bytes + 4096);
  allocator->raw_deallocate(p);
  EXPECT_EQ(memory_counters().current_bytes, before.current_bytes);
  EXPECT_EQ(memory_counters().allocations, before.allocations + 1);
}

TEST_F(MemoryTrackerTest, OneDnnConvolutionWorksUnderTheWrapper) {
  ASSERT_TRUE(at::hasMKLDNN()) << "this LibTorch has no oneDNN: the trap cannot be exercised";
  ASSERT_TRUE(at::globalContext().userEnabledMkldnn());
  torch::manual_seed(0);
  torch::Tensor x = torch::randn({8, 3, 16, 16});
  torch::Tensor w = torch::randn({4, 3, 3, 3});
  const torch::Tensor expected =
      torch::conv2d(x.to(torch::kDouble), w.to(torch::kDouble), {}, 1, 1);
  MemoryScope scope("conv");
  {
    // Batch 8, 3x3 float kernels: at::_convolution takes the oneDNN path.
    const torch::Tensor dense = torch::conv2d(x, w, {}, 1, 1);
    EXPECT_TRUE(torch::allclose(dense.to(torch::kDouble), expected, 1e-4, 1e-4));
    // An ideep tensor's buffer comes from raw_allocate; back to dense and freed via raw_deleter.
    const torch::Tensor through_onednn =
        torch::mkldnn_convolution(x.to_mkldnn(), w, {}, {1, 1}, {1, 1}, {1, 1}, 1);
    EXPECT_TRUE(through_onednn.is_mkldnn());
    EXPECT_TRUE(
        torch::allclose(through_onednn.to_dense().to(torch::kDouble), expected, 1e-4, 1e-4));
  }
  const MemoryScopeStats s = scope.stop();
  EXPECT_GE(s.peak_bytes_above_start, 2 * 8 * 4 * 16 * 16 * kFloat);
  EXPECT_GE(s.allocations, 3);
  EXPECT_EQ(s.net_bytes, 0) << s.describe();
}

TEST_F(MemoryTrackerTest, CudaFiguresOnlyWithCuda) {
  if (!torch::cuda::is_available()) {
    EXPECT_FALSE(cuda_memory_counters(0).has_value());
    reset_cuda_peak_bytes(0);  // a no-op without CUDA
  } else {
    EXPECT_TRUE(cuda_memory_counters(0).has_value());
  }
  EXPECT_FALSE(cuda_memory_counters(-1).has_value());
}

}  // namespace
}  // namespace mlregress
