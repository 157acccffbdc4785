#include "mlregress/checks/learning_rate_range_test.h"

#include <c10/util/Exception.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace mlregress::checks {

namespace {

constexpr std::size_t kTableRows = 25;  // rows of the curve a table shows besides marked ones

// The bias-corrected EMA of the loss and the divergence rule, one step at a time: the run and
// the judge of a recorded curve stop at the same step.
class DivergenceTracker {
 public:
  explicit DivergenceTracker(const RangeTestOptions& options) : options_(options) {}

  // Adds one raw loss; returns its smoothed value (NaN for a non-finite loss).
  double add(double loss) {
    if (!std::isfinite(loss)) {
      stop_ = true;
      return std::numeric_limits<double>::quiet_NaN();
    }
    ++count_;
    average_ = options_.smoothing * average_ + (1.0 - options_.smoothing) * loss;
    const double smoothed =
        average_ / (1.0 - std::pow(options_.smoothing, static_cast<double>(count_)));
    best_ = std::min(best_, smoothed);
    stop_ = smoothed > best_ + (options_.divergence_factor - 1.0) * std::abs(best_);
    return smoothed;
  }
  bool stop() const { return stop_; }

 private:
  const RangeTestOptions& options_;
  double average_ = 0.0;
  std::int64_t count_ = 0;
  double best_ = std::numeric_limits<double>::infinity();
  bool stop_ = false;
};

// The rate at which the smoothed loss falls fastest against log(rate), at or before `last`: the
// slope over a span of a few steps either side, so one noisy step does not decide it.
std::int64_t steepest_descent(const std::vector<double>& rates, const std::vector<double>& smoothed,
                              std::size_t last, std::size_t finite) {
  const std::size_t span = std::max<std::size_t>(1, finite / 20);
  std::int64_t steepest = -1;
  double steepest_slope = 0.0;
  for (std::size_t i = 0; i <= last; ++i) {
    const std::size_t a = i >= span ? i - span : 0;
    const std::size_t b = std::min(finite - 1, i + span);
    if (b <= a || rates[b] <= rates[a]) continue;
    const double slope = (smoothed[b] - smoothed[a]) / (std::log(rates[b]) - std::log(rates[a]));
    if (slope < steepest_slope) {
      steepest_slope = slope;
      steepest = static_cast<std::int64_t>(i);
    }
  }
  return steepest;
}

// Fills the lowest point, the steepest descent before it, the drop and the band.
void suggest_band(LearningRateRange& range) {
  std::size_t finite = range.smoothed.size();
  while (finite > 0 && !std::isfinite(range.smoothed[finite - 1])) --finite;
  if (finite == 0) return;
  const auto lowest = std::min_element(
      range.smoothed.begin(), range.smoothed.begin() + static_cast<std::ptrdiff_t>(finite));
  const std::size_t min_index = static_cast<std::size_t>(lowest - range.smoothed.begin());
  range.min_index = static_cast<std::int64_t>(min_index);
  range.min_loss_rate = range.rates[min_index];
  const double first = range.smoothed.front();
  range.drop = first != 0.0 ? (first - *lowest) / std::abs(first) : 0.0;
  range.steepest_index = steepest_descent(range.rates, range.smoothed, min_index, finite);
  if (range.steepest_index >= 0) {
    range.steepest_rate = range.rates[static_cast<std::size_t>(range.steepest_index)];
  }
  range.has_band = min_index > 0 && range.steepest_index >= 0 && range.drop >= range.min_drop;
  if (!range.has_band) return;
  range.suggested_high = range.min_loss_rate / range.high_divisor;
  range.suggested_low = std::min(range.steepest_rate, range.suggested_high);
}

// The options both entry points share, checked before any step runs.
void validate_options(const RangeTestOptions& options) {
  TORCH_CHECK(options.smoothing >= 0.0 && options.smoothing < 1.0,
              "learning-rate range test: smoothing must be in [0, 1), got ", options.smoothing);
  TORCH_CHECK(options.high_divisor >= 1.0,
              "learning-rate range test: high_divisor must be >= 1, got ", options.high_divisor);
  TORCH_CHECK(options.divergence_factor > 1.0,
              "learning-rate range test: divergence_factor must be > 1 (the smoothed loss stops "
              "the run above that multiple of its best), got ",
              options.divergence_factor);
  TORCH_CHECK(options.min_drop >= 0.0 && options.min_drop < 1.0,
              "learning-rate range test: min_drop must be in [0, 1), got ", options.min_drop);
}

}  // namespace

