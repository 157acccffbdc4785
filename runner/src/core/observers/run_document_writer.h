// A file rendered from the whole run record (junit.xml, results.json) and rewritten atomically
// when the run starts, after every test and when it ends: a run that dies keeps every finished
// test, and a reader never sees half a file.
#pragma once

#include <string>
#include <utility>

#include "execution/run_observer.h"
#include "support/atomic_file.h"

namespace mlregress::internal {

class RunDocumentWriter : public RunObserver {
 public:
  using Render = std::string (*)(const RunResult&);

  RunDocumentWriter(std::string path, Render render) : path_(std::move(path)), render_(render) {}

  void on_run_start(const RunResult& run) override { write(run); }
  void on_test_end(const TestResult& /*test*/, const RunResult& run) override { write(run); }
  void on_run_end(const RunResult& run) override { write(run); }

 private:
  void write(const RunResult& run) const { write_file_atomically(path_, render_(run)); }

  std::string path_;
  Render render_;
};

}  // namespace mlregress::internal
