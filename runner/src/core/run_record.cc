#include "run_record.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "environment_profile.h"
#include "results_json_writer.h"

namespace mlregress::internal {
namespace {

nlohmann::json read_json(const std::string& folder, const char* name) {
  const std::string path = folder + "/" + name;
  std::ifstream in(path);
  if (!in) {
    throw RunFolderError(fmt::format("'{}' is not a run folder: it has no readable {}", folder, name));
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    throw RunFolderError(fmt::format("{}: not valid JSON ({})", path, error.what()));
  }
}

}  // namespace

RunRecord read_run_record(const std::string& path) {
  if (!std::filesystem::is_directory(path)) {
    throw RunFolderError(fmt::format("'{}' is not a run folder (not a directory)", path));
  }
  RunRecord record;
  record.path = path;
  record.results = read_json(path, "results.json");
  record.environment = read_json(path, "environment.json");
  try {
    const int version = record.results.at("schema_version").get<int>();
    if (version > kResultsSchemaVersion) {
      throw RunFolderError(fmt::format("{}/results.json has schema_version {}; this mlregress reads up to {}",
                                       path, version, kResultsSchemaVersion));
    }
    record.run_id = record.results.at("run").at("id").get<std::string>();
    for (const nlohmann::json& test : record.results.at("tests")) {
      (void)test.at("name").get<std::string>();
      (void)test.at("status").get<std::string>();
      (void)test.at("file").get<std::string>();
      for (const nlohmann::json& metric : test.at("metrics")) {
        (void)metric.at("name").get<std::string>();
        (void)metric.at("direction").get<std::string>();
        (void)metric.at("policy").at("kind").get<std::string>();
      }
    }
  } catch (const nlohmann::json::exception& error) {
    throw RunFolderError(fmt::format("{}/results.json does not follow the results schema: {}", path,
                                     error.what()));
  }
  record.profile = environment_profile(record.environment);
  return record;
}

}  // namespace mlregress::internal
