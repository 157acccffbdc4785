#include "commands/rerun_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "baselines/promotion.h"
#include "commands/run_command.h"
#include "comparison/baseline_gate.h"
#include "environment/git_info.h"
#include "record/json_text.h"
#include "registry/config_hash.h"
#include "registry/param_overrides.h"
#include "registry/test_registry.h"
#include "storage/run_config.h"
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

// What the rerun repeats: the test as the run recorded it and as this binary has it, with the
// run's resolved parameters, seed and thread count.
struct RerunPlan {
  const TestResult* original = nullptr;
  const RegisteredTest* test = nullptr;
  std::vector<std::string> sets;  ///< the run's parameters as --set items
  std::uint64_t run_seed = 0;
  int threads = 1;
  std::string determinism = "warn";  ///< the run's --determinism
  std::string hash;                  ///< the config hash here
  std::vector<std::uint64_t> seeds;  ///< the seeds the run ran
};

// The test in the run and in this binary; ConfigError when either lacks it.
void find_test(const RerunOptions& options, const RunRecord& record, RerunPlan& plan) {
  plan.original = find_result(record.run, options.test);
  if (plan.original == nullptr) {
    std::vector<std::string> names;
    for (const TestResult& t : record.run.tests) names.push_back(t.name);
    throw ConfigError(fmt::format("rerun: {} has no test '{}' (it has: {})", options.run,
                                  options.test, fmt::join(names, ", ")));
  }
  plan.test = TestRegistry::instance().find(plan.original->name);
  if (plan.test == nullptr) {
    throw ConfigError(fmt::format("rerun: this binary has no test '{}'", plan.original->name));
  }
}

// The run's parameters as --set items and its config hash recomputed here; what no longer
// matches the run is returned.
std::vector<std::string> resolve_run_parameters(const RunConfig& config,
                                                const RunConfigTest& planned, RerunPlan& plan) {
  const std::string& name = plan.original->name;
  std::vector<std::string> mismatches;
  for (const auto& [key, value] : planned.params) {
    if (plan.test->find_param(key) == nullptr) {
      mismatches.push_back(
          fmt::format("the run had parameter '{}', this test no longer has it", key));
      continue;
    }
    plan.sets.push_back(fmt::format("{}.{}={}", name, key, set_text(value)));
  }
  for (const ParamSpec& spec : plan.test->params) {
    if (planned.params.count(spec.name) == 0)
      mismatches.push_back(fmt::format("parameter '{}' is new (its default is used)", spec.name));
  }
  plan.run_seed = *config.seed;
  plan.threads = *config.threads;
  const TestRegistry& registry = TestRegistry::instance();
  const ResolvedParams params =
      resolve_params(*plan.test, parse_param_overrides(plan.sets, registry));
  plan.hash = plan.test->seeded() ? config_hash(params, 0, 1)
                                  : config_hash(params, plan.run_seed, plan.threads);
  if (plan.hash != planned.config_hash) {
    mismatches.push_back(fmt::format("its config hash is {} here and {} in the run", plan.hash,
                                     planned.config_hash));
  }
  return mismatches;
}

// The seeds the run ran (config.json plans a sequential test's seeds up to its cap, and the run
// may have stopped before the last ones), and --seed checked against them.
void check_seeds(const RerunOptions& options, RerunPlan& plan) {
  const std::string& name = plan.original->name;
  if (plan.original->attempts) {
    // One more run of some attempts would say nothing: the verdict is the rate over all of them.
    throw ConfigError(fmt::format(
        "rerun: {} is flaky-aware (ML_FLAKY_TEST or run --quarantine): its verdict is its failure "
        "rate over the attempts, which rerun cannot reproduce; run it again with `run --filter {}`",
        name, name));
  }
  if (options.seed && !plan.test->seeded()) {
    throw ConfigError(fmt::format("rerun --seed: {} is not a seeded test", name));
  }
  plan.seeds = seeds_that_ran(*plan.original);
  if (options.seed &&
      std::find(plan.seeds.begin(), plan.seeds.end(), *options.seed) == plan.seeds.end()) {
    throw ConfigError(fmt::format("rerun --seed: the run did not use seed {} for {} (it used {})",
                                  *options.seed, name, fmt::join(plan.seeds, ", ")));
  }
}

