#include "record/held_out.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

#include "record/json_fields.h"
#include "record/run_result.h"

namespace mlregress::internal {

void add_held_out_evaluation(std::vector<HeldOutEvaluation>& list, const std::string& name,
                             const std::string& sha256, int times) {
  auto it = std::find_if(list.begin(), list.end(), [&](const HeldOutEvaluation& e) {
    return e.name == name && e.sha256 == sha256;
  });
  if (it == list.end()) {
    list.push_back({name, sha256, times});
  } else {
    it->evaluations += times;
  }
}

std::vector<HeldOutEvaluation> held_out_of_seed_runs(const std::vector<SeedRun>& runs) {
  // (name, sha256) in first-seen order; per variant the most one of its seeds made.
  std::vector<HeldOutEvaluation> order;
  std::map<std::pair<std::string, std::string>, std::map<std::size_t, int>> most;
  for (const SeedRun& run : runs) {
    for (const HeldOutEvaluation& e : run.held_out) {
      add_held_out_evaluation(order, e.name, e.sha256, 0);
      int& kept = most[{e.name, e.sha256}][run.variant_index];
      kept = std::max(kept, e.evaluations);
    }
  }
  for (HeldOutEvaluation& e : order) {
    for (const auto& [variant, evaluations] : most[{e.name, e.sha256}])
      e.evaluations += evaluations;
  }
  return order;
}

int HeldOutTally::total() const {
  int sum = this_run;
  for (const HeldOutEarlierRun& run : earlier_runs) sum += run.evaluations;
  return sum;
}

std::vector<HeldOutTally> tally_this_run(const RunResult& run) {
  std::vector<HeldOutTally> tallies;
  for (const TestResult& test : run.tests) {
    for (const HeldOutEvaluation& e : test.held_out) {
      auto it = std::find_if(tallies.begin(), tallies.end(), [&](const HeldOutTally& t) {
        return t.name == e.name && t.sha256 == e.sha256;
      });
      if (it == tallies.end()) {
        tallies.push_back({e.name, e.sha256, 0, {}, {}});
        it = std::prev(tallies.end());
      }
      it->this_run += e.evaluations;
      it->tests.push_back(test.name);
    }
  }
  return tallies;
}

std::string held_out_warning(const HeldOutTally& tally) {
  if (tally.total() <= 1) return "";
  const std::string hex = tally.sha256.substr(0, std::string("sha256:").size() + 12);
  std::string where;
  for (const HeldOutEarlierRun& run : tally.earlier_runs) {
    where += fmt::format("{}{} ({})", where.empty() ? "" : ", ", run.run_id, run.evaluations);
  }
  if (tally.this_run > 0) {
    std::string tests;
    for (const std::string& test : tally.tests) tests += (tests.empty() ? "" : ", ") + test;
    where += fmt::format("{}this run ({}: {})", where.empty() ? "" : ", ", tally.this_run, tests);
  }
  return fmt::format(
      "held-out set '{}' ({}…) evaluated {} times: {}; past the first it no longer estimates "
      "generalisation",
      tally.name, hex, tally.total(), where);
}

void to_json(nlohmann::json& json, const HeldOutEvaluation& evaluation) {
  json = {{"name", evaluation.name},
          {"sha256", evaluation.sha256},
          {"evaluations", evaluation.evaluations}};
}

void from_json(const nlohmann::json& json, HeldOutEvaluation& evaluation) {
  evaluation.name = field<std::string>(json, "name");
  evaluation.sha256 = field<std::string>(json, "sha256");
  evaluation.evaluations = field<int>(json, "evaluations");
}

void to_json(nlohmann::json& json, const HeldOutTally& tally) {
  nlohmann::json earlier = nlohmann::json::array();
  for (const HeldOutEarlierRun& run : tally.earlier_runs) {
    earlier.push_back({{"run_id", run.run_id}, {"evaluations", run.evaluations}});
  }
  json = {{"name", tally.name},
          {"sha256", tally.sha256},
          {"evaluations_this_run", tally.this_run},
          {"tests", tally.tests},
          {"earlier_runs", std::move(earlier)},
          {"evaluations", tally.total()}};
  if (const std::string warning = held_out_warning(tally); !warning.empty()) {
    json["warning"] = warning;
  }
}

void from_json(const nlohmann::json& json, HeldOutTally& tally) {
  tally.name = field<std::string>(json, "name");
  tally.sha256 = field<std::string>(json, "sha256");
  tally.this_run = field<int>(json, "evaluations_this_run");
  tally.tests = field_or<std::vector<std::string>>(json, "tests", {});
  for (const nlohmann::json& run :
       field_or<nlohmann::json>(json, "earlier_runs", nlohmann::json::array())) {
    tally.earlier_runs.push_back(
        {field<std::string>(run, "run_id"), field<int>(run, "evaluations")});
  }
}

}  // namespace mlregress::internal
