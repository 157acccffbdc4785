#include "mlregress/checks/memory_budget.h"

#include <fmt/format.h>

#include <utility>

namespace mlregress::checks {
namespace {

std::string bytes_text(std::int64_t bytes) {
  const double magnitude = static_cast<double>(bytes < 0 ? -bytes : bytes);
  if (magnitude >= 1024.0 * 1024.0) {
    return fmt::format("{:.2f} MiB ({} B)", static_cast<double>(bytes) / (1024.0 * 1024.0), bytes);
  }
  if (magnitude >= 1024.0) return fmt::format("{:.1f} KiB ({} B)", bytes / 1024.0, bytes);
  return fmt::format("{} B", bytes);
}

MemoryBudgetResult judged(std::string name, std::int64_t peak, std::int64_t budget) {
  MemoryBudgetResult r;
  r.name = std::move(name);
  r.peak_bytes = peak;
  r.budget_bytes = budget;
  r.tracked = true;
  r.passed = budget > 0 && peak <= budget;
  return r;
}

MemoryBudgetResult untracked(std::string name, std::int64_t budget, std::string reason) {
  MemoryBudgetResult r;
  r.name = std::move(name);
  r.budget_bytes = budget;
  r.untracked_reason = std::move(reason);
  return r;
}

}  // namespace

::testing::AssertionResult MemoryBudgetResult::assertion() const {
  const std::string prefix = name.empty() ? "memory budget" : name;
  if (!tracked) {
    return ::testing::AssertionFailure()
           << fmt::format("{}: no peak to judge against the budget {}: {}", prefix,
                          bytes_text(budget_bytes), untracked_reason);
  }
  if (budget_bytes <= 0) {
    return ::testing::AssertionFailure()
           << fmt::format("{}: the budget must be positive, got {} B", prefix, budget_bytes);
  }
  const double share = static_cast<double>(peak_bytes) / static_cast<double>(budget_bytes);
  const std::string peak = fmt::format("{}: peak {}{}", prefix, bytes_text(peak_bytes),
                                       above_start ? " above start" : "");
  if (!passed) {
    return ::testing::AssertionFailure()
           << fmt::format("{} > budget {}; over by {:.0f}%", peak, bytes_text(budget_bytes),
                          (share - 1.0) * 100.0);
  }
  return ::testing::AssertionSuccess()
         << fmt::format("{} <= budget {}; {:.0f}% headroom", peak, bytes_text(budget_bytes),
                        (1.0 - share) * 100.0);
}

MemoryBudgetResult check_peak_bytes(const MemoryScopeStats& scope, std::int64_t budget_bytes) {
  if (!memory_tracker_installed()) {
    return untracked(scope.name, budget_bytes,
                     "memory tracker not installed (install_memory_tracker() failed or was never "
                     "called), so every figure of the scope is 0");
  }
  MemoryBudgetResult r = judged(scope.name, scope.peak_bytes_above_start, budget_bytes);
  r.above_start = true;
  return r;
}

MemoryBudgetResult check_process_peak_bytes(std::int64_t budget_bytes) {
  if (!memory_tracker_installed()) {
    return untracked("process", budget_bytes,
                     "memory tracker not installed (call install_memory_tracker() first)");
  }
  return judged("process", memory_counters().peak_bytes, budget_bytes);
}

MemoryBudgetResult check_cuda_peak_bytes(std::int64_t budget_bytes, int device) {
  const std::string name = fmt::format("cuda:{}", device);
  const std::optional<MemoryCounters> counters = cuda_memory_counters(device);
  if (!counters) {
    return untracked(name, budget_bytes,
                     "no CUDA memory statistics (LibTorch built without CUDA, or no such device)");
  }
  return judged(name, counters->peak_bytes, budget_bytes);
}

}  // namespace mlregress::checks
