// Each record_batch() becomes batches/<test>.<name>.json in the run folder
// (storage/batch_view_file.h), written whole the moment the batch arrives, so that report.html
// and the `report` command can draw it.
#pragma once

#include <string>

#include "execution/run_observer.h"

namespace mlregress::internal {

class BatchViewWriter final : public RunObserver {
 public:
  explicit BatchViewWriter(std::string run_folder) : run_folder_(std::move(run_folder)) {}
  void on_batch(const TestResult& test, const RecordedBatch& batch) override;

 private:
  std::string run_folder_;
};

}  // namespace mlregress::internal
