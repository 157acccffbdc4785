#include "observers/batch_view_writer.h"

#include <fmt/format.h>

#include <filesystem>

#include "storage/batch_view_file.h"
#include "support/errors.h"

namespace mlregress::internal {

void BatchViewWriter::on_batch(const TestResult& /*test*/, const RecordedBatch& batch) {
  if (!batch.data) return;
  const std::string folder = run_folder_ + "/batches";
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw OutputError(fmt::format("cannot create '{}': {}", folder, error.message()));
  write_batch_file(run_folder_ + "/" + batch.file, *batch.data);
}

}  // namespace mlregress::internal
