#include "mlregress/checks/curve_smells.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace mlregress::checks {
namespace {

constexpr std::size_t kMinPoints = 4;

// Why two curves cannot be compared, or nullopt when they can.
std::optional<std::string> unjudgeable(const std::vector<double>& a, const char* a_name,
                                       const std::vector<double>& b, const char* b_name,
                                       Direction direction) {
  if (direction == Direction::MustEqual) {
    return std::string("a smell needs a direction (LowerIsBetter or HigherIsBetter)");
  }
  if (a.size() != b.size() || a.size() < kMinPoints) {
    return fmt::format("needs {} and {} curves of one length, at least {} points (got {} and {})",
                       a_name, b_name, kMinPoints, a.size(), b.size());
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i])) {
      const bool first = !std::isfinite(a[i]);
      return fmt::format("{} is {} at point {}", first ? a_name : b_name, first ? a[i] : b[i], i);
    }
  }
  return std::nullopt;
}

double tail_mean(const std::vector<double>& values, std::size_t tail) {
  double sum = 0.0;
  for (std::size_t i = values.size() - tail; i < values.size(); ++i) sum += values[i];
  return sum / static_cast<double>(tail);
}

// How much better `better` is than `reference`, as a fraction of |reference|.
double advantage(double reference, double better, Direction direction) {
  const double diff =
      direction == Direction::LowerIsBetter ? reference - better : better - reference;
  return diff / std::max(std::abs(reference), 1e-12);
}

CurveSmellResult unjudged(CurveSmellKind kind, std::string why) {
  CurveSmellResult r;
  r.kind = kind;
  r.explanation = std::move(why);
  return r;
}

}  // namespace

std::string_view curve_smell_name(CurveSmellKind kind) {
  switch (kind) {
    case CurveSmellKind::ValidationBetterThanTraining:
      return "validation better than training";
    case CurveSmellKind::TestPoorAlthoughValidationGood:
      return "test poor although validation good";
  }
  return "unknown";
}

CurveSmellResult validation_better_than_training(const std::vector<double>& train,
                                                 const std::vector<double>& validation,
                                                 const CurveSmellOptions& options) {
  constexpr CurveSmellKind kind = CurveSmellKind::ValidationBetterThanTraining;
  if (auto why = unjudgeable(train, "training", validation, "validation", options.direction))
    return unjudged(kind, *why);
  const std::size_t tail = std::clamp<std::size_t>(options.tail_points, 1, train.size());
  CurveSmellResult r;
  r.kind = kind;
  r.judged = true;
  r.reference = tail_mean(train, tail);
  r.observed = tail_mean(validation, tail);
  r.relative_gap = advantage(r.reference, r.observed, options.direction);
  r.at_point = static_cast<std::int64_t>(train.size() - tail);
  r.smell = r.relative_gap > options.min_relative_gap;
  r.explanation = fmt::format(
      "over the last {} points (from point {}), validation {:.6g} against training {:.6g}: "
      "validation {} by {:.1f}% of training (a smell above {:.1f}%)",
      tail, r.at_point, r.observed, r.reference, r.relative_gap >= 0 ? "better" : "worse",
      std::abs(r.relative_gap) * 100.0, options.min_relative_gap * 100.0);
  if (r.smell) {
    r.explanation +=
        ". Usual reasons: dropout or augmentation active while the training loss is measured "
        "(train() mode); a training loss averaged over the epoch while validation is measured "
        "after it; a validation set easier than training, or overlapping it. To tell them "
        "apart, measure training in eval() mode on a training subset after the epoch: if it "
        "then matches validation, the measurement was the cause";
  }
  return r;
}

CurveSmellResult test_poor_although_validation_good(const std::vector<double>& validation,
                                                    const std::vector<double>& test,
                                                    const CurveSmellOptions& options) {
  constexpr CurveSmellKind kind = CurveSmellKind::TestPoorAlthoughValidationGood;
  if (auto why = unjudgeable(validation, "validation", test, "test", options.direction))
    return unjudged(kind, *why);
  const auto best = options.direction == Direction::LowerIsBetter
                        ? std::min_element(validation.begin(), validation.end())
                        : std::max_element(validation.begin(), validation.end());
  CurveSmellResult r;
  r.kind = kind;
  r.judged = true;
  r.at_point = best - validation.begin();
  r.reference = *best;
  r.observed = test[static_cast<std::size_t>(r.at_point)];
  // How much worse test is than validation, as a fraction of |validation|.
  r.relative_gap = -advantage(r.reference, r.observed, options.direction);
  r.smell = r.relative_gap > options.max_test_gap;
  r.explanation = fmt::format(
      "at validation's best point ({}, where early stopping would stop), test {:.6g} against "
      "validation {:.6g}: test {} by {:.1f}% of validation (a smell above {:.1f}%)",
      r.at_point, r.observed, r.reference, r.relative_gap >= 0 ? "worse" : "better",
      std::abs(r.relative_gap) * 100.0, options.max_test_gap * 100.0);
  if (r.smell) {
    r.explanation +=
        ". Validation no longer predicts test. Usual reasons: a distribution shift between "
        "validation and test (another source, time or preprocessing); validation reused for "
        "tuning until it is overfit; validation rows leaked from training (duplicates, "
        "oversampling or augmentation before the split; permuted_label_leak_test finds those)";
  }
  return r;
}

::testing::AssertionResult CurveSmellResult::assertion() const {
  const std::string name(curve_smell_name(kind));
  if (!judged) {
    return ::testing::AssertionFailure() << name << ": not judged: " << explanation;
  }
  if (smell) return ::testing::AssertionFailure() << "curve smell, " << name << ": " << explanation;
  return ::testing::AssertionSuccess() << "no curve smell (" << name << "): " << explanation;
}

::testing::AssertionResult no_curve_smell(const CurveSmellResult& result) {
  return result.assertion();
}

}  // namespace mlregress::checks
