// Keeps results.json (storage/results_json.h) current while the run goes on: rewritten
// atomically after every test, so it always holds every finished test.
#pragma once

#include <string>
#include <utility>

#include "observers/run_document_writer.h"
#include "storage/results_json.h"

namespace mlregress::internal {

class ResultsJsonWriter final : public RunDocumentWriter {
 public:
  explicit ResultsJsonWriter(std::string path)
      : RunDocumentWriter(std::move(path), render_results_json) {}
};

}  // namespace mlregress::internal