RerunPlan plan_rerun(const RerunOptions& options, const RunRecord& record) {
  RerunPlan plan;
  const RunConfig config = read_run_config(options.run);
  find_test(options, record, plan);
  const RunConfigTest* planned = config.find(plan.original->name);
  if (planned == nullptr) {
    throw RunFolderError(
        fmt::format("{}/config.json: no entry for test '{}'", options.run, plan.original->name));
  }
  if (!config.seed || !config.threads) {
    throw RunFolderError(fmt::format("{}/config.json: {}: missing (the run's {})", options.run,
                                     config.seed ? "threads" : "seed",
                                     config.seed ? "thread count" : "--seed"));
  }
  const std::vector<std::string> mismatches = resolve_run_parameters(config, *planned, plan);
  if (!mismatches.empty()) {
    const std::string list = fmt::format("{}", fmt::join(mismatches, "; "));
    if (!options.force)
      throw ConfigError(
          fmt::format("rerun: {} no longer matches the run: {}; --force reruns it anyway",
                      plan.original->name, list));
    std::printf("rerun --force: %s\n", list.c_str());
  }
  check_seeds(options, plan);
  plan.determinism = record.run.info.determinism;
  return plan;
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

RunOptions rerun_run_options(const RerunOptions& options, const RerunPlan& plan) {
  RunOptions run;
  run.filter = plan.original->full_name;
  run.sets = plan.sets;
  run.seed = plan.run_seed;
  run.threads = plan.threads;
  run.determinism = plan.determinism;
  run.out = options.out;
  run.color = "never";
  run.repo = options.repo;
  if (options.seed) {
    run.only_seeds = {*options.seed};
  } else if (plan.original->seed_block > 0) {
    run.only_seeds = plan.seeds;  // the blocks the run reached, no more
  }
  return run;
}

// ---- Judging the rerun: the gate `run` and `compare` use, with the run as the baseline ----

// A seed's value is judged alone, so a seeded metric's margin is its band, and a seed's
// true-or-false outcome must come out the same (its rate is the test's, over every seed).
TolerancePolicy single_value_policy(const TolerancePolicy& policy) {
  if (const Margin* margin = std::get_if<Margin>(&policy))
    return Band{.rtol = 0.0, .atol = margin->delta};
  if (std::holds_alternative<FailureRate>(policy)) return Exact{.scope = Scope::Portable};
  return policy;
}

// What the gate judges one value at a time: a plain test as it is (its values and gated
// curves); a seeded test as one unit per seed run (its values, with the policy of the test's
// aggregate), and one more with its gated curves (each seed's own, "loss.seed43").
struct Unit {
  TestResult test;     ///< named after the test, and the seed for a seed's unit
  std::string suffix;  ///< what the console adds to a value's name: " (seed 43)"
};

Unit seed_unit(const TestResult& test, const SeedRun& seed_run) {
  Unit unit{test, fmt::format(" ({})",
                              seed_run.variant.empty()
                                  ? fmt::format("seed {}", seed_run.seed)
                                  : fmt::format("seed {} [{}]", seed_run.seed, seed_run.variant))};
  TestResult& one = unit.test;
  one.name += unit.suffix;
  one.seeded = false;
  one.seed_runs.clear();
  one.curves.clear();
  one.status = seed_run.status;
  one.metrics = seed_run.metrics;
  for (MetricRecord& m : one.metrics) {
    for (const MetricRecord& aggregate : test.metrics) {  // the policy is the test's
      if (aggregate.name == m.name || aggregate.name.starts_with(m.name + "[")) {
        m.policy = single_value_policy(aggregate.policy);
        m.direction = aggregate.direction;
      }
    }
  }
  return unit;
}

std::vector<Unit> judged_units(const TestResult& test, std::optional<std::uint64_t> seed) {
  Unit whole{test, ""};
  whole.test.comparisons.clear();
  whole.test.predictions.clear();
  if (!test.seeded) return {whole};
  std::vector<Unit> units;
  for (const SeedRun& seed_run : test.seed_runs) {
    if (!seed || seed_run.seed == *seed) units.push_back(seed_unit(whole.test, seed_run));
  }
  const std::string only = seed ? fmt::format(".seed{}", *seed) : "";
  whole.test.seeded = false;
  whole.test.seed_runs.clear();
  whole.test.metrics.clear();
  std::erase_if(whole.test.curves,
                [&](const RecordedCurve& c) { return !c.curve.name.ends_with(only); });
  units.push_back(std::move(whole));
  return units;
}

// The units as a run of their own, with the record's info, environment and profile.
RunRecord units_run(const RunRecord& record, const std::vector<Unit>& units) {
  RunRecord run = record;
  run.run.tests.clear();
  for (const Unit& unit : units) run.run.tests.push_back(unit.test);
  return run;
}

// The rerun's units judged by BaselineGate against the run's, made a baseline in memory exactly
// as `compare` makes one (plan_promotion); gated curves against the run's curve CSVs.
RunRecord judge_rerun(const RunRecord& record, const TestResult& original, const RunRecord& again,
                      const TestResult* repeated, std::optional<std::uint64_t> seed) {
  const BaselineSet baseline = baseline_from_run(units_run(record, judged_units(original, seed)));
  RunRecord judged =
      units_run(again, repeated ? judged_units(*repeated, seed) : std::vector<Unit>{});
  BaselineGate(baseline, again.profile, kDefaultAlpha).judge_run(judged.run);
  return judged;
}

struct Tally {
  std::size_t exact = 0, within = 0, beyond = 0, undecided = 0;
};

const MetricComparison* comparison_of(const TestResult* unit, const std::string& metric,
                                      bool curve) {
  if (unit == nullptr) return nullptr;
  for (const MetricComparison& c : unit->comparisons) {
    if (c.metric == metric && (c.kind == MetricKind::kCurve) == curve) return &c;
  }
  return nullptr;
}

std::optional<double> value_in(const TestResult* unit, const std::string& name) {
  if (unit == nullptr) return std::nullopt;
  for (const MetricRecord& m : unit->metrics) {
    if (m.name == name) return m.value;
  }
  return std::nullopt;
}

// One value: equal is "reproduced exactly"; otherwise what the gate said of it.
void report_value(const std::string& label, double original, std::optional<double> again,
                  const MetricComparison* c, Tally& tally) {
  if (!again) {
    std::printf("  %-36s %s -> not recorded this time\n", label.c_str(),
                format_value(original).c_str());
    ++tally.beyond;
    return;
  }
  if ((std::isnan(original) && std::isnan(*again)) || original == *again) {
    std::printf("  %-36s %s  reproduced exactly\n", label.c_str(), format_value(original).c_str());
    ++tally.exact;
    return;
  }
  const Verdict verdict = c ? c->verdict : Verdict::kNotComparable;
  std::string why;
  if (verdict == Verdict::kPass) {
    why = c->allowed ? fmt::format(" (within the recorded band ±{})", format_value(*c->allowed))
                     : fmt::format(" (within the recorded band, {})", c->tolerance);
    ++tally.within;
  } else if (verdict == Verdict::kRegression || verdict == Verdict::kImproved) {
    ++tally.beyond;
  } else {
    why =
        fmt::format(" ({}{})", verdict_name(verdict), c && !c->note.empty() ? ": " + c->note : "");
    ++tally.undecided;
  }
  std::printf("  %-36s %s -> %s  differs by %s%s\n", label.c_str(), format_value(original).c_str(),
              format_value(*again).c_str(), format_value(*again - original).c_str(), why.c_str());
}

// One gated curve: the same points are "reproduced exactly"; otherwise the curve gate's verdict.
void report_curve(const RecordedCurve& original, const TestResult* unit, Tally& tally) {
  const std::string label = "curve " + original.curve.name;
  const RecordedCurve* again = nullptr;
  if (unit != nullptr) {
    for (const RecordedCurve& c : unit->curves) {
      if (c.curve.name == original.curve.name) again = &c;
    }
  }
  const MetricComparison* c = comparison_of(unit, original.curve.name, /*curve=*/true);
  if (again == nullptr || c == nullptr) {
    std::printf("  %-36s not recorded this time\n", label.c_str());
    ++tally.beyond;
    return;
  }
  if (again->curve.steps == original.curve.steps &&
      std::equal(again->curve.values.begin(), again->curve.values.end(),
                 original.curve.values.begin(), original.curve.values.end(),
                 [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); })) {
    std::printf("  %-36s %zu points  reproduced exactly\n", label.c_str(),
                again->curve.values.size());
    ++tally.exact;
    return;
  }
  const bool pass = c->verdict == Verdict::kPass;
  const bool beyond = c->verdict == Verdict::kRegression || c->verdict == Verdict::kImproved;
  std::printf("  %-36s differs: %s%s\n", label.c_str(),
              pass || beyond ? "" : fmt::format("{}: ", verdict_name(c->verdict)).c_str(),
              c->note.c_str());
  ++(pass ? tally.within : beyond ? tally.beyond : tally.undecided);
}

