// A constraint on one metric of a comparison, as `compare A B --constraint TEXT` or a test's
// MlTest::constrain(TEXT) states it, and whether B's value keeps it:
//
//   peak_bytes_per_step <= 1.10x   B at most 1.10 times A's value (a ratio to A)
//   val_loss <= +0.5%              B at most 0.5% above A's value (a change relative to |A|)
//   tokens_per_s >= 1.15x          B at least 1.15 times A's value
//   nonfinite_count <= 0           B at most 0 (an absolute number; no A needed)
//
// The operators are <=, >=, < and >. Unlike a verdict, a constraint knows no direction and no
// band: it is the experiment's acceptance test, stated in the metric's own units.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_result.h"

namespace mlregress::internal {

enum class ConstraintOp { kLess, kLessEqual, kGreater, kGreaterEqual };
/// What the number on the right is: a ratio to A ("1.10x"), a change relative to |A| ("+0.5%",
/// "-2%"), or a number in the metric's units ("2.5").
enum class ConstraintBound { kRatio, kRelative, kAbsolute };

struct Constraint {
  std::string text;    ///< as written, surrounding blanks removed
  std::string metric;  ///< "peak_bytes_per_step"
  ConstraintOp op = ConstraintOp::kLessEqual;
  ConstraintBound bound = ConstraintBound::kAbsolute;
  double value = 0.0;     ///< 1.10 for "1.10x", 0.005 for "+0.5%", 2.5 for "2.5"
  bool declared = false;  ///< declared by the test (MlTest::constrain), not on the command line
};

/// The constraint TEXT says, or (std::nullopt) why it is none; the reason names the text and
/// what was expected.
struct ParsedConstraint {
  std::optional<Constraint> constraint;
  std::string error;
};
ParsedConstraint parse_constraint(std::string_view text);

/// The constraints of `compare --constraint`; the first bad text throws ConfigError (exit
/// usage_error) naming it.
std::vector<Constraint> parse_constraints(const std::vector<std::string>& texts);

enum class ConstraintStatus {
  kHeld,
  kViolated,
  kNotRecorded,  ///< B's test did not record the metric: counts as violated
  /// A ratio or relative bound with no value in A, or a ratio with A <= 0 (no scale to multiply):
  /// not evaluated, not violated.
  kNoBaseline,
};

/// "held", "VIOLATED", "NOT RECORDED", "not evaluated"
std::string_view constraint_status_name(ConstraintStatus status);

struct ConstraintCheck {
  Constraint constraint;
  ConstraintStatus status = ConstraintStatus::kHeld;
  std::optional<double> a;      ///< A's value of the metric
  std::optional<double> b;      ///< B's value; unset when not recorded
  std::optional<double> limit;  ///< the bound in the metric's units (1.10 × A for "1.10x")
};

/// Whether the check fails the comparison: VIOLATED or NOT RECORDED.
bool is_violation(const ConstraintCheck& check);

/// The constraint against a metric's two values (`b` unset: B did not record it).
ConstraintCheck check_constraint(const Constraint& constraint, std::optional<double> a,
                                 std::optional<double> b);

/// "peak_bytes_per_step <= 1.10x: 1.25e+06 > limit 1.1e+06 (1.1 × A 1e+06) VIOLATED"
std::string describe_check(const ConstraintCheck& check);

/// The constraints a test declared with MlTest::constrain, as results.json keeps their texts.
/// A text that does not parse (a results.json edited by hand) throws ConfigError.
std::vector<Constraint> declared_constraints(const TestResult& test);

/// The value a test recorded for `metric` (its comparison's observed value, else its record),
/// and A's: the comparison's baseline, else `a_test`'s record of it (nullptr: none).
std::optional<double> value_in_b(const TestResult& test, const std::string& metric);
std::optional<double> value_in_a(const TestResult& test, const TestResult* a_test,
                                 const std::string& metric);

/// Every constraint that applies to the test checked: the ones it declared, and each of
/// `command_line` whose metric the test (in B, or in A's `a_test`) recorded.
std::vector<ConstraintCheck> check_test_constraints(const TestResult& test,
                                                    const TestResult* a_test,
                                                    std::span<const Constraint> command_line);

/// The texts of the test's declared constraints that are violated (is_violation), checked
/// against the baseline values its comparisons hold: what `run --baselines` fails on.
std::vector<std::string> violated_declared_constraints(const TestResult& test);

}  // namespace mlregress::internal
