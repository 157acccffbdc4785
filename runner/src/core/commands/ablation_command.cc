#include "commands/ablation_command.h"

#include <cstdio>

#include "observers/ablation_table.h"

namespace mlregress::internal {

ExitCode ablation_command(const AblationOptions& options, const std::string& binary) {
  const std::string ledger = options.run + "/seeds.jsonl";
  const SeedLedger seeds = read_seed_ledger(ledger);
  for (const std::string& note : seeds.damaged) {
    std::fprintf(stderr, "%s: warning: %s\n", binary.c_str(), note.c_str());
  }
  const std::string table = render_ablation_tables(seeds.lines, options.test, options.robust);
  if (table.empty()) {
    std::fprintf(stderr, "%s: error: %s has no seeded test with variants%s\n", binary.c_str(),
                 ledger.c_str(), options.test.empty() ? "" : (" named " + options.test).c_str());
    return ExitCode::kNoTestsMatched;
  }
  std::fputs(table.c_str(), stdout);
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
