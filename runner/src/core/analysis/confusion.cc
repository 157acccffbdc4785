#include "mlregress/confusion.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mlregress {
namespace {

// The lowest class with the largest count.
std::int64_t largest_at(const std::vector<std::int64_t>& counts) {
  return static_cast<std::int64_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
}

double ratio(std::int64_t part, std::int64_t whole) {
  return whole == 0 ? std::numeric_limits<double>::quiet_NaN()
                    : static_cast<double>(part) / static_cast<double>(whole);
}

double share(std::int64_t part, std::int64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::string percent(double fraction) { return fmt::format("{:.0f}%", 100.0 * fraction); }

}  // namespace

ConfusionMatrix confusion_from_totals(std::vector<std::int64_t> target_counts,
                                      std::vector<std::int64_t> predicted_counts,
                                      std::vector<std::int64_t> correct_counts,
                                      std::vector<std::vector<std::int64_t>> counts) {
  const std::size_t n = target_counts.size();
  if (predicted_counts.size() != n || correct_counts.size() != n ||
      (!counts.empty() && counts.size() != n)) {
    throw std::invalid_argument(fmt::format(
        "confusion matrix: {} target counts, {} predicted counts, {} correct counts, {} rows", n,
        predicted_counts.size(), correct_counts.size(), counts.size()));
  }
  ConfusionMatrix m;
  m.classes = static_cast<std::int64_t>(n);
  for (std::size_t k = 0; k < n; ++k) {
    m.examples += target_counts[k];
    m.correct += correct_counts[k];
    m.recall.push_back(ratio(correct_counts[k], target_counts[k]));
    m.precision.push_back(ratio(correct_counts[k], predicted_counts[k]));
  }
  m.accuracy = share(m.correct, m.examples);
  if (n > 0) {
    m.majority_class = largest_at(target_counts);
    m.majority_rate = share(target_counts[static_cast<std::size_t>(m.majority_class)], m.examples);
    m.top_predicted_class = largest_at(predicted_counts);
    m.top_predicted_share =
        share(predicted_counts[static_cast<std::size_t>(m.top_predicted_class)], m.examples);
  }
  m.target_counts = std::move(target_counts);
  m.predicted_counts = std::move(predicted_counts);
  m.correct_counts = std::move(correct_counts);
  m.counts = std::move(counts);
  return m;
}

ConfusionMatrix confusion_matrix(const std::vector<std::int64_t>& predicted,
                                 const std::vector<std::int64_t>& target, std::int64_t classes) {
  if (predicted.size() != target.size()) {
    throw std::invalid_argument(fmt::format("confusion matrix: {} predictions for {} targets",
                                            predicted.size(), target.size()));
  }
  std::int64_t largest = -1;
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (predicted[i] < 0 || target[i] < 0) {
      throw std::invalid_argument(
          fmt::format("confusion matrix: example {} has a negative class (predicted {}, target {})",
                      i, predicted[i], target[i]));
    }
    // Checked here, before `largest + 1` could overflow on an index near INT64_MAX.
    if (predicted[i] >= kConfusionMaxClasses || target[i] >= kConfusionMaxClasses) {
      throw std::invalid_argument(fmt::format(
          "confusion matrix: example {} has class {} (predicted {}, target {}), more than {} "
          "classes (are these class indices?)",
          i, std::max(predicted[i], target[i]), predicted[i], target[i], kConfusionMaxClasses));
    }
    largest = std::max({largest, predicted[i], target[i]});
  }
  const auto n = static_cast<std::size_t>(std::max(classes, largest + 1));
  if (n > static_cast<std::size_t>(kConfusionMaxClasses)) {
    throw std::invalid_argument(
        fmt::format("confusion matrix: {} classes, more than {} (are these class indices?)", n,
                    kConfusionMaxClasses));
  }
  const bool cells = n <= static_cast<std::size_t>(kConfusionMatrixMaxClasses);
  std::vector<std::vector<std::int64_t>> counts(cells ? n : 0, std::vector<std::int64_t>(n, 0));
  std::vector<std::int64_t> by_target(n, 0), by_predicted(n, 0), correct(n, 0);
  for (std::size_t i = 0; i < target.size(); ++i) {
    const auto t = static_cast<std::size_t>(target[i]);
    const auto p = static_cast<std::size_t>(predicted[i]);
    if (cells) ++counts[t][p];
    ++by_target[t];
    ++by_predicted[p];
    correct[t] += t == p;
  }
  return confusion_from_totals(std::move(by_target), std::move(by_predicted), std::move(correct),
                               std::move(counts));
}

std::string ConfusionMatrix::table(std::int64_t max_classes) const {
  if (counts.empty()) {
    return fmt::format("({} classes: more than {}, so only the per-class totals were kept)\n",
                       classes, kConfusionMatrixMaxClasses);
  }
  const std::int64_t shown = std::min(classes, std::max<std::int64_t>(max_classes, 1));
  std::string out = fmt::format("{:>10}", "true\\pred");
  for (std::int64_t p = 0; p < shown; ++p) out += fmt::format(" {:>6}", p);
  out += "\n";
  for (std::int64_t t = 0; t < shown; ++t) {
    out += fmt::format("{:>10}", t);
    for (std::int64_t p = 0; p < shown; ++p) {
      out +=
          fmt::format(" {:>6}", counts[static_cast<std::size_t>(t)][static_cast<std::size_t>(p)]);
    }
    out += "\n";
  }
  if (shown < classes) {
    out += fmt::format("({} of {} classes shown)\n", shown, classes);
  }
  return out;
}

std::string ConfusionMatrix::summary() const {
  std::string out = fmt::format(
      "accuracy {:.4f} vs majority rate {:.4f} (class {}); predicts class {} for {} of {} "
      "examples; labels ",
      accuracy, majority_rate, majority_class, top_predicted_class, percent(top_predicted_share),
      examples);
  constexpr std::size_t kNamed = 10;
  for (std::size_t k = 0; k < target_counts.size() && k < kNamed; ++k) {
    out +=
        fmt::format("{}{}: {}", k == 0 ? "" : ", ", k, percent(share(target_counts[k], examples)));
  }
  if (target_counts.size() > kNamed) {
    out += fmt::format(", … ({} classes)", target_counts.size());
  }
  return out;
}

}  // namespace mlregress
