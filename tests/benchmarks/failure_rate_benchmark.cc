// The failure-rate gate simulated: sequences of attempts that fail independently at rate p, fed
// look by look to decide_at_look, for the design of 2% -> 20% at alpha 0.01 with power goal 0.9
// and a cap of 60 attempts. Prints first the one line the target is checked on
//   false_alarm=X power=Y median_runs=Z p90_runs=W
// (block 1: false_alarm over sequences at p = 0.02, the rest over sequences at p = 0.2), then
//   - per block (1, 2, 4) and p (0.02, 0.05, 0.1, 0.2): the share of REGRESSION (Clopper–Pearson
//     95% interval), PASS and INCONCLUSIVE, the attempts taken (median, p90, mean), each with the
//     exact figure from the dynamic programme beside it;
//   - p0 estimated from a baseline of n_b attempts drawn at the true rate (a fresh baseline per
//     sequence) by the Jeffreys mean (reference_failure_rate) and by upper quantiles of the
//     Jeffreys posterior (conservative_reference_failure_rate): false alarms and power, simulated
//     and exact (the exact figures averaged over the baseline's binomial distribution);
//   - the fixed-n exact binomial design (n, critical count, size, power; simulated too) beside
//     the sequential designs' expected and median attempts.
// Deterministic: every row draws from its own std::mt19937_64 with a fixed seed, a failure being
// a raw 64-bit draw below p · 2^64 (no distribution object whose output a standard library may
// choose). The design's computing time goes to stderr.
//   build/tests/benchmarks/failure_rate_benchmark [SEQUENCES=20000]
#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "statistics/failure_rate_design.h"

namespace {

using namespace mlregress::internal::stats;

constexpr double kP0 = 0.02, kP1 = 0.2, kAlpha = 0.01, kPowerGoal = 0.9;
constexpr int kCap = 60;
constexpr std::uint64_t kSeed = 20260611;

// One Bernoulli(p) draw per call, from the raw generator.
class Attempts {
 public:
  explicit Attempts(std::uint64_t seed) : rng_(seed) {}
  bool fails(double p) {
    if (p >= 1.0) return true;
    return rng_() < static_cast<std::uint64_t>(std::ldexp(p, 64));
  }
  int failures(int n, double p) {
    int f = 0;
    for (int i = 0; i < n; ++i) f += fails(p);
    return f;
  }

 private:
  std::mt19937_64 rng_;
};

struct Sequence {
  RateDecision decision = RateDecision::kContinue;
  int trials = 0;
};

Sequence run_sequence(const FailureRateDesign& design, double p, Attempts& attempts) {
  int failures = 0, trials = 0;
  for (std::size_t k = 0; k < design.looks.size(); ++k) {
    for (; trials < design.looks[k]; ++trials) failures += attempts.fails(p);
    const RateDecision d = decide_at_look(design, k, failures);
    if (d != RateDecision::kContinue) return {d, trials};
  }
  return {RateDecision::kInconclusive, trials};  // not reached: the last look decides
}

// Outcomes of many sequences.
struct Tally {
  int sequences = 0, regression = 0, pass = 0, inconclusive = 0;
  std::vector<int> trials;

  void add(const Sequence& s) {
    ++sequences;
    regression += s.decision == RateDecision::kRegression;
    pass += s.decision == RateDecision::kPass;
    inconclusive += s.decision == RateDecision::kInconclusive;
    trials.push_back(s.trials);
  }
  double share(int count) const { return static_cast<double>(count) / sequences; }
  // The smallest n with a share >= q of the sequences stopped by n (the exact figures' rule).
  int quantile(double q) {
    std::sort(trials.begin(), trials.end());
    const auto index = static_cast<std::size_t>(std::ceil(q * trials.size())) - 1;
    return trials[std::min(index, trials.size() - 1)];
  }
  double mean() const {
    double sum = 0;
    for (const int t : trials) sum += t;
    return sum / trials.size();
  }
};

std::string rate_with_interval(int count, int n) {
  const RateInterval ci = clopper_pearson(count, n, 0.95);
  return fmt::format("{:.4f} [{:.4f}, {:.4f}]", static_cast<double>(count) / n, ci.lower, ci.upper);
}

// A rule turning a baseline's count into p0.
struct BaselineRule {
  std::string name;
  double confidence = 0;  // 0: the Jeffreys mean
  double p0(int failures, int trials) const {
    return confidence == 0 ? reference_failure_rate(failures, trials)
                           : conservative_reference_failure_rate(failures, trials, confidence);
  }
};

// Designs for estimated p0, one per baseline count.
class DesignCache {
 public:
  explicit DesignCache(const std::vector<int>& looks) : looks_(looks) {}
  // nullptr when the estimate is not below p1: no design can detect p1 against it.
  const FailureRateDesign* get(double p0) {
    if (!(p0 < kP1)) return nullptr;
    auto it = designs_.find(p0);
    if (it == designs_.end()) {
      it =
          designs_.emplace(p0, design_failure_rate_test(p0, kP1, kAlpha, kPowerGoal, looks_)).first;
    }
    return &it->second;
  }

