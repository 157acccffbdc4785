#include "mlregress/checks/learning_rate_sweep.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace mlregress::checks {

std::vector<double> LearningRateSweep::best_band() const {
  std::vector<double> rates;
  for (const SweepPoint& point : points) {
    if (point.in_best_band) rates.push_back(point.learning_rate);
  }
  std::sort(rates.begin(), rates.end());
  return rates;
}

std::vector<std::string> LearningRateSweep::warnings() const {
  std::vector<std::string> lines;
  for (const SweepPoint& point : points) {
    const LossProgress& p = point.progress;
    switch (p.status) {
      case LossProgressStatus::NonFinite:
        lines.push_back(fmt::format("lr {:g}: loss non-finite from step {} (too high)",
                                    point.learning_rate, p.first_non_finite_step));
        break;
      case LossProgressStatus::Thrashing:
        lines.push_back(fmt::format(
            "lr {:g}: thrashing, tail loss {:.4f} against the initial {:.4f}, peak {:.4f} (too "
            "high)",
            point.learning_rate, p.tail_loss, p.initial_loss, p.max_loss));
        break;
      case LossProgressStatus::Stalled:
        lines.push_back(fmt::format("lr {:g}: loss moved {:+.2f}% in {} steps (too low)",
                                    point.learning_rate, 100.0 * p.relative_change, p.steps));
        break;
      case LossProgressStatus::Trains:
        break;
    }
  }
  return lines;
}

std::string LearningRateSweep::table() const {
  std::string out = fmt::format("{:>10}  {:>9}  {:>9}  {:>8}  {:>4}  {}\n", "lr", "initial", "tail",
                                "change", "band", "status");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& point = points[i];
    const LossProgress& p = point.progress;
    const std::string mark = static_cast<std::ptrdiff_t>(i) == best_index ? "best"
                             : point.in_best_band                         ? "yes"
                                                                          : "";
    out += fmt::format("{:>10.4g}  {:>9.4f}  {:>9.4f}  {:>+7.1f}%  {:>4}  {}\n",
                       point.learning_rate, p.initial_loss, p.tail_loss, 100.0 * p.relative_change,
                       mark, status_name(p.status));
  }
  return out;
}

LearningRateSweep judge_learning_rate_sweep(const std::vector<double>& rates,
                                            const std::vector<std::vector<double>>& curves,
                                            const LearningRateSweepOptions& options) {
  TORCH_CHECK(rates.size() == curves.size(), "learning-rate sweep: ", rates.size(), " rates but ",
              curves.size(), " curves");
  LearningRateSweep sweep;
  sweep.best_band_factor = options.best_band_factor;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    SweepPoint point;
    point.learning_rate = rates[i];
    point.losses = curves[i];
    point.progress = judge_loss_progress(curves[i], options.progress);
    const double tail = point.progress.tail_loss;
    if (point.progress.status != LossProgressStatus::NonFinite && std::isfinite(tail) &&
        !curves[i].empty() &&
        (sweep.best_index < 0 ||
         tail < sweep.points[static_cast<std::size_t>(sweep.best_index)].progress.tail_loss)) {
      sweep.best_index = static_cast<std::ptrdiff_t>(i);
    }
    sweep.points.push_back(std::move(point));
  }
  if (sweep.best_index < 0) return sweep;
  const double best = sweep.points[static_cast<std::size_t>(sweep.best_index)].progress.tail_loss;
  // Losses can be negative (e.g. log-likelihoods): the band widens away from the best.
  const double limit = best + (options.best_band_factor - 1.0) * std::abs(best);
  for (SweepPoint& point : sweep.points) {
    const LossProgress& p = point.progress;
    point.in_best_band = p.status != LossProgressStatus::NonFinite && std::isfinite(p.tail_loss) &&
                         p.tail_loss <= limit;
  }
  return sweep;
}

LearningRateSweep sweep_learning_rates(const std::vector<double>& rates, const TrainAtRate& train,
                                       const LearningRateSweepOptions& options) {
  std::vector<std::vector<double>> curves;
  curves.reserve(rates.size());
  for (const double rate : rates) curves.push_back(train(rate, options.steps));
  return judge_learning_rate_sweep(rates, curves, options);
}

namespace {

std::string band_text(const std::vector<double>& band) {
  return fmt::format("{{{:g}}}", fmt::join(band, ", "));
}

}  // namespace

::testing::AssertionResult best_band_within(const LearningRateSweep& sweep, double low,
                                            double high) {
  if (sweep.best_index < 0) {
    return ::testing::AssertionFailure() << "learning-rate sweep: no rate gave a finite curve\n"
                                         << sweep.table();
  }
  const std::vector<double> band = sweep.best_band();
  const bool inside = std::all_of(band.begin(), band.end(),
                                  [&](double rate) { return rate >= low && rate <= high; });
  const std::string summary = fmt::format(
      "best band {} (tail loss within {:g}x of the best, lr {:g}); expected within [{:g}, {:g}]\n",
      band_text(band), sweep.best_band_factor,
      sweep.points[static_cast<std::size_t>(sweep.best_index)].learning_rate, low, high);
  if (inside) return ::testing::AssertionSuccess() << summary << sweep.table();
  return ::testing::AssertionFailure() << summary << sweep.table();
}

::testing::AssertionResult u_shaped(const LearningRateSweep& sweep) {
  if (sweep.points.size() < 3 || sweep.best_index < 0) {
    return ::testing::AssertionFailure()
           << "learning-rate sweep: a U needs at least three rates and a finite curve\n"
           << sweep.table();
  }
  // The ends are the smallest and the largest rate, whatever order they were given in.
  const auto by_rate = [](const SweepPoint& a, const SweepPoint& b) {
    return a.learning_rate < b.learning_rate;
  };
  const auto lowest = std::min_element(sweep.points.begin(), sweep.points.end(), by_rate);
  const auto highest = std::max_element(sweep.points.begin(), sweep.points.end(), by_rate);
  const SweepPoint& best = sweep.points[static_cast<std::size_t>(sweep.best_index)];
  const bool u = !lowest->in_best_band && !highest->in_best_band &&
                 best.learning_rate != lowest->learning_rate &&
                 best.learning_rate != highest->learning_rate;
  const std::string summary = fmt::format(
      "best lr {:g} (tail {:.4f}); smallest lr {:g} {} the band, largest lr {:g} {} the band\n",
      best.learning_rate, best.progress.tail_loss, lowest->learning_rate,
      lowest->in_best_band ? "inside" : "outside", highest->learning_rate,
      highest->in_best_band ? "inside" : "outside");
  if (u) return ::testing::AssertionSuccess() << "U-shaped: " << summary << sweep.table();
  return ::testing::AssertionFailure() << "not U-shaped: " << summary << sweep.table();
}

}  // namespace mlregress::checks
