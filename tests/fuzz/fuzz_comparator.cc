// libFuzzer target: compare_metric() and the invariants the design promises for single values.
//
// The bytes decide the observed value, both directions, the baseline entry (portable value and/or
// per-environment values), the tolerance policy and the run's profile. Values are drawn both as
// raw IEEE bit patterns (NaN payloads, infinities, subnormals, huge values) and as "interesting"
// points around the baseline (exactly on it, on the band edge, one ulp past it, far beyond it).
// Tolerances are restricted to what parse_baseline() accepts (finite and >= 0): a BaselineMetric
// only ever comes from a parsed file or a promotion.
//
// Invariants (abort() on violation):
//   1. no baseline entry                          -> NEW
//   2. no value for this run (portable or profile) -> UNGATED (NOT_COMPARABLE for a single value
//                                                    against stored per-seed samples)
//   3. non-finite observed                        -> never PASS or IMPROVED (REGRESSION when a
//                                                    baseline value exists, per comparator.h)
//   4. finite baseline, observed == baseline      -> PASS (every policy; Band as the brief names)
//   5. lower_is_better, observed far above baseline + band   -> REGRESSION
//      higher_is_better, observed far below baseline - band  -> REGRESSION
//      must_equal, observed far from baseline either way     -> REGRESSION
//   6. both finite -> delta == observed - baseline, baseline reported as used
//   7. must_equal is never IMPROVED
// "Far" means beyond twice the band plus 1e-300, computed in long double, so rounding in the
// comparator's own double arithmetic cannot produce a false alarm.
//
// Built by ci/fuzz.sh.
#include <fuzzer/FuzzedDataProvider.h>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <variant>

#include "comparison/comparator.h"

namespace {

using mlregress::Band;
using mlregress::Direction;
using mlregress::direction_name;
using mlregress::Exact;
using mlregress::TolerancePolicy;
using mlregress::internal::BaselineMetric;
using mlregress::internal::compare_metric;
using mlregress::internal::kDefaultBand;
using mlregress::internal::MetricComparison;
using mlregress::internal::Verdict;
using mlregress::internal::verdict_name;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Direction pick_direction(FuzzedDataProvider& in) {
  constexpr Direction kAll[] = {Direction::LowerIsBetter, Direction::HigherIsBetter,
                                Direction::MustEqual};
  return in.PickValueInArray(kAll);
}

// Any double, NaN and infinities included.
double raw_double(FuzzedDataProvider& in) {
  return std::bit_cast<double>(in.ConsumeIntegral<std::uint64_t>());
}

double any_value(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 9)) {
    case 0:
      return 0.0;
    case 1:
      return -0.0;
    case 2:
      return kNaN;
    case 3:
      return kInf;
    case 4:
      return -kInf;
    case 5:
      return in.ConsumeFloatingPointInRange<double>(-10.0, 10.0);
    case 6:
      return std::numeric_limits<double>::denorm_min() * in.ConsumeIntegralInRange<int>(-4, 4);
    case 7:
      return std::numeric_limits<double>::max() * (in.ConsumeBool() ? 1 : -1);
    default:
      return raw_double(in);
  }
}

// A tolerance parse_baseline() would accept: finite and >= 0.
double tolerance(FuzzedDataProvider& in) {
  constexpr double kCommon[] = {0.0, 1e-12, 1e-6, 1e-3, 0.01, 0.05, 0.5, 1.0, 10.0, 1e300};
  if (in.ConsumeBool()) return in.PickValueInArray(kCommon);
  const double d = std::fabs(raw_double(in));
  return std::isfinite(d) ? d : 0.0;
}

// The band the design specifies, in long double, from the policy the baseline states.
long double expected_allowed(const BaselineMetric& m, double base) {
  TolerancePolicy policy = m.policy;
  if (std::holds_alternative<std::monostate>(policy)) {
    policy = m.direction == Direction::MustEqual ? TolerancePolicy{Exact{}}
                                                 : TolerancePolicy{kDefaultBand};
  }
  if (const Band* band = std::get_if<Band>(&policy)) {
    return static_cast<long double>(band->atol) +
           static_cast<long double>(band->rtol) * std::fabs(static_cast<long double>(base));
  }
  return 0.0L;
}