 private:
  std::vector<int> looks_;
  std::map<double, FailureRateDesign> designs_;
};

}  // namespace

int main(int argc, char** argv) {
  int sequences = 20'000;
  if (argc > 2 || (argc == 2 && (sequences = std::atoi(argv[1])) < 1)) {
    fmt::print(stderr, "usage: failure_rate_benchmark [SEQUENCES=20000]\n");
    return 64;
  }

  std::map<int, FailureRateDesign> designs;
  for (const int block : {1, 2, 4}) {
    const auto start = std::chrono::steady_clock::now();
    designs[block] =
        design_failure_rate_test(kP0, kP1, kAlpha, kPowerGoal, failure_rate_looks(block, kCap));
    fmt::print(stderr, "design, block {}, cap {}: {:.2f} ms\n", block, kCap,
               std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                   .count());
  }
  for (const int cap : {300, 500}) {
    const auto start = std::chrono::steady_clock::now();
    design_failure_rate_test(kP0, kP1, kAlpha, kPowerGoal, failure_rate_looks(1, cap));
    fmt::print(stderr, "design, block 1, cap {}: {:.2f} ms\n", cap,
               std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                   .count());
  }

  // Row seeds: kSeed + a row number, so that a row's figures do not depend on the rows before.
  std::uint64_t row = 0;
  const auto simulate = [&](const FailureRateDesign& design, double p) {
    Attempts attempts(kSeed + row++);
    Tally tally;
    for (int s = 0; s < sequences; ++s) tally.add(run_sequence(design, p, attempts));
    return tally;
  };

  // The headline, block 1.
  {
    Tally null = simulate(designs[1], kP0);
    Tally alternative = simulate(designs[1], kP1);
    fmt::print("false_alarm={:.4f} power={:.4f} median_runs={} p90_runs={}\n",
               null.share(null.regression), alternative.share(alternative.regression),
               alternative.quantile(0.5), alternative.quantile(0.9));
  }

  fmt::print(
      "\nFailure-rate gate, p0 = {} -> p1 = {}, alpha {}, power goal {}, cap {} attempts; {} "
      "simulated sequences per row (seed {}), exact figures (dynamic programme) after the "
      "slash\n",
      kP0, kP1, kAlpha, kPowerGoal, kCap, sequences, kSeed);
  for (const auto& [block, d] : designs) {
    fmt::print(
        "block {}: exact size {:.5f}, power {:.4f}; LLR thresholds {:.3f} (REGRESSION), {:.3f} "
        "(PASS); expected attempts {:.2f} at p0, {:.2f} at p1\n",
        block, d.size, d.power, d.upper_llr, d.lower_llr, d.expected_trials_p0,
        d.expected_trials_p1);
  }
  fmt::print("\n{:>5} {:>5}  {:<40} {:<15} {:<15} {:>7} {:>7} {:>11}\n", "block", "p",
             "P(REGRESSION) sim [95% CP] / exact", "P(PASS)", "P(INCONCL.)", "median", "p90",
             "mean");
  for (const auto& [block, design] : designs) {
    for (const double p : {0.02, 0.05, 0.1, 0.2}) {
      Tally t = simulate(design, p);
      const OperatingCharacteristics oc = operating_characteristics(design, p);
      fmt::print("{:>5} {:>5}  {:<40} {:<15} {:<15} {:>7} {:>7} {:>11}{}\n", block, p,
                 fmt::format("{} / {:.4f}", rate_with_interval(t.regression, t.sequences),
                             oc.p_regression),
                 fmt::format("{:.4f}/{:.4f}", t.share(t.pass), oc.p_pass),
                 fmt::format("{:.4f}/{:.4f}", t.share(t.inconclusive), oc.p_inconclusive),
                 fmt::format("{}/{}", t.quantile(0.5), oc.median_trials),
                 fmt::format("{}/{}", t.quantile(0.9), oc.p90_trials),
                 fmt::format("{:.2f}/{:.2f}", t.mean(), oc.expected_trials),
                 p == kP0 ? "  (A/A)" : "");
    }
  }

  // p0 estimated from a baseline: a fresh baseline of n_b attempts per sequence, drawn at the
  // true rate; the design is made for the estimate (p1 stays 0.2), the candidate fails at the
  // true rate (false alarm) or at p1 (power).
  const std::vector<BaselineRule> rules = {
      {"Jeffreys mean", 0.0}, {"Jeffreys upper 0.80", 0.80}, {"Jeffreys upper 0.90", 0.90}};
  DesignCache cache(failure_rate_looks(1, kCap));
  fmt::print(
      "\np0 estimated from a baseline of n_b attempts at the true rate (a fresh baseline per "
      "sequence; block 1, cap {}, p1 = {}); exact figures averaged over the baseline's count\n",
      kCap, kP1);
  fmt::print("{:<20} {:>5} {:>5}  {:<40} {:<40} {:>12}\n", "p0 rule", "true", "n_b",
             "false alarm sim [95% CP] / exact", "power sim [95% CP] / exact", "median at p1");
  for (const double truth : {0.02, 0.05}) {
    for (const BaselineRule& rule : rules) {
      for (const int n_b : {50, 100, 200}) {
        Attempts attempts(kSeed + row++);
        Tally null, alternative;
        for (int s = 0; s < sequences; ++s) {
          for (Tally* tally : {&null, &alternative}) {
            const FailureRateDesign* design =
                cache.get(rule.p0(attempts.failures(n_b, truth), n_b));
            // No design (the baseline is already at p1): nothing to detect, counted as PASS.
            tally->add(design ? run_sequence(*design, tally == &null ? truth : kP1, attempts)
                              : Sequence{RateDecision::kPass, 0});
          }
        }
        double exact_null = 0, exact_power = 0;
        const boost::math::binomial_distribution<> baseline(n_b, truth);
        for (int f = 0; f <= n_b; ++f) {
          const double weight = boost::math::pdf(baseline, f);
          if (weight < 1e-15) continue;
          if (const FailureRateDesign* design = cache.get(rule.p0(f, n_b))) {
            exact_null += weight * operating_characteristics(*design, truth).p_regression;
            exact_power += weight * operating_characteristics(*design, kP1).p_regression;
          }
        }
        fmt::print(
            "{:<20} {:>5} {:>5}  {:<40} {:<40} {:>12}\n", rule.name, truth, n_b,
            fmt::format("{} / {:.4f}", rate_with_interval(null.regression, sequences), exact_null),
            fmt::format("{} / {:.4f}", rate_with_interval(alternative.regression, sequences),
                        exact_power),
            alternative.quantile(0.5));
      }
    }
  }

  // The fixed-n cross-check.
  const FixedSampleDesign fixed = fixed_sample_binomial_design(kP0, kP1, kAlpha, kPowerGoal);
  Attempts attempts(kSeed + row++);
  int null_rejections = 0, rejections = 0;
  for (int s = 0; s < sequences; ++s) {
    null_rejections += attempts.failures(fixed.trials, kP0) >= fixed.reject_from;
    rejections += attempts.failures(fixed.trials, kP1) >= fixed.reject_from;
  }
  fmt::print(
      "\nfixed-n exact binomial design: n = {}, REGRESSION at >= {} failures; size {:.5f} "
      "(simulated {}), power {:.4f} (simulated {})\n",
      fixed.trials, fixed.reject_from, fixed.size, rate_with_interval(null_rejections, sequences),
      fixed.power, rate_with_interval(rejections, sequences));
  fmt::print("{:<12} {:>9} {:>8} {:>15} {:>15} {:>10} {:>10}\n", "design", "size", "power",
             "E[attempts] p0", "E[attempts] p1", "median p0", "median p1");
  fmt::print("{:<12} {:>9.5f} {:>8.4f} {:>15} {:>15} {:>10} {:>10}\n", "fixed n", fixed.size,
             fixed.power, fixed.trials, fixed.trials, fixed.trials, fixed.trials);
  for (const auto& [block, d] : designs) {
    fmt::print("{:<12} {:>9.5f} {:>8.4f} {:>15.2f} {:>15.2f} {:>10} {:>10}\n",
               fmt::format("block {}", block), d.size, d.power, d.expected_trials_p0,
               d.expected_trials_p1, d.median_trials_p0, d.median_trials_p1);
  }
  return 0;
}
