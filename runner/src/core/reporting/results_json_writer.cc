#include "reporting/results_json_writer.h"

#include "storage/results_json.h"
#include "support/atomic_file.h"

namespace mlregress::internal {

void ResultsJsonWriter::write(const RunResult& run) const {
  write_file_atomically(path_, render_results_json(run));
}

}  // namespace mlregress::internal
