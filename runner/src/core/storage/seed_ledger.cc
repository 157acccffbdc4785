#include "storage/seed_ledger.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "record/json_fields.h"
#include "record/json_text.h"
#include "storage/results_json.h"
#include "support/errors.h"

namespace mlregress::internal {

std::string seed_ledger_line(const std::string& test, const SeedRun& run) {
  nlohmann::json line = run;
  line["test"] = test;
  return json_text(line);
}

std::string seed_ledger_line(const std::string& test, const std::string& metric,
                             const SequentialLook& look) {
  const nlohmann::json line = {{"test", test}, {"metric", metric}, {"look", look}};
  return json_text(line);
}

SeedLedger read_seed_ledger(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw RunFolderError(fmt::format("cannot read the seed ledger '{}'", path));
  SeedLedger ledger;
  int number = 0;
  for (std::string text; std::getline(in, text);) {
    ++number;
    if (text.empty()) continue;
    try {
      const nlohmann::json json = nlohmann::json::parse(text);
      if (json.contains("look")) {
        ledger.looks.push_back({field<std::string>(json, "test"),
                                field<std::string>(json, "metric"),
                                json.at("look").get<SequentialLook>()});
        continue;
      }
      ledger.lines.push_back({field<std::string>(json, "test"), json.get<SeedRun>()});
    } catch (const std::exception& error) {
      ledger.damaged.push_back(
          fmt::format("{}:{}: skipped, not a seed ledger line ({})", path, number, error.what()));
    }
  }
  return ledger;
}

}  // namespace mlregress::internal
