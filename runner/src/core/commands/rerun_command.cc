#include "commands/rerun_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "commands/run_command.h"
#include "comparison/comparator.h"
#include "environment/git_info.h"
#include "execution/seed_runs.h"
#include "record/json_number.h"
#include "record/json_text.h"
#include "registry/config_hash.h"
#include "registry/param_overrides.h"
#include "registry/test_registry.h"
#include "storage/run_record.h"
#include "support/child_process.h"
#include "support/errors.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

const TestResult* find_result(const RunResult& run, const std::string& name) {
  for (const TestResult& test : run.tests) {
    if (test.name == name || test.full_name == name) return &test;
  }
  return nullptr;
}

// A recorded parameter value as --set takes it.
std::string set_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_integer()) return json_text(value);
  return fmt::format("{}", value.get<double>());  // shortest form that reads back the same
}

// How far a value may move and still count as the run's: the metric's band, or its margin for
// a seed's value; 0 for exact values. Timings are not expected to repeat exactly.
double allowed_difference(const MetricRecord& metric, double original) {
  if (const Band* band = std::get_if<Band>(&metric.policy))
    return band->atol + band->rtol * std::fabs(original);
  if (const Margin* margin = std::get_if<Margin>(&metric.policy)) return margin->delta;
  if (std::holds_alternative<Exact>(metric.policy) || metric.direction == Direction::MustEqual)
    return 0.0;
  if (std::holds_alternative<Timing>(metric.policy))
    return kTimingMaximumBand * std::fabs(original);
  return kDefaultBand.atol + kDefaultBand.rtol * std::fabs(original);
}

struct Tally {
  std::size_t exact = 0, within = 0, beyond = 0;
};

void compare_value(const std::string& label, const MetricRecord& metric, double original,
                   std::optional<double> again, Tally& tally) {
  if (!again) {
    std::printf("  %-36s %s -> not recorded this time\n", label.c_str(),
                format_value(original).c_str());
    ++tally.beyond;
    return;
  }
  const bool same = (std::isnan(original) && std::isnan(*again)) || original == *again;
  if (same) {
    std::printf("  %-36s %s  reproduced exactly\n", label.c_str(), format_value(original).c_str());
    ++tally.exact;
    return;
  }
  const double difference = *again - original;
  const double allowed = allowed_difference(metric, original);
  const bool within = std::isfinite(difference) && std::fabs(difference) <= allowed;
  std::printf(
      "  %-36s %s -> %s  differs by %s%s\n", label.c_str(), format_value(original).c_str(),
      format_value(*again).c_str(), format_value(difference).c_str(),
      within ? fmt::format(" (within the recorded band ±{})", format_value(allowed)).c_str() : "");
  ++(within ? tally.within : tally.beyond);
}

std::optional<double> value_in(const std::vector<MetricRecord>& metrics, const std::string& name) {
  for (const MetricRecord& m : metrics) {
    if (m.name == name) return m.value;
  }
  return std::nullopt;
}

void warn_if_other_commit(const RunRecord& record, const std::string& repository) {
  const GitInfo recorded = recorded_git(record.run.info.environment);
  const GitInfo now = probe_git(repository);
  if (recorded.commit == now.commit && !now.dirty) return;
  std::printf("WARNING: the run was made at %s%s; this binary's tree is at %s%s\n",
              recorded.commit.substr(0, 12).c_str(), recorded.dirty ? " (dirty)" : "",
              now.commit.substr(0, 12).c_str(), now.dirty ? " (dirty)" : "");
  if (recorded.commit == "unknown" || now.commit == "unknown") return;
  std::vector<std::string> git = {"git"};
  if (!repository.empty()) git.insert(git.end(), {"-C", repository});
  git.insert(git.end(), {"diff", "--stat", recorded.commit});
  if (const auto stat = capture_output(git)) std::printf("%s", stat->c_str());
}

}  // namespace

