#include "mlregress/ml_test.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "comparison/constraint.h"
#include "execution/test_context.h"
#include "record/run_result.h"
#include "storage/predictions_file.h"
#include "support/dataset_hasher.h"

namespace mlregress {
namespace internal {
namespace {

TestContext* g_current_context = nullptr;

TestContext& require_context(std::string_view what) {
  if (g_current_context == nullptr || g_current_context->sink == nullptr) {
    throw std::logic_error(fmt::format("mlregress: {} called outside a running ML_TEST", what));
  }
  return *g_current_context;
}

}  // namespace

TestContext* current_test_context() { return g_current_context; }
void set_current_test_context(TestContext* context) { g_current_context = context; }

const ParamValue& resolved_param(std::string_view key) {
  TestContext& context = require_context("param()");
  auto it = context.params->find(key);
  if (it == context.params->end()) {
    throw std::invalid_argument(
        fmt::format("test '{}' reads parameter '{}', which it does not declare in ML_TEST",
                    context.test->name, key));
  }
  return it->second;
}

void throw_param_type_error(std::string_view key, const ParamValue& value, std::string_view asked) {
  throw std::invalid_argument(
      fmt::format("parameter '{}' is declared as {} (value {}) but read as {}", key,
                  param_type_name(value), param_value_to_string(value), asked));
}

}  // namespace internal

namespace {

bool finite_non_negative(double x) { return std::isfinite(x) && x >= 0.0; }

// Why a FailureRate cannot gate `name`, or "" when it can.
std::string failure_rate_problem(std::string_view name, double value, Direction direction,
                                 const FailureRate& rate, bool seeded) {
  if (!seeded) {
    return fmt::format(
        "metric '{}': FailureRate gates one outcome per seed of an ML_SEED_TEST (an "
        "ML_FLAKY_TEST's attempts are gated as its failure_rate already)",
        name);
  }
  if (!(rate.detect > 0.0 && rate.detect < 1.0)) {
    return fmt::format("metric '{}': FailureRate's detect must be a rate between 0 and 1, not {}",
                       name, rate.detect);
  }
  if (direction == Direction::MustEqual) {
    return fmt::format(
        "metric '{}': a failure rate needs LowerIsBetter (1 is the failure) or HigherIsBetter "
        "(0 is)",
        name);
  }
  if (value != 0.0 && value != 1.0) {
    return fmt::format("metric '{}': a FailureRate outcome is 0 or 1 (true or false), not {}", name,
                       value);
  }
  return "";
}

// Why `policy` cannot gate `name`, or "" when it can. A NaN, negative or infinite tolerance would
// silently widen or disable the gate (and a promoted infinite one could not be read back).
std::string policy_problem(std::string_view name, double value, Direction direction,
                           const TolerancePolicy& policy, bool seeded) {
  const bool margin = std::holds_alternative<Margin>(policy);
  if (const FailureRate* rate = std::get_if<FailureRate>(&policy)) {
    return failure_rate_problem(name, value, direction, *rate, seeded);
  }
  if (seeded && !margin && !std::holds_alternative<std::monostate>(policy)) {
    return fmt::format(
        "metric '{}': a seeded test compares per-seed distributions; give "
        "Margin{{.delta = ...}}, FailureRate{{}} for a true-or-false outcome, or no policy, not a "
        "band, exact or timing policy",
        name);
  }
  if (seeded && direction == Direction::MustEqual) {
    return fmt::format(
        "metric '{}': must_equal has no worse side to test across seeds; record it "
        "from an ML_TEST",
        name);
  }
  if (!seeded && margin)
    return fmt::format("metric '{}': Margin applies to seeded tests (ML_SEED_TEST) only", name);
  if (const Margin* m = std::get_if<Margin>(&policy);
      m != nullptr && !finite_non_negative(m->delta)) {
    return fmt::format("metric '{}': the margin must be finite and >= 0, not {}", name, m->delta);
  }
  if (const Margin* m = std::get_if<Margin>(&policy); m != nullptr && m->covariate == name) {
    return fmt::format(
        "metric '{}': a metric cannot be its own covariate (name another metric of the test that "
        "the change cannot move)",
        name);
  }
  if (const Timing* t = std::get_if<Timing>(&policy); t != nullptr && !finite_non_negative(t->cv)) {
    return fmt::format("metric '{}': a timing's cv must be finite and >= 0, not {}", name, t->cv);
  }
  if (const Band* band = std::get_if<Band>(&policy);
      band != nullptr && !(finite_non_negative(band->rtol) && finite_non_negative(band->atol))) {
    return fmt::format("metric '{}': band tolerances must be finite and >= 0 (rtol={}, atol={})",
                       name, band->rtol, band->atol);
  }
  return "";
}

}  // namespace

void MlTest::record(std::string_view name, double value, Direction direction,
                    TolerancePolicy policy, const char* file, int line) {
  internal::TestContext& context = internal::require_context("record()");
  if (const std::string problem = policy_problem(name, value, direction, policy, context.seeded);
      !problem.empty()) {
    throw std::invalid_argument(fmt::format("{}:{}: {}", file, line, problem));
  }
  if (context.attempt && name == internal::kFailureRateMetric) {
    throw std::invalid_argument(fmt::format(
        "{}:{}: metric '{}' is the name of the failure rate the runner gates for this flaky-aware "
        "test (ML_FLAKY_TEST or run --quarantine); record it under another name",
        file, line, name));
  }
  // Twice in one test, one of the values would be silently dropped (promote kept the last, the
  // comparison judged both against one baseline entry).
  if (const auto [earlier, first_time] = context.recorded.emplace(std::string(name), value);
      !first_time) {
    throw std::invalid_argument(
        fmt::format("{}:{}: metric '{}' is recorded twice in this test (first {}, then {}); record "
                    "each metric once",
                    file, line, name, earlier->second, value));
  }
  if (context.seeded && std::holds_alternative<std::monostate>(policy)) policy = Margin{};
  MetricRecord metric;
  metric.name = name;
  metric.value = value;
  metric.direction = direction;
  metric.policy = policy;
  context.sink->emit(internal::MetricRecorded{std::move(metric)});
}

namespace {

// record_target's one path: a plain test's metric with a target, recorded once.
void record_target_metric(std::string_view name, double value, Target target, const char* file,
                          int line) {
  internal::TestContext& context = internal::require_context("record_target()");
  const auto refuse = [&](const std::string& problem) {
    throw std::invalid_argument(fmt::format("{}:{}: target '{}': {}", file, line, name, problem));
  };
  if (!std::isfinite(target.threshold)) {
    refuse(fmt::format("the threshold must be a finite number, not {}", target.threshold));
  }
  if (context.seeded && !context.attempt) {
    refuse("record_target applies to plain tests (ML_CAPABILITY_TEST, ML_TEST), not seeded ones");
  }
  if (const auto [earlier, first_time] = context.recorded.emplace(std::string(name), value);
      !first_time) {
    refuse(fmt::format("recorded twice in this test (first {}, then {}); record each metric once",
                       earlier->second, value));
  }
  MetricRecord metric;
  metric.name = name;
  metric.value = value;
  metric.direction = target.direction;
  metric.target = target;
  context.sink->emit(internal::MetricRecorded{std::move(metric)});
}

}  // namespace

void MlTest::record_target(std::string_view name, double value, Below target, const char* file,
                           int line) {
  record_target_metric(name, value, Target{Direction::LowerIsBetter, target.value}, file, line);
}

void MlTest::record_target(std::string_view name, double value, Above target, const char* file,
                           int line) {
  record_target_metric(name, value, Target{Direction::HigherIsBetter, target.value}, file, line);
}

void MlTest::record_breakdown(std::string_view metric, const Breakdown& breakdown, const char* file,
                              int line) {
  internal::TestContext& context = internal::require_context("record_breakdown()");
  const auto refuse = [&](const std::string& problem) {
    throw std::invalid_argument(
        fmt::format("{}:{}: breakdown of metric '{}': {}", file, line, metric, problem));
  };
  if (context.seeded && !context.attempt) {
    refuse(
        "record_breakdown applies to ML_TEST only (a seeded test's metric is a distribution "
        "across seeds)");
  }
  if (!context.recorded.contains(std::string(metric))) {
    refuse("record the metric first (record() before record_breakdown())");
  }
  for (const auto& [name, count] : breakdown.by_operator) {
    if (name.empty()) refuse("an operator without a name");
    if (count < 0) refuse(fmt::format("operator '{}' counts {}; counts are >= 0", name, count));
  }
  // Only a breakdown that is emitted counts as recorded: a refused one may be corrected.
  if (!context.broken_down.insert(std::string(metric)).second) {
    refuse("recorded twice in this test; record each breakdown once");
  }
  context.sink->emit(internal::BreakdownRecorded{std::string(metric), breakdown});
}

void MlTest::record_curve(std::string_view name, const std::vector<double>& values) {
  std::vector<std::int64_t> steps(values.size());
  for (std::size_t i = 0; i < steps.size(); ++i) steps[i] = static_cast<std::int64_t>(i);
  record_curve(name, steps, values);
}

void MlTest::record_curve(std::string_view name, const std::vector<std::int64_t>& steps,
                          const std::vector<double>& values) {
  internal::TestContext& context = internal::require_context("record_curve()");
  if (steps.size() != values.size()) {
    throw std::invalid_argument(
        fmt::format("curve '{}': {} steps but {} values", name, steps.size(), values.size()));
  }
  context.sink->emit(internal::CurveRecorded{CurveRecord{std::string(name), steps, values}});
}

void MlTest::record_predictions(std::string_view name, const std::vector<std::int64_t>& ids,
                                const std::vector<std::int64_t>& predicted,
                                const std::vector<std::int64_t>& target) {
  record_predictions(name, ids, predicted, target, ExampleAttributes{});
}

void MlTest::record_predictions(std::string_view name, const std::vector<std::int64_t>& ids,
                                const std::vector<std::int64_t>& predicted,
                                const std::vector<std::int64_t>& target,
                                const ExampleAttributes& attributes) {
  internal::TestContext& context = internal::require_context("record_predictions()");
  if (context.seeded) {
    throw std::invalid_argument(fmt::format(
        "predictions '{}': record_predictions applies to ML_TEST only (each seed of a seeded "
        "test evaluates another model)",
        name));
  }
  internal::Predictions predictions{ids, predicted, target};
  for (const auto& [attribute, values] : attributes) {
    predictions.attributes.push_back({attribute, values});
  }
  try {
    // Pairing the set with itself checks it: equal lengths, unique ids, classes >= 0; rendering
    // its file checks the attributes' names.
    (void)internal::compare_predictions(predictions, predictions, 0);
    if (!predictions.attributes.empty()) (void)internal::render_predictions_csv(predictions);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(fmt::format("predictions '{}': {}", name, error.what()));
  }
  context.sink->emit(internal::PredictionsRecorded{std::string(name), std::move(predictions)});
}

void MlTest::record_dataset(std::string_view name, const DatasetFingerprint& fingerprint) {
  internal::TestContext& context = internal::require_context("record_dataset()");
  context.sink->emit(
      internal::DatasetRecorded{std::string(name), fingerprint.sha256, fingerprint.bytes});
}

void MlTest::record_data_order(std::string_view name, const std::vector<std::int64_t>& indices) {
  internal::TestContext& context = internal::require_context("record_data_order()");
  DatasetHasher hasher;
  hasher.add(indices.data(), indices.size() * sizeof(std::int64_t));
  const DatasetFingerprint fingerprint = hasher.finish();
  context.sink->emit(internal::DatasetRecorded{std::string(name), fingerprint.sha256,
                                               fingerprint.bytes,
                                               internal::FingerprintKind::kDataOrder});
}

void MlTest::record_checkpoint(std::string_view name, const std::string& path) {
  internal::TestContext& context = internal::require_context("record_checkpoint()");
  const DatasetFingerprint fingerprint =
      internal::fingerprint_files_for(fmt::format("record_checkpoint '{}'", name), {path});
  context.sink->emit(internal::DatasetRecorded{std::string(name), fingerprint.sha256,
                                               fingerprint.bytes,
                                               internal::FingerprintKind::kCheckpoint});
}

void MlTest::record_held_out_evaluation(std::string_view name,
                                        const DatasetFingerprint& fingerprint) {
  const std::string_view sha = fingerprint.sha256;
  const bool hex = sha.size() == 7 + 64 && sha.starts_with("sha256:") &&
                   sha.find_first_not_of("0123456789abcdef", 7) == std::string_view::npos;
  if (name.empty() || !hex) {
    throw std::invalid_argument(fmt::format(
        "record_held_out_evaluation: {} (a non-empty name and a fingerprint \"sha256:<64 hex "
        "digits>\", as fingerprint_files gives)",
        name.empty() ? "the name is empty"
                     : fmt::format("'{}' has the fingerprint '{}'", name, sha)));
  }
  internal::TestContext& context = internal::require_context("record_held_out_evaluation()");
  context.sink->emit(internal::HeldOutEvaluated{std::string(name), fingerprint.sha256});
}

namespace {

// A property key: not empty, letters, digits, '_', '.' and '-' only, so that it reads the same in
// the report, the baseline file and a note.
bool is_property_key(std::string_view key) {
  // ASCII by hand: std::isalnum follows the process's locale.
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

}  // namespace

void MlTest::record_property(std::string_view key, std::string_view value) {
  if (!is_property_key(key)) {
    throw std::invalid_argument(fmt::format(
        "record_property: the key '{}' is not a property key (letters, digits, '_', '.' and '-', "
        "at least one)",
        key));
  }
  internal::TestContext& context = internal::require_context("record_property()");
  context.sink->emit(internal::PropertyRecorded{std::string(key), std::string(value)});
}

void MlTest::record_property(std::string_view key, double value) {
  record_property(key, std::string_view(fmt::format("{}", value)));
}

void MlTest::record_batch(std::string_view name, const BatchView& view) {
  if (!is_property_key(name)) {
    throw std::invalid_argument(fmt::format(
        "record_batch: the name '{}' is not a batch name (letters, digits, '_', '.' and '-', at "
        "least one)",
        name));
  }
  if (const std::string problem = batch_view_problem(view); !problem.empty()) {
    throw std::invalid_argument(fmt::format("record_batch '{}': {}", name, problem));
  }
  internal::TestContext& context = internal::require_context("record_batch()");
  context.sink->emit(internal::BatchRecorded{std::string(name), view});
}

void MlTest::constrain(std::string_view text, const char* file, int line) {
  const internal::ParsedConstraint parsed = internal::parse_constraint(text);
  if (!parsed.constraint)
    throw std::invalid_argument(fmt::format("{}:{}: constrain: {}", file, line, parsed.error));
  internal::TestContext& context = internal::require_context("constrain()");
  context.sink->emit(internal::ConstraintDeclared{parsed.constraint->text});
}

void MlTest::record_gated_curve(std::string_view name, const std::vector<std::int64_t>& steps,
                                const std::vector<double>& values, const CurvePolicy& policy) {
  internal::TestContext& context = internal::require_context("record_curve()");
  if (context.seeded) {
    throw std::invalid_argument(fmt::format(
        "curve '{}': a CurvePolicy applies to ML_TEST only (each seed has a curve of its own)",
        name));
  }
  if (!(finite_non_negative(policy.rtol) && finite_non_negative(policy.atol)) ||
      policy.smoothing < 1 || policy.consecutive < 1) {
    throw std::invalid_argument(
        fmt::format("curve '{}': the policy cannot gate (rtol={}, atol={} must be finite and >= 0; "
                    "smoothing={}, consecutive={} must be >= 1)",
                    name, policy.rtol, policy.atol, policy.smoothing, policy.consecutive));
  }
  if (steps.size() != values.size()) {
    throw std::invalid_argument(
        fmt::format("curve '{}': {} steps but {} values", name, steps.size(), values.size()));
  }
  context.sink->emit(
      internal::CurveRecorded{CurveRecord{std::string(name), steps, values, policy}});
}

std::uint64_t MlTest::seed() { return internal::require_context("seed()").seed; }

namespace {

// SplitMix64's finaliser over the base offset by the stream: unrelated seeds per stream, the same
// on every machine, below 2^63 so that they read back from a TOML integer.
std::uint64_t stream_seed(std::uint64_t base, SeedStream stream) {
  std::uint64_t z = base + (static_cast<std::uint64_t>(stream) + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (z ^ (z >> 31)) >> 1;
}

}  // namespace

std::uint64_t MlTest::seed(SeedStream stream) {
  const internal::TestContext& context = internal::require_context("seed(SeedStream)");
  const bool held =
      std::find(context.held.begin(), context.held.end(), stream) != context.held.end();
  return stream_seed(held ? context.first_seed : context.seed, stream);
}
int MlTest::threads() { return internal::require_context("threads()").threads; }
std::string MlTest::variant() { return internal::require_context("variant()").variant; }

DeterminismMode MlTest::determinism() {
  return internal::require_context("determinism()").determinism;
}

std::string MlTest::search_method() { return internal::require_context("search_method()").method; }

}  // namespace mlregress