struct Case {
  std::string name;
  double observed = 0.0;
  Direction observed_direction = Direction::LowerIsBetter;
  std::optional<BaselineMetric> baseline;
  std::string profile;
};

[[noreturn]] void violation(const char* invariant, const Case& k, const MetricComparison& c) {
  std::fprintf(stderr, "\n=== fuzz_comparator invariant violated: %s\n", invariant);
  std::fprintf(stderr, "observed=%a (%.17g) observed_direction=%s profile=%s\n", k.observed,
               k.observed, std::string(direction_name(k.observed_direction)).c_str(),
               k.profile.c_str());
  if (k.baseline) {
    const BaselineMetric& m = *k.baseline;
    std::fprintf(stderr,
                 "baseline direction=%s policy=", std::string(direction_name(m.direction)).c_str());
    if (const Band* b = std::get_if<Band>(&m.policy)) {
      std::fprintf(stderr, "band rtol=%a (%.17g) atol=%a (%.17g)\n", b->rtol, b->rtol, b->atol,
                   b->atol);
    } else if (std::holds_alternative<Exact>(m.policy)) {
      std::fprintf(stderr, "exact\n");
    } else {
      std::fprintf(stderr, "default\n");
    }
    if (m.value) std::fprintf(stderr, "baseline value=%a (%.17g)\n", *m.value, *m.value);
    for (const auto& [env, v] : m.by_environment)
      std::fprintf(stderr, "baseline values[%s]=%a (%.17g)\n", env.c_str(), v, v);
  } else {
    std::fprintf(stderr, "baseline: none\n");
  }
  std::fprintf(stderr, "-> verdict=%.*s tolerance='%s' note='%s'",
               static_cast<int>(verdict_name(c.verdict).size()), verdict_name(c.verdict).data(),
               c.tolerance.c_str(), c.note.c_str());
  if (c.delta) std::fprintf(stderr, " delta=%a", *c.delta);
  if (c.baseline) std::fprintf(stderr, " baseline=%a", *c.baseline);
  std::fprintf(stderr, "\n");
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Case k;
  k.name = "metric";
  k.profile = in.ConsumeBool() ? "cpu-aaaa" : "cpu-bbbb";
  k.observed_direction = pick_direction(in);

  const bool has_baseline = in.ConsumeIntegralInRange<int>(0, 15) != 0;
  if (has_baseline) {
    BaselineMetric m;
    m.direction =
        in.ConsumeIntegralInRange<int>(0, 3) == 0 ? pick_direction(in) : k.observed_direction;
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
        m.policy = std::monostate{};
        break;
      case 1:
        m.policy = Exact{};
        break;
      default:
        m.policy = Band{.rtol = tolerance(in), .atol = tolerance(in)};
        break;
    }
    const int where = in.ConsumeIntegralInRange<int>(0, 5);
    if (where != 1 && where != 5) m.value = any_value(in);  // portable value
    if (where == 1 || where == 2)
      m.by_environment[k.profile] = any_value(in);  // this run's profile
    if (where == 3 || where == 5)
      m.by_environment["cpu-other"] = any_value(in);  // another profile only
    k.baseline = m;
  }

  // The baseline value the comparator should use.
  std::optional<double> base;
  if (k.baseline) {
    base = k.baseline->value;
    if (auto it = k.baseline->by_environment.find(k.profile);
        it != k.baseline->by_environment.end())
      base = it->second;
  }

  // Observed: raw, or a point placed relative to the baseline and its band.
  if (base && std::isfinite(*base) && in.ConsumeBool()) {
    const double b = *base;
    const long double allowed = expected_allowed(*k.baseline, b);
    const double a = static_cast<double>(allowed);
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
      case 0:
        k.observed = b;
        break;
      case 1:
        k.observed = b + a;
        break;
      case 2:
        k.observed = b - a;
        break;
      case 3:
        k.observed = std::nextafter(b + a, kInf);
        break;
      case 4:
        k.observed = std::nextafter(b - a, -kInf);
        break;
      case 5:
        k.observed = b + (2.5 * a +
                          std::fabs(b) * in.ConsumeFloatingPointInRange<double>(0.0, 4.0) + 1e-300);
        break;
      case 6:
        k.observed = b - (2.5 * a +
                          std::fabs(b) * in.ConsumeFloatingPointInRange<double>(0.0, 4.0) + 1e-300);
        break;
      default:
        k.observed = any_value(in);
        break;
    }
  } else {
    k.observed = any_value(in);
  }

  const BaselineMetric* baseline_ptr = k.baseline ? &*k.baseline : nullptr;
  const MetricComparison c =
      compare_metric(k.name, k.observed, k.observed_direction, baseline_ptr,
                     EnvironmentProfile{.id = k.profile, .numerics_id = k.profile});

  if (c.metric != k.name) violation("metric name not carried through", k, c);
  // NaN never compares equal, so compare bits.
  if (std::bit_cast<std::uint64_t>(c.observed) != std::bit_cast<std::uint64_t>(k.observed)) {
    violation("observed value not carried through", k, c);
  }

  // 3. NaN/Inf is never a PASS (nor an IMPROVED), whatever else holds.
  if (!std::isfinite(k.observed) &&
      (c.verdict == Verdict::kPass || c.verdict == Verdict::kImproved)) {
    violation("non-finite observed value judged PASS/IMPROVED", k, c);
  }
  // 1. No baseline entry.
  if (!k.baseline) {
    if (c.verdict != Verdict::kNew) violation("no baseline entry but verdict is not NEW", k, c);
    return 0;
  }
  // 2. An entry, but no value for this run.
  if (!base) {
    if (c.verdict != Verdict::kUngated)
      violation("no value for this profile but not UNGATED", k, c);
    return 0;
  }
  if (c.verdict == Verdict::kNew || c.verdict == Verdict::kNotComparable ||
      c.verdict == Verdict::kUngated) {
    violation("baseline value available but verdict is NEW/NOT_COMPARABLE/UNGATED", k, c);
  }
  if (!std::isfinite(k.observed)) {
    if (c.verdict != Verdict::kRegression)
      violation("non-finite observed with a baseline is not REGRESSION", k, c);
    return 0;
  }
  if (!std::isfinite(*base)) return 0;  // INCONCLUSIVE by design; nothing more to check

  // Both finite from here on.
  const BaselineMetric& m = *k.baseline;
  if (c.verdict == Verdict::kInconclusive) violation("both values finite but INCONCLUSIVE", k, c);
  // 6. delta and the baseline used.
  if (!c.baseline ||
      std::bit_cast<std::uint64_t>(*c.baseline) != std::bit_cast<std::uint64_t>(*base)) {
    violation("reported baseline is not the one that applies", k, c);
  }
  if (!c.delta || *c.delta != k.observed - *base) violation("delta != observed - baseline", k, c);
  // 4. Equal to the baseline passes.
  if (k.observed == *base && c.verdict != Verdict::kPass)
    violation("observed == baseline but not PASS", k, c);
  // 7. must_equal cannot improve.
  if (m.direction == Direction::MustEqual && c.verdict == Verdict::kImproved)
    violation("must_equal judged IMPROVED", k, c);

  // 5. Far beyond the band in the bad direction regresses.
  const long double allowed = expected_allowed(m, *base);
  const long double d = static_cast<long double>(k.observed) - static_cast<long double>(*base);
  const long double far = 2.0L * allowed + 1e-300L;
  const bool far_above = d > far;
  const bool far_below = -d > far;
  if (m.direction == Direction::LowerIsBetter && far_above && c.verdict != Verdict::kRegression) {
    violation("lower_is_better observed far above baseline + band but not REGRESSION", k, c);
  }
  if (m.direction == Direction::HigherIsBetter && far_below && c.verdict != Verdict::kRegression) {
    violation("higher_is_better observed far below baseline - band but not REGRESSION", k, c);
  }
  if (m.direction == Direction::MustEqual && (far_above || far_below) &&
      c.verdict != Verdict::kRegression) {
    violation("must_equal observed far from baseline but not REGRESSION", k, c);
  }
  // ... and far beyond it in the good direction improves.
  if (m.direction == Direction::LowerIsBetter && far_below && c.verdict != Verdict::kImproved) {
    violation("lower_is_better observed far below baseline - band but not IMPROVED", k, c);
  }
  if (m.direction == Direction::HigherIsBetter && far_above && c.verdict != Verdict::kImproved) {
    violation("higher_is_better observed far above baseline + band but not IMPROVED", k, c);
  }
  return 0;
}
