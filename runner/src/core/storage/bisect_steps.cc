#include "storage/bisect_steps.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "record/json_number.h"
#include "record/json_text.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

namespace fs = std::filesystem;

nlohmann::json to_json(const BisectState& s) {
  return {{"repo", s.repo},     {"build", s.build},       {"binary", s.binary}, {"test", s.test},
          {"metric", s.metric}, {"run_args", s.run_args}, {"good", s.good},     {"bad", s.bad}};
}

nlohmann::json to_json(const BisectOutcome& o) {
  return {{"commit", o.commit},
          {"answer", std::string(bisect_answer_name(o.answer))},
          {"reason", o.reason},
          {"metric", o.metric},
          {"value", o.value ? json_number(*o.value) : nlohmann::json()},
          {"baseline", o.baseline ? json_number(*o.baseline) : nlohmann::json()},
          {"verdict", o.verdict}};
}

BisectOutcome outcome_from_json(const nlohmann::json& j) {
  BisectOutcome o;
  o.commit = j.at("commit");
  const std::string answer = j.at("answer");
  o.answer = answer == "good"  ? BisectAnswer::kGood
             : answer == "bad" ? BisectAnswer::kBad
                               : BisectAnswer::kSkip;
  o.reason = j.at("reason");
  o.metric = j.at("metric");
  if (j.at("value").is_number()) o.value = j.at("value").get<double>();
  if (j.at("baseline").is_number()) o.baseline = j.at("baseline").get<double>();
  o.verdict = j.at("verdict");
  return o;
}

std::string settings_file(const std::string& folder) { return folder + "/settings.json"; }
std::string outcome_file(const std::string& commit_folder) {
  return commit_folder + "/outcome.json";
}
std::string tried_log(const std::string& folder) { return folder + "/tried.jsonl"; }

}  // namespace

std::string_view bisect_answer_name(BisectAnswer answer) {
  return answer == BisectAnswer::kGood ? "good" : answer == BisectAnswer::kBad ? "bad" : "skip";
}

void write_bisect_settings(const BisectState& state) {
  write_file_atomically(settings_file(state.folder), json_text(to_json(state), 2) + "\n");
}

BisectState read_bisect_settings(const std::string& folder) {
  const std::string path = settings_file(folder);
  const nlohmann::json j = read_json_file(path);
  try {
    BisectState s;
    s.folder = folder;
    s.repo = j.at("repo");
    s.build = j.at("build");
    s.binary = j.at("binary");
    s.test = j.at("test");
    s.metric = j.at("metric");
    s.run_args = j.at("run_args").get<std::vector<std::string>>();
    s.good = j.at("good");
    s.bad = j.at("bad");
    return s;
  } catch (const nlohmann::json::exception& error) {
    throw RunFolderError(fmt::format("{}: {}", path, error.what()));
  }
}

void write_outcome(const std::string& commit_folder, const BisectOutcome& outcome) {
  write_file_atomically(outcome_file(commit_folder), json_text(to_json(outcome), 2) + "\n");
}

std::optional<BisectOutcome> read_outcome(const std::string& commit_folder) {
  const std::string path = outcome_file(commit_folder);
  std::error_code error;
  if (!fs::exists(path, error)) return std::nullopt;
  try {
    return outcome_from_json(read_json_file(path));
  } catch (const std::exception&) {
    return std::nullopt;  // a damaged cache entry is measured again
  }
}

void clear_tried(const std::string& folder) {
  std::error_code ignored;
  fs::remove(tried_log(folder), ignored);
}

void append_tried(const std::string& folder, const BisectOutcome& outcome) {
  nlohmann::json line = to_json(outcome);
  line["built"] = outcome.built;
  append_line(tried_log(folder), json_text(line));
}

std::vector<BisectOutcome> read_tried(const std::string& folder) {
  std::vector<BisectOutcome> tried;
  std::ifstream in(tried_log(folder));
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    try {
      const nlohmann::json j = nlohmann::json::parse(line);
      BisectOutcome o = outcome_from_json(j);
      o.built = j.at("built");
      tried.push_back(std::move(o));
    } catch (const std::exception& error) {
      throw BisectFailed(
          fmt::format("{}:{}: not a measured commit: {}", tried_log(folder), number, error.what()));
    }
  }
  return tried;
}

}  // namespace mlregress::internal
