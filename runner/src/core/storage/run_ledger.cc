#include "storage/run_ledger.h"

namespace mlregress::internal {

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
}

}  // namespace mlregress::internal
