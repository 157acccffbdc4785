// A machine-checkable success criterion: `METRIC OP VALUE`, e.g. `val_loss <= 0.98x baseline`,
// `tokens_per_s >= 1.15x`, `accuracy >= -0.5%`, `final_loss < 0.01`. OP is <=, >=, < or >;
// VALUE is a ratio to the baseline (`0.98x`, optionally followed by the word `baseline`), a
// relative change from it (`+0.5%`, `-2%`; also optionally followed by `baseline`) or an absolute
// number. Text that does not have this form is not a criterion (parse_criterion gives nothing):
// it stays text for a person. Depends on the standard library only.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mlregress::internal {

enum class CriterionOp { kLess, kLessOrEqual, kGreater, kGreaterOrEqual };
/// "<", "<=", ">", ">="
std::string_view criterion_op_text(CriterionOp op);

enum class CriterionKind {
  kRatio,     ///< VALUE is observed / baseline: `0.98x`
  kRelative,  ///< VALUE is (observed - baseline) / |baseline| in percent: `+0.5%`
  kAbsolute,  ///< VALUE is the observed value itself: `0.01`
};

struct Criterion {
  std::string metric;  ///< as written: `val_loss`, or `TEST.METRIC` for one test's metric
  CriterionOp op = CriterionOp::kLessOrEqual;
  CriterionKind kind = CriterionKind::kAbsolute;
  double value = 0.0;  ///< the ratio (0.98), the change in percent (0.5, -2) or the number
  std::string text;    ///< the criterion as written, trimmed
};

/// The criterion `text` states, or nothing when it is not of the form `METRIC OP VALUE` (a
/// sentence for a person). Spaces around the operator are optional; METRIC is letters, digits
/// and `_ - . [ ] /`.
std::optional<Criterion> parse_criterion(std::string_view text);

/// Whether `text` that parse_criterion refused was meant as a criterion: a metric name followed
/// by an operator character (`value <= +1.5`, `loss == 2`, `acc =< 0.9`). Such a near miss is
/// an error to report, not a sentence to keep.
bool looks_like_criterion(std::string_view text);

struct CriterionCheck {
  bool held = false;
  double threshold = 0.0;  ///< the value the observed one was compared with
  /// How the observed value stands to the baseline: "0.967x" for a ratio, "-3.33%" for a relative
  /// change, and for an absolute criterion either one ("-3.33%") or "" without a baseline.
  std::string change;
};

/// Compares `observed` with what the criterion allows. A ratio or relative criterion needs the
/// baseline, and a ratio one above 0 (0.98x of a negative baseline lies above it): nothing
/// without. A NaN observed value never holds.
std::optional<CriterionCheck> evaluate_criterion(const Criterion& criterion,
                                                 std::optional<double> baseline, double observed);

}  // namespace mlregress::internal