ExitCode rerun_command(const RerunOptions& options, const RunnerHooks& hooks,
                       const std::string& binary) {
  const RunRecord record = read_run_record(options.run);
  const nlohmann::json config = read_json_file(options.run + "/config.json");
  const TestResult* original = find_result(record.run, options.test);
  if (original == nullptr) {
    std::vector<std::string> names;
    for (const TestResult& t : record.run.tests) names.push_back(t.name);
    throw ConfigError(fmt::format("rerun: {} has no test '{}' (it has: {})", options.run,
                                  options.test, fmt::join(names, ", ")));
  }
  const TestRegistry& registry = TestRegistry::instance();
  const RegisteredTest* test = registry.find(original->name);
  if (test == nullptr) {
    throw ConfigError(fmt::format("rerun: this binary has no test '{}'", original->name));
  }
  const nlohmann::json::json_pointer at("/tests/" + original->name);
  if (!config.contains(at)) {
    throw RunFolderError(
        fmt::format("{}/config.json: no entry for test '{}'", options.run, original->name));
  }
  const nlohmann::json& planned = config.at(at);

  // The run's resolved parameters as --set items; what no longer matches is refused.
  std::vector<std::string> sets, mismatches;
  for (const auto& [key, value] : planned.at("params").items()) {
    if (test->find_param(key) == nullptr) {
      mismatches.push_back(
          fmt::format("the run had parameter '{}', this test no longer has it", key));
      continue;
    }
    sets.push_back(fmt::format("{}.{}={}", original->name, key, set_text(value)));
  }
  for (const ParamSpec& spec : test->params) {
    if (!planned.at("params").contains(spec.name))
      mismatches.push_back(fmt::format("parameter '{}' is new (its default is used)", spec.name));
  }
  const std::uint64_t run_seed = config.at("seed").get<std::uint64_t>();
  const int threads = config.at("threads").get<int>();
  const ResolvedParams params = resolve_params(*test, parse_param_overrides(sets, registry));
  const std::string hash =
      test->seeded() ? config_hash(params, 0, 1) : config_hash(params, run_seed, threads);
  if (hash != planned.at("config_hash").get<std::string>()) {
    mismatches.push_back(fmt::format("its config hash is {} here and {} in the run", hash,
                                     planned.at("config_hash").get<std::string>()));
  }
  if (!mismatches.empty()) {
    const std::string list = fmt::format("{}", fmt::join(mismatches, "; "));
    if (!options.force)
      throw ConfigError(
          fmt::format("rerun: {} no longer matches the run: {}; --force reruns it anyway",
                      original->name, list));
    std::printf("rerun --force: %s\n", list.c_str());
  }
  if (options.seed && !test->seeded()) {
    throw ConfigError(fmt::format("rerun --seed: {} is not a seeded test", original->name));
  }
  // The seeds the run ran: config.json plans a sequential test's seeds up to its cap, and the
  // run may have stopped before the last ones.
  const std::vector<std::uint64_t> seeds = seeds_that_ran(*original);
  if (options.seed) {
    if (std::find(seeds.begin(), seeds.end(), *options.seed) == seeds.end()) {
      throw ConfigError(fmt::format("rerun --seed: the run did not use seed {} for {} (it used {})",
                                    *options.seed, original->name, fmt::join(seeds, ", ")));
    }
  }
  const std::string repository = run_repository(options.repo, registry.source_files());
  warn_if_other_commit(record, repository);

  RunOptions run;
  run.filter = original->full_name;
  run.sets = sets;
  run.seed = run_seed;
  run.threads = threads;
  run.out = options.out;
  run.color = "never";
  run.repo = options.repo;
  if (options.seed) {
    run.only_seeds = {*options.seed};
  } else if (original->seed_block > 0) {
    run.only_seeds = seeds;  // the blocks the run reached, no more
  }
  std::printf("rerun of %s from %s (seed %llu, threads %d, config %s)\n",
              original->full_name.c_str(), options.run.c_str(),
              static_cast<unsigned long long>(run_seed), threads, hash.c_str());
  std::fflush(stdout);
  const ExitCode ran = run_command(run, hooks, binary, "");
  const RunRecord again = read_run_record(options.out + "/latest");
  const TestResult* rerun = find_result(again.run, original->name);

  std::printf("\nrerun %s: %s against %s\n", original->full_name.c_str(),
              again.run.info.run_id.c_str(), record.run.info.run_id.c_str());
  Tally tally;
  if (!original->seeded) {
    for (const MetricRecord& m : original->metrics) {
      compare_value(m.name, m, m.value, rerun ? value_in(rerun->metrics, m.name) : std::nullopt,
                    tally);
    }
  } else {
    for (const SeedRun& seed_run : original->seed_runs) {
      if (options.seed && seed_run.seed != *options.seed) continue;
      const SeedRun* repeated = nullptr;
      if (rerun != nullptr) {
        for (const SeedRun& r : rerun->seed_runs) {
          if (r.seed == seed_run.seed && r.variant_index == seed_run.variant_index) repeated = &r;
        }
      }
      for (const MetricRecord& m : seed_run.metrics) {
        MetricRecord with_policy = m;  // the policy is the test's, stored with its aggregate
        for (const MetricRecord& aggregate : original->metrics) {
          if (aggregate.name == m.name || aggregate.name.starts_with(m.name + "[")) {
            with_policy.policy = aggregate.policy;
            with_policy.direction = aggregate.direction;
          }
        }
        compare_value(
            fmt::format("{} ({})", m.name,
                        seed_run.variant.empty()
                            ? fmt::format("seed {}", seed_run.seed)
                            : fmt::format("seed {} [{}]", seed_run.seed, seed_run.variant)),
            with_policy, m.value, repeated ? value_in(repeated->metrics, m.name) : std::nullopt,
            tally);
      }
    }
  }
  const bool failed = rerun == nullptr || is_test_failure(rerun->status);
  std::printf(
      "rerun: %s\n",
      failed ? "the test did not pass this time"
      : tally.beyond > 0
          ? fmt::format("differs: {} value(s) beyond the recorded band", tally.beyond).c_str()
      : tally.within > 0 ? "reproduced within the recorded bands"
                         : "reproduced exactly");
  if (failed) return ExitCode::kTestFailed;
  if (tally.beyond > 0) return ExitCode::kRegression;
  (void)ran;
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
