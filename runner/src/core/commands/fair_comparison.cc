#include "commands/fair_comparison.h"

#include <cstdio>

#include "registry/random_search.h"
#include "storage/held_out_history.h"

namespace mlregress::internal {

void warn_unequal_budgets(const RunPlan& plan) {
  for (const PlannedTest& planned : plan.tests) {
    if (planned.test == nullptr || !planned.seeded()) continue;
    const std::string warning = unequal_budget_warning(tuning_budgets(planned.test->seeds));
    if (!warning.empty()) {
      std::printf("WARNING: %s: %s\n", planned.test->full_name().c_str(), warning.c_str());
    }
  }
  std::fflush(stdout);
}

void count_held_out_evaluations(RunResult& run, const std::string& runs_folder) {
  run.held_out = tally_held_out(run, runs_folder);
  for (const HeldOutTally& tally : run.held_out) {
    if (const std::string warning = held_out_warning(tally); !warning.empty()) {
      std::printf("WARNING: %s\n", warning.c_str());
    }
  }
  std::fflush(stdout);
}

}  // namespace mlregress::internal
