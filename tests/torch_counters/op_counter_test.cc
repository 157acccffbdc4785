#include "mlregress/torch/op_counter.h"

#include <c10/core/CPUAllocator.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <thread>

#include "mlregress/torch/memory_tracker.h"

namespace mlregress {
namespace {

class OpCounterTest : public ::testing::Test {
 protected:
  void SetUp() override { at::set_num_threads(1); }
};

TEST_F(OpCounterTest, CountsEachOperatorCallByName) {
  const torch::Tensor a = torch::ones({4});
  const torch::Tensor b = torch::ones({4});
  OpCounter ops;
  for (int i = 0; i < 3; ++i) torch::Tensor c = a + b;
  torch::Tensor d = a * b;
  ops.stop();
  EXPECT_EQ(ops.count("aten::add"), 3);
  EXPECT_EQ(ops.count("aten::mul"), 1);
  EXPECT_EQ(ops.count("aten::never_called"), 0);
  EXPECT_EQ(ops.total(), 4) << ops.describe();
  const std::vector<OpCount> top = ops.top(1);
  ASSERT_EQ(top.size(), 1U);
  EXPECT_EQ(top[0], (OpCount{"aten::add", 3}));
  EXPECT_EQ(ops.describe(), "4 operator calls; top: aten::add 3, aten::mul 1");
}

TEST_F(OpCounterTest, StopsCountingAfterStop) {
  const torch::Tensor a = torch::ones({4});
  OpCounter ops;
  torch::Tensor b = a + a;
  ops.stop();
  EXPECT_FALSE(ops.active());
  torch::Tensor c = a + a;
  EXPECT_EQ(ops.total(), 1);
}

TEST_F(OpCounterTest, TopBreaksTiesByNameAndClampsN) {
  const torch::Tensor a = torch::ones({4});
  OpCounter ops;
  torch::Tensor m = a * a;
  torch::Tensor s = a - a;
  torch::Tensor p = a + a;
  ops.stop();
  const std::vector<OpCount> top = ops.top(10);
  ASSERT_EQ(top.size(), 3U);
  EXPECT_EQ(top[0].name, "aten::add");
  EXPECT_EQ(top[1].name, "aten::mul");
  EXPECT_EQ(top[2].name, "aten::sub");
}

TEST_F(OpCounterTest, NestedCountersEachCountTheirOwnSpan) {
  const torch::Tensor a = torch::ones({4});
  OpCounter outer;
  torch::Tensor b = a + a;
  std::int64_t inner_total = 0;
  {
    OpCounter inner;
    torch::Tensor c = a * a;
    torch::Tensor d = a * a;
    inner_total = inner.total();
    EXPECT_EQ(inner.count("aten::add"), 0);
  }
  torch::Tensor e = a + a;  // the outer counter is still observing after the inner one ended
  outer.stop();
  EXPECT_EQ(inner_total, 2);
  EXPECT_EQ(outer.count("aten::mul"), 2);
  EXPECT_EQ(outer.count("aten::add"), 2);
  EXPECT_EQ(outer.total(), 4);
}

TEST_F(OpCounterTest, CountsTheOpsAutogradRunsInBackward) {
  const torch::Tensor w = torch::ones({4}, torch::requires_grad());
  torch::Tensor loss = (w * w).sum();
  OpCounter ops;
  loss.backward();
  ops.stop();
  EXPECT_GT(ops.count("aten::mul"), 0) << ops.describe(20);  // MulBackward0: grad * other
  EXPECT_GT(ops.total(), 0);
}

TEST_F(OpCounterTest, DoesNotObserveOtherThreads) {
  const torch::Tensor a = torch::ones({4});
  OpCounter ops;
  std::thread([&] { torch::Tensor b = a + a; }).join();
  ops.stop();
  EXPECT_EQ(ops.total(), 0);
}

std::int64_t sum(const Breakdown& breakdown) {
  std::int64_t total = 0;
  for (const auto& [name, count] : breakdown.by_operator) total += count;
  return total;
}

// Each allocation is charged to the innermost operator running: the buffer torch::empty makes to
// aten::empty, the bytes a raw allocation outside any operator makes to "<no operator>", and
// nothing is charged twice or lost (the sums are the MemoryScope's). Planted: charging to the
// outermost operator, or to the last one that started (already ended), moves the 4 KiB.
TEST_F(OpCounterTest, ChargesEachAllocationToTheInnermostOperatorRunning) {
  ASSERT_TRUE(install_memory_tracker());
  const torch::Tensor a = torch::ones({4});
  MemoryScope memory;
  OpCounter ops;
  torch::Tensor sum_ab = a + a;                       // aten::add allocates its output
  const torch::Tensor buffer = torch::empty({1024});  // 4 KiB, inside aten::empty
  torch::Tensor product = buffer * 2.0;  // after aten::empty has ended: not charged to it
  c10::DataPtr raw = c10::GetCPUAllocator()->allocate(96);  // no operator at all
  ops.stop();
  const MemoryScopeStats stats = memory.stop();

  const Breakdown bytes = ops.breakdown(BreakdownUnit::Bytes);
  const Breakdown allocations = ops.breakdown(BreakdownUnit::Allocations);
  EXPECT_EQ(bytes.unit, BreakdownUnit::Bytes);
  EXPECT_EQ(bytes.by_operator.at("aten::empty"), 4096) << ops.describe(20);
  EXPECT_EQ(bytes.by_operator.at(OpCounter::kNoOperator), 96);
  EXPECT_EQ(allocations.by_operator.at("aten::empty"), 1);
  EXPECT_EQ(sum(bytes), stats.allocated_bytes);
  EXPECT_EQ(sum(allocations), stats.allocations);
  // The calls are the counter's, and the allocations made no operator appear in them.
  EXPECT_EQ(sum(ops.breakdown(BreakdownUnit::Calls)), ops.total());
  EXPECT_FALSE(ops.counts().contains(OpCounter::kNoOperator));
}

// The allocator reports every thread's allocations; a counter charges only its own thread's.
// Planted: charging every active counter (a data-loader thread's buffers and another thread's
// counter's operators would then appear in this breakdown).
TEST_F(OpCounterTest, AllocationsOfOtherThreadsAreNotCharged) {
  ASSERT_TRUE(install_memory_tracker());
  OpCounter ops;
  std::thread([] {
    const torch::Tensor loader_buffer = torch::empty({2048});  // a thread no counter observes
    OpCounter theirs;                                          // a counter of another thread
    const torch::Tensor their_buffer = torch::empty({512});
    theirs.stop();
    EXPECT_EQ(theirs.breakdown(BreakdownUnit::Bytes).by_operator.at("aten::empty"), 2048);
  }).join();
  ops.stop();
  EXPECT_TRUE(ops.breakdown(BreakdownUnit::Bytes).by_operator.empty()) << ops.describe(20);
}

TEST_F(OpCounterTest, AllocationsBeforeOrAfterTheCounterAreNotCharged) {
  ASSERT_TRUE(install_memory_tracker());
  torch::Tensor before = torch::empty({256});
  OpCounter ops;
  ops.stop();
  torch::Tensor after = torch::empty({256});
  EXPECT_TRUE(ops.breakdown(BreakdownUnit::Bytes).by_operator.empty());
}

}  // namespace
}  // namespace mlregress