LearningRateRange judge_learning_rate_range(const std::vector<double>& rates,
                                            const std::vector<double>& losses,
                                            const RangeTestOptions& options) {
  TORCH_CHECK(rates.size() == losses.size(), "learning-rate range test: ", rates.size(),
              " rates but ", losses.size(), " losses");
  validate_options(options);
  LearningRateRange range;
  range.high_divisor = options.high_divisor;
  range.min_drop = options.min_drop;
  DivergenceTracker tracker(options);
  for (std::size_t i = 0; i < losses.size(); ++i) {
    TORCH_CHECK(rates[i] > 0.0 && (i == 0 || rates[i] > rates[i - 1]),
                "learning-rate range test: the rates must be positive and rise, got ", rates[i],
                " at step ", i);
    range.rates.push_back(rates[i]);
    range.losses.push_back(losses[i]);
    range.smoothed.push_back(tracker.add(losses[i]));
    if (tracker.stop()) {
      range.diverged_at = static_cast<std::int64_t>(i);
      range.non_finite = !std::isfinite(losses[i]);
      break;
    }
  }
  suggest_band(range);
  return range;
}

LearningRateRange run_learning_rate_range_test(const StepAtRate& step,
                                               const RangeTestOptions& options) {
  TORCH_CHECK(options.min_rate > 0.0 && options.max_rate > options.min_rate && options.steps >= 2,
              "learning-rate range test: need 0 < min_rate < max_rate and steps >= 2, got ",
              options.min_rate, ", ", options.max_rate, ", ", options.steps);
  validate_options(options);
  const double ratio = std::log(options.max_rate / options.min_rate);
  std::vector<double> rates;
  std::vector<double> losses;
  DivergenceTracker tracker(options);
  for (std::int64_t i = 0; i < options.steps && !tracker.stop(); ++i) {
    const double fraction = static_cast<double>(i) / static_cast<double>(options.steps - 1);
    rates.push_back(options.min_rate * std::exp(ratio * fraction));
    losses.push_back(step(rates.back()));
    tracker.add(losses.back());
  }
  return judge_learning_rate_range(rates, losses, options);
}

namespace {

std::string summary_line(const LearningRateRange& range) {
  std::string out;
  if (range.has_band) {
    out = fmt::format(
        "suggested band [{:.3g}, {:.3g}]: low = steepest descent at lr {:.3g}, high = lowest "
        "smoothed loss at lr {:.3g} / {:g}",
        range.suggested_low, range.suggested_high, range.steepest_rate, range.min_loss_rate,
        range.high_divisor);
  } else {
    out = fmt::format("no band: the smoothed loss fell {:.1f}% (a band needs {:.0f}%)",
                      100.0 * range.drop, 100.0 * range.min_drop);
  }
  if (range.diverged_at) {
    const auto at = static_cast<std::size_t>(*range.diverged_at);
    out += fmt::format("; {} at step {} (lr {:.3g})", range.non_finite ? "non-finite" : "diverged",
                       at, range.rates[at]);
  }
  return out + "\n";
}

std::string row_mark(const LearningRateRange& range, std::size_t i) {
  const auto step = static_cast<std::int64_t>(i);
  std::string mark;
  if (step == range.steepest_index) mark += " steepest";
  if (step == range.min_index) mark += " lowest";
  if (range.diverged_at && step == *range.diverged_at) {
    mark += range.non_finite ? " non-finite" : " diverged";
  }
  if (range.has_band && range.rates[i] >= range.suggested_low &&
      range.rates[i] <= range.suggested_high) {
    mark += " band";
  }
  return mark;
}

}  // namespace

