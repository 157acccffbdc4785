// An absolute memory budget: "this training step's peak stays under 384 KiB", asserted inside the
// test, with or without --baselines. A baseline gates a change of the peak (Exact, per profile);
// a budget gates its size, so a step that was always too big, or a new test without a baseline,
// is caught too. A budget needs headroom across CPUs and LibTorch builds: the same step's exact
// peak differs between them (runner/docs/checks.md#memory-budget).
//
// No silent pass: when the counts cannot be read (the counting CPU allocator is not installed,
// LibTorch has no CUDA or no such device), the check fails and says why, never passes on zeros.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "mlregress/torch/memory_tracker.h"

namespace mlregress::checks {

struct MemoryBudgetResult {
  std::string name;               ///< the scope's name, "process" or "cuda:<device>"
  std::int64_t peak_bytes = 0;    ///< the peak judged (above the scope's start, for a scope)
  std::int64_t budget_bytes = 0;  ///< the largest peak that passes
  bool above_start = false;       ///< a scope's peak, counted from its start
  bool tracked = false;           ///< the counts were read; false: untracked_reason says why
  std::string untracked_reason;
  bool passed = false;  ///< tracked and 0 < budget and peak <= budget

  /// "training step: peak 480.0 KiB (491520 B) above start > budget 384.0 KiB (393216 B); over
  /// by 25%", or the headroom on a pass, or why nothing could be judged.
  ::testing::AssertionResult assertion() const;
  /// EXPECT_TRUE(check_peak_bytes(stats, budget)) in one line.
  operator ::testing::AssertionResult() const {
    return assertion();
  }  // NOLINT(google-explicit-constructor)
};

/// Judges a MemoryScope's peak above its start (MemoryScope::stop() or stats()). Fails when the
/// counting CPU allocator is not installed (memory_tracker_installed()): its figures are zeros.
MemoryBudgetResult check_peak_bytes(const MemoryScopeStats& scope, std::int64_t budget_bytes);

/// Judges the whole process's CPU peak since install or reset_peak_bytes() (memory_counters()).
/// Fails when the tracker is not installed.
MemoryBudgetResult check_process_peak_bytes(std::int64_t budget_bytes);

/// Judges the CUDA caching allocator's peak of allocated bytes on `device` since
/// reset_cuda_peak_bytes() (cuda_memory_counters()). Fails when LibTorch has no CUDA or the
/// device does not exist. UNTESTED on a GPU: only its failing path runs on the CPU machines.
MemoryBudgetResult check_cuda_peak_bytes(std::int64_t budget_bytes, int device = 0);

}  // namespace mlregress::checks
