#include "storage/bisect_record.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "record/json_fields.h"
#include "record/json_number.h"
#include "record/json_text.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

constexpr int kSchemaVersion = 1;

nlohmann::json to_json(const BisectCommit& c) {
  return {{"commit", c.commit}, {"subject", c.subject}};
}

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? json_number(*value) : nlohmann::json();
}

nlohmann::json to_json(const BisectTry& t) {
  return {{"commit", t.commit.commit},
          {"subject", t.commit.subject},
          {"role", t.role},
          {"answer", t.answer},
          {"verdict", t.verdict},
          {"reason", t.reason},
          {"metric", t.metric},
          {"value", optional_number(t.value)},
          {"baseline", optional_number(t.baseline)},
          {"built", t.built},
          {"run", t.run.empty() ? nlohmann::json() : nlohmann::json(t.run)}};
}

BisectCommit commit_from_json(const nlohmann::json& j) {
  BisectCommit c;
  c.commit = field<std::string>(j, "commit");
  c.subject = field<std::string>(j, "subject");
  if (c.commit.empty()) throw JsonFieldError("commit", "expected a commit id, got \"\"");
  return c;
}

// A field that must be one of `allowed`.
std::string one_of(const nlohmann::json& j, std::string_view key,
                   std::initializer_list<std::string_view> allowed) {
  const std::string value = field<std::string>(j, key);
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    std::string names;
    for (std::string_view a : allowed) names += (names.empty() ? "" : ", ") + std::string(a);
    throw JsonFieldError(std::string(key),
                         fmt::format("expected one of {}, got \"{}\"", names, value));
  }
  return value;
}

BisectTry try_from_json(const nlohmann::json& j) {
  BisectTry t;
  t.commit = commit_from_json(j);
  t.role = one_of(j, "role", {"good", "bad", "step"});
  t.answer = one_of(j, "answer", {"good", "bad", "skip"});
  t.verdict = field<std::string>(j, "verdict");
  t.reason = field<std::string>(j, "reason");
  t.metric = field<std::string>(j, "metric");
  t.value = optional_number_field(j, "value");
  t.baseline = optional_number_field(j, "baseline");
  t.built = field<bool>(j, "built");
  t.run = field_or<std::string>(j, "run", "");
  return t;
}

// An array of objects, each read by `read`; an error names the element.
template <typename T, typename Read>
std::vector<T> objects_field(const nlohmann::json& j, std::string_view key, Read read) {
  const nlohmann::json array = field<nlohmann::json>(j, key);
  std::vector<T> values;
  with_field_context(key, [&] {
    if (!array.is_array()) throw std::invalid_argument("expected an array, got " + array.dump());
  });
  for (std::size_t i = 0; i < array.size(); ++i) {
    with_field_context(std::string(key) + "[" + std::to_string(i) + "]",
                       [&] { values.push_back(read(array[i])); });
  }
  return values;
}

BisectRecord record_from_json(const nlohmann::json& j) {
  const int version = field<int>(j, "schema_version");
  if (version != kSchemaVersion) {
    throw JsonFieldError(
        "schema_version",
        fmt::format("expected {}, got {} (written by another mlregress)", kSchemaVersion, version));
  }
  BisectRecord r;
  r.test = field<std::string>(j, "test");
  r.metric = field<std::string>(j, "metric");
  r.repo = field<std::string>(j, "repo");
  with_field_context("good", [&] { r.good = commit_from_json(field<nlohmann::json>(j, "good")); });
  with_field_context("bad", [&] { r.bad = commit_from_json(field<nlohmann::json>(j, "bad")); });
  r.commits = field<int>(j, "commits");
  if (r.commits < 2)
    throw JsonFieldError("commits",
                         fmt::format("expected at least 2 (GOOD and BAD), got {}", r.commits));
  if (const auto culprit = j.find("culprit"); culprit == j.end()) {
    throw JsonFieldError("culprit", "missing (null when none was named)");
  } else if (!culprit->is_null()) {
    with_field_context("culprit", [&] { r.culprit = commit_from_json(*culprit); });
  }
  r.candidates = objects_field<BisectCommit>(j, "candidates", commit_from_json);
  r.error = field_or<std::string>(j, "error", "");
  r.tried = objects_field<BisectTry>(j, "tried", try_from_json);
  return r;
}

}  // namespace

int BisectRecord::builds() const {
  return static_cast<int>(
      std::count_if(tried.begin(), tried.end(), [](const BisectTry& t) { return t.built; }));
}

std::string bisect_record_text(const BisectRecord& r) {
  nlohmann::json candidates = nlohmann::json::array();
  for (const BisectCommit& c : r.candidates) candidates.push_back(to_json(c));
  nlohmann::json tried = nlohmann::json::array();
  for (const BisectTry& t : r.tried) tried.push_back(to_json(t));
  const nlohmann::json j = {{"schema_version", kSchemaVersion},
                            {"test", r.test},
                            {"metric", r.metric},
                            {"repo", r.repo},
                            {"good", to_json(r.good)},
                            {"bad", to_json(r.bad)},
                            {"commits", r.commits},
                            {"culprit", r.culprit ? to_json(*r.culprit) : nlohmann::json()},
                            {"candidates", candidates},
                            {"error", r.error},
                            {"builds", r.builds()},
                            {"tried", tried}};
  return json_text(j, 2) + "\n";
}

void write_bisect_record(const std::string& folder, const BisectRecord& record) {
  write_file_atomically(folder + "/bisect.json", bisect_record_text(record));
}

BisectRecord read_bisect_record(const std::string& folder) {
  const std::string path = folder + "/bisect.json";
  const nlohmann::json j = read_json_file(path);
  try {
    return record_from_json(j);
  } catch (const JsonFieldError& e) {
    throw RunFolderError(
        fmt::format("{}: not a bisect record: {}: {}", path, e.path(), e.problem()));
  }
}

bool is_bisect_folder(const std::string& folder) {
  std::error_code error;
  return std::filesystem::is_regular_file(folder + "/bisect.json", error);
}

}  // namespace mlregress::internal