std::string LearningRateRange::table() const {
  std::string out = summary_line(*this);
  out += fmt::format("{:>5}  {:>10}  {:>9}  {:>9}  {}\n", "step", "lr", "loss", "smoothed", "mark");
  const std::size_t every = std::max<std::size_t>(1, (rates.size() + kTableRows - 1) / kTableRows);
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const auto step = static_cast<std::int64_t>(i);
    const bool marked = step == steepest_index || step == min_index || step == diverged_at;
    if (i % every != 0 && i + 1 != rates.size() && !marked) continue;
    const std::string mark = row_mark(*this, i);
    out += fmt::format("{:>5}  {:>10.4g}  {:>9.4f}  {:>9.4f} {}\n", i, rates[i], losses[i],
                       smoothed[i], mark);
  }
  return out;
}

std::vector<std::string> LearningRateRange::warnings() const {
  std::vector<std::string> lines;
  if (rates.empty()) return {"learning-rate range test: no step was taken"};
  if (min_index < 0) {
    lines.push_back(fmt::format(
        "no finite loss: the first step at lr {:.3g} was already non-finite (lower min_rate)",
        rates.front()));
  } else if (!has_band && diverged_at) {
    lines.push_back(fmt::format(
        "the loss diverged at lr {:.3g} (step {}) before falling {:.0f}% below its start: lower "
        "min_rate",
        rates[static_cast<std::size_t>(*diverged_at)], *diverged_at, 100.0 * min_drop));
  } else if (!has_band) {
    lines.push_back(fmt::format(
        "flat: the smoothed loss fell only {:.1f}% ({:.4g} -> {:.4g}) from lr {:.3g} to {:.3g}, no "
        "band; the rates never reached a useful range (raise max_rate), or the step does not "
        "apply the rate it is given",
        100.0 * drop, smoothed.front(), smoothed[static_cast<std::size_t>(min_index)],
        rates.front(), rates.back()));
  } else if (!diverged_at && min_index + 1 == static_cast<std::int64_t>(rates.size())) {
    lines.push_back(fmt::format(
        "the loss was still falling at the largest rate, lr {:.3g}: raise max_rate; the band's "
        "top is a lower bound",
        rates.back()));
  }
  return lines;
}

::testing::AssertionResult agrees_with_sweep(const LearningRateRange& range,
                                             const LearningRateSweep& sweep, double factor) {
  const std::string tables = "range test:\n" + range.table() + "sweep:\n" + sweep.table();
  if (!range.has_band) {
    return ::testing::AssertionFailure() << "the range test suggests no band\n" << tables;
  }
  if (sweep.best_index < 0) {
    return ::testing::AssertionFailure() << "the sweep has no finite curve\n" << tables;
  }
  const double best = sweep.points[static_cast<std::size_t>(sweep.best_index)].learning_rate;
  const double low = range.suggested_low / factor;
  const double high = range.suggested_high * factor;
  const std::vector<double> band = sweep.best_band();
  const bool overlap = std::any_of(band.begin(), band.end(),
                                   [&](double rate) { return rate >= low && rate <= high; });
  const std::string summary = fmt::format(
      "the sweep's best lr {:g} (best band {{{:g}}}) against the range test's band [{:.3g}, "
      "{:.3g}] widened {:g}x to [{:.3g}, {:.3g}]\n",
      best, fmt::join(band, ", "), range.suggested_low, range.suggested_high, factor, low, high);
  if (overlap) return ::testing::AssertionSuccess() << summary << tables;
  return ::testing::AssertionFailure() << summary << tables;
}

}  // namespace mlregress::checks
