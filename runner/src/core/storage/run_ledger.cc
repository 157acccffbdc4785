#include "storage/run_ledger.h"

#include <fmt/format.h>

#include <fstream>

#include "record/json_fields.h"
#include "record/json_number.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

RunSummary summary_from_json(const nlohmann::json& json) {
  RunSummary s;
  s.tests = field_or<std::size_t>(json, "tests", 0);
  s.passed = field_or<std::size_t>(json, "passed", 0);
  s.failed = field_or<std::size_t>(json, "failed", 0);
  s.skipped = field_or<std::size_t>(json, "skipped", 0);
  s.crashed = field_or<std::size_t>(json, "crashed", 0);
  s.regressed = field_or<std::size_t>(json, "regressed", 0);
  s.timed_out = field_or<std::size_t>(json, "timed_out", 0);
  return s;
}

}  // namespace

LedgerEntry ledger_entry(const RunResult& run) {
  LedgerEntry entry;
  entry.run_id = run.info.run_id;
  entry.binary = run.info.binary;
  entry.started_at = run.info.started_at;
  entry.finished_at = run.info.finished_at;
  entry.duration_s = run.info.duration_s;
  entry.tiers = run.info.tiers;
  entry.filter = run.info.filter;
  entry.git = recorded_git(run.info.environment);
  entry.summary = summarize_run(run);
  entry.exit_code = static_cast<ExitCode>(run.exit_code);
  entry.hypothesis = run.info.hypothesis;
  entry.change = run.info.change;
  entry.criteria = criteria_outcome(run.criteria);
  for (const TestResult& test : run.tests) {
    if (!test.finished) continue;
    for (const MetricRecord& metric : test.metrics)
      entry.metrics[test.name][metric.name] = metric.value;
  }
  return entry;
}

void to_json(nlohmann::json& json, const LedgerEntry& entry) {
  json = {{"run_id", entry.run_id},
          {"binary", entry.binary},
          {"started_at", entry.started_at},
          {"duration_s", entry.duration_s},
          {"git_commit", entry.git.commit},
          {"git_dirty", entry.git.dirty},
          {"exit_code", static_cast<int>(entry.exit_code)},
          {"exit_status", exit_code_name(entry.exit_code)}};
  if (entry.kind == "ab") {
    json["kind"] = "ab";
    json["other_binary"] = entry.other_binary;
    return;
  }
  json["finished_at"] = entry.finished_at;
  json["tiers"] = entry.tiers;
  json["filter"] = entry.filter;
  if (entry.summary) json["summary"] = *entry.summary;
  if (!entry.hypothesis.empty()) json["hypothesis"] = entry.hypothesis;
  if (!entry.change.empty()) json["change"] = entry.change;
  if (!entry.criteria.empty()) json["criteria"] = entry.criteria;
  if (!entry.metrics.empty()) {
    nlohmann::json& metrics = json["metrics"];
    for (const auto& [test, values] : entry.metrics) {
      for (const auto& [name, value] : values) metrics[test][name] = json_number(value);
    }
  }
}

std::string ledger_decision(const LedgerEntry& entry) {
  if (entry.criteria == "met") return entry.exit_code == ExitCode::kPassed ? "keep" : "reject";
  if (entry.criteria == "not met") return "reject";
  return "";
}

}  // namespace mlregress::internal

namespace mlregress::internal {

void from_json(const nlohmann::json& json, LedgerEntry& entry) {
  if (!json.is_object()) throw JsonFieldError("line", "expected an object, got " + json.dump());
  entry.run_id = field<std::string>(json, "run_id");
  entry.kind = field_or<std::string>(json, "kind", "run");
  entry.binary = field_or<std::string>(json, "binary", "");
  entry.other_binary = field_or<std::string>(json, "other_binary", "");
  entry.started_at = field_or<std::string>(json, "started_at", "");
  entry.finished_at = field_or<std::string>(json, "finished_at", "");
  entry.duration_s = optional_number_field(json, "duration_s").value_or(0.0);
  if (json.contains("tiers")) entry.tiers = array_field<std::string>(json, "tiers");
  entry.filter = field_or<std::string>(json, "filter", "");
  entry.git.commit = field_or<std::string>(json, "git_commit", "unknown");
  entry.git.dirty = field_or<bool>(json, "git_dirty", false);
  if (json.contains("summary")) {
    const nlohmann::json summary = field<nlohmann::json>(json, "summary");
    with_field_context("summary", [&] { entry.summary = summary_from_json(summary); });
  }
  entry.exit_code = static_cast<ExitCode>(field<int>(json, "exit_code"));
  entry.hypothesis = field_or<std::string>(json, "hypothesis", "");
  entry.change = field_or<std::string>(json, "change", "");
  entry.criteria = field_or<std::string>(json, "criteria", "");
  if (json.contains("metrics")) {
    with_field_context("metrics", [&] {
      for (const auto& [test, values] : json.at("metrics").items()) {
        for (const auto& [name, value] : values.items()) {
          entry.metrics[test][name] = number_field(values, name);
        }
      }
    });
  }
}

RunLedger read_run_ledger(const std::string& runs_folder) {
  const std::string path = runs_folder + "/ledger.jsonl";
  std::ifstream in(path);
  if (!in) {
    throw RunFolderError(fmt::format("{}: cannot be read (no runs in {}?)", path, runs_folder));
  }
  RunLedger ledger;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    try {
      ledger.entries.push_back(nlohmann::json::parse(line).get<LedgerEntry>());
    } catch (const std::exception& error) {
      ledger.damaged.push_back(
          fmt::format("{}:{}: skipped, not a ledger line ({})", path, number, error.what()));
    }
  }
  return ledger;
}

}  // namespace mlregress::internal
