// Each recorded curve becomes curves/<test>.<curve>.csv in the run folder: "step,value" rows,
// values in shortest round-trip form so the CSV reproduces the recorded doubles exactly.
#pragma once

#include <string>

#include "execution/run_observer.h"

namespace mlregress::internal {

class CurveCsvWriter final : public RunObserver {
 public:
  explicit CurveCsvWriter(std::string run_folder) : run_folder_(std::move(run_folder)) {}
  void on_curve(const TestResult& test, const RecordedCurve& curve) override;

 private:
  std::string run_folder_;
};

}  // namespace mlregress::internal
