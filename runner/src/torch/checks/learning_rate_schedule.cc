#include "mlregress/checks/learning_rate_schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "mlregress/ml_test.h"

namespace mlregress::checks {

namespace {

using Decay = ScheduleSpec::Decay;

void validate(const std::vector<double>& rates, const ScheduleSpec& spec) {
  if (!(spec.peak > 0.0) || !(spec.floor <= spec.peak) || spec.warmup_steps < 0 ||
      spec.total_steps < 1 || spec.warmup_steps > spec.total_steps || !(spec.rtol >= 0.0) ||
      !(spec.floor_tolerance >= 0.0)) {
    throw std::invalid_argument(fmt::format(
        "check_schedule: a spec needs peak > 0, floor <= peak, 0 <= warmup_steps <= total_steps, "
        "total_steps >= 1 and tolerances >= 0; got peak {:g}, floor {:g}, warmup_steps {}, "
        "total_steps {}",
        spec.peak, spec.floor, spec.warmup_steps, spec.total_steps));
  }
  if (static_cast<std::int64_t>(rates.size()) != spec.total_steps) {
    throw std::invalid_argument(
        fmt::format("check_schedule: {} rates for a schedule of total_steps = {}; give the rate "
                    "of every step",
                    rates.size(), spec.total_steps));
  }
}

// The warmup rises at every step up to the declared peak (or the earlier one it reached).
void judge_warmup(ScheduleCheck& c, double tol) {
  // Never past the last rate, whatever the spec declares.
  const std::int64_t end =
      std::min({c.expected_peak_step, c.peak_step.value_or(c.expected_peak_step),
                static_cast<std::int64_t>(c.rates.size()) - 1});
  for (std::int64_t s = 1; s <= end; ++s) {
    const auto i = static_cast<std::size_t>(s);
    if (!(c.rates[i] > c.rates[i - 1] + tol)) {
      c.problems.push_back(fmt::format(
          "the warmup does not rise at step {} ({:.6g} → {:.6g}): a scheduler stepped less often "
          "than once per update?",
          s, c.rates[i - 1], c.rates[i]));
      return;
    }
  }
}

// After the peak (and any steps held at it), the decay the spec declares.
void judge_decay(ScheduleCheck& c, double tol) {
  const ScheduleSpec& spec = c.spec;
  auto s = static_cast<std::size_t>(c.peak_step.value_or(c.max_rate_step));
  if (spec.decay == Decay::Constant) {
    for (; s < c.rates.size(); ++s) {
      if (std::fabs(c.rates[s] - spec.peak) > tol) {
        c.problems.push_back(
            fmt::format("the rate leaves the constant peak {:.6g} at step {} ({:.6g})", spec.peak,
                        s, c.rates[s]));
        return;
      }
    }
    return;
  }
  while (s + 1 < c.rates.size() && std::fabs(c.rates[s + 1] - spec.peak) <= tol) ++s;  // held
  const bool strict = spec.decay == Decay::Cosine || spec.decay == Decay::Linear;
  for (++s; s < c.rates.size(); ++s) {
    const double before = c.rates[s - 1];
    const double now = c.rates[s];
    if (now > before + tol) {
      c.problems.push_back(
          fmt::format("the rate rises again at step {} ({:.6g} → {:.6g})", s, before, now));
      return;
    }
    if (strict && !(now < before)) {
      c.problems.push_back(fmt::format(
          "the rate stops falling at step {} ({:.6g} → {:.6g}), declared a {} decay to {:.6g} at "
          "step {}: the schedule counts more steps than updates?",
          s, before, now, decay_name(spec.decay), spec.floor, spec.total_steps - 1));
      return;
    }
  }
}

void judge_peak(ScheduleCheck& c, double tol) {
  const ScheduleSpec& spec = c.spec;
  if (c.max_rate > spec.peak + tol) {
    c.problems.push_back(fmt::format("the rate exceeds the peak {:.6g}: {:.6g} at step {}",
                                     spec.peak, c.max_rate, c.max_rate_step));
  }
  if (!c.peak_step) {
    c.problems.push_back(fmt::format(
        "the rate never reaches the peak {:.6g} (highest {:.6g} at step {}), declared at step {}",
        spec.peak, c.max_rate, c.max_rate_step, c.expected_peak_step));
  } else if (*c.peak_step != c.expected_peak_step) {
    c.problems.push_back(fmt::format(
        "the rate reaches the peak at step {}, declared at step {} (warmup_steps {}){}",
        *c.peak_step, c.expected_peak_step, spec.warmup_steps,
        *c.peak_step < c.expected_peak_step ? ": the warmup is lost or too short" : ""));
  }
}

void judge_floor(ScheduleCheck& c, double tol) {
  const ScheduleSpec& spec = c.spec;
  if (spec.decay == Decay::Constant) return;
  const double allowed = spec.floor_tolerance * (spec.peak - spec.floor) + tol;
  const auto from = static_cast<std::size_t>(c.peak_step.value_or(c.max_rate_step));
  for (std::size_t s = from; s < c.rates.size(); ++s) {
    if (std::fabs(c.rates[s] - spec.floor) <= allowed) {
      c.floor_step = static_cast<std::int64_t>(s);
      break;
    }
  }
  if (!(std::fabs(c.final_rate - spec.floor) <= allowed)) {
    c.problems.push_back(
        fmt::format("the last step ({}) runs at {:.6g}, declared floor {:.6g} (allowed ± {:.3g})",
                    spec.total_steps - 1, c.final_rate, spec.floor, allowed));
  }
}

}  // namespace

std::string_view decay_name(ScheduleSpec::Decay decay) {
  switch (decay) {
    case Decay::Cosine:
      return "cosine";
    case Decay::Linear:
      return "linear";
    case Decay::Constant:
      return "constant";
    case Decay::Step:
      return "step";
  }
  return "unknown";
}

ScheduleCheck check_schedule(const std::vector<double>& rate_per_step, const ScheduleSpec& spec) {
  validate(rate_per_step, spec);
  ScheduleCheck c;
  c.rates = rate_per_step;
  c.spec = spec;
  c.expected_peak_step = std::max<std::int64_t>(spec.warmup_steps - 1, 0);
  c.final_rate = rate_per_step.back();
  const double tol = spec.rtol * spec.peak;
  for (std::size_t s = 0; s < rate_per_step.size(); ++s) {
    const double rate = rate_per_step[s];
    if (!std::isfinite(rate)) {
      c.problems.push_back(fmt::format("the rate at step {} is {}", s, rate));
      return c;
    }
    if (rate > c.max_rate || s == 0) {
      c.max_rate = rate;
      c.max_rate_step = static_cast<std::int64_t>(s);
    }
    if (!c.peak_step && std::fabs(rate - spec.peak) <= tol)
      c.peak_step = static_cast<std::int64_t>(s);
  }
  judge_peak(c, tol);
  judge_warmup(c, tol);
  judge_decay(c, tol);
  judge_floor(c, tol);
  c.passed = c.problems.empty();
  return c;
}

::testing::AssertionResult ScheduleCheck::assertion() const {
  const std::string what = fmt::format(
      "{} steps, peak {:.6g} declared at step {} (warmup_steps {}), {} decay to {:.6g} at step {}",
      rates.size(), spec.peak, expected_peak_step, spec.warmup_steps, decay_name(spec.decay),
      spec.floor, spec.total_steps - 1);
  if (passed) return ::testing::AssertionSuccess() << "the schedule does what it says: " << what;
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << "the schedule does not do what it says (" << what << ")";
  for (const std::string& problem : problems) failure << "\n  " << problem;
  return failure;
}

double learning_rate_of(const torch::optim::Optimizer& optimizer, std::size_t group) {
  const auto& groups = optimizer.param_groups();
  if (group >= groups.size()) {
    throw std::out_of_range(fmt::format("learning_rate_of: param group {} of an optimizer with {}",
                                        group, groups.size()));
  }
  return groups[group].options().get_lr();
}

void record_schedule(std::string_view name, const ScheduleCheck& check) {
  const auto step = [](const std::optional<std::int64_t>& s) {
    return static_cast<double>(s.value_or(-1));
  };
  MlTest::record(fmt::format("{}.lr_peak_step", name), step(check.peak_step), Direction::MustEqual,
                 Exact{.scope = Scope::Portable});
  MlTest::record(fmt::format("{}.lr_floor_step", name), step(check.floor_step),
                 Direction::MustEqual, Exact{.scope = Scope::Portable});
  MlTest::record_curve(fmt::format("{}.learning_rate", name), check.rates);
}

}  // namespace mlregress::checks
