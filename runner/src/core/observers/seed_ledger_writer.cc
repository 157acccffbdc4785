#include "observers/seed_ledger_writer.h"

#include "storage/seed_ledger.h"
#include "support/atomic_file.h"

namespace mlregress::internal {

void SeedLedgerWriter::on_seed_end(const TestResult& test, const SeedRun& seed_run,
                                   const RunResult& /*run*/) {
  append_line(path_, seed_ledger_line(test.name, seed_run));
}

void SeedLedgerWriter::on_test_end(const TestResult& test, const RunResult& /*run*/) {
  if (!write_looks_) return;
  for (const MetricComparison& c : test.comparisons) {
    for (const SequentialLook& look : c.looks) {
      append_line(path_, seed_ledger_line(test.name, c.metric, look));
    }
  }
}

}  // namespace mlregress::internal