// Per value and gated curve of the run: reproduced, within the band, or not.
Tally report_units(const std::vector<Unit>& originals, const RunRecord& judged) {
  Tally tally;
  for (const Unit& unit : originals) {
    const TestResult* again = find_result(judged.run, unit.test.name);
    for (const MetricRecord& m : unit.test.metrics) {
      report_value(m.name + unit.suffix, m.value, value_in(again, m.name),
                   comparison_of(again, m.name, /*curve=*/false), tally);
    }
    for (const RecordedCurve& curve : unit.test.curves) {
      if (curve.curve.policy) report_curve(curve, again, tally);
    }
  }
  return tally;
}

ExitCode conclude(const TestResult* rerun, const Tally& tally) {
  const bool failed = rerun == nullptr || is_test_failure(rerun->status);
  std::string outcome =
      failed ? "the test did not pass this time"
      : tally.beyond > 0
          ? fmt::format("differs: {} value(s) beyond the recorded band", tally.beyond)
      : tally.within > 0 ? "reproduced within the recorded bands"
                         : "reproduced exactly";
  if (!failed && tally.undecided > 0) {
    outcome += fmt::format("; {} value(s) the gate could not judge", tally.undecided);
  }
  std::printf("rerun: %s\n", outcome.c_str());
  if (failed) return ExitCode::kTestFailed;
  if (tally.beyond > 0) return ExitCode::kRegression;
  return ExitCode::kPassed;
}

}  // namespace

ExitCode rerun_command(const RerunOptions& options, const RunnerHooks& hooks,
                       const std::string& binary) {
  const RunRecord record = read_run_record(options.run);
  const RerunPlan plan = plan_rerun(options, record);
  const TestResult& original = *plan.original;
  warn_if_other_commit(record,
                       run_repository(options.repo, TestRegistry::instance().source_files()));

  std::printf("rerun of %s from %s (seed %llu, threads %d, config %s)\n",
              original.full_name.c_str(), options.run.c_str(),
              static_cast<unsigned long long>(plan.run_seed), plan.threads, plan.hash.c_str());
  std::fflush(stdout);
  run_command(rerun_run_options(options, plan), hooks, binary, "");
  const RunRecord again = read_run_record(options.out + "/latest");
  const TestResult* rerun = find_result(again.run, original.name);

  std::printf("\nrerun %s: %s against %s\n", original.full_name.c_str(),
              again.run.info.run_id.c_str(), record.run.info.run_id.c_str());
  const RunRecord judged = judge_rerun(record, original, again, rerun, options.seed);
  return conclude(rerun, report_units(judged_units(original, options.seed), judged));
}

}  // namespace mlregress::internal
