#include "run_plan.h"

namespace mlregress::internal {

const PlannedTest* RunPlan::find(std::string_view full_name) const {
  for (const PlannedTest& planned : tests) {
    if (planned.test->full_name() == full_name) return &planned;
  }
  return nullptr;
}

}  // namespace mlregress::internal
