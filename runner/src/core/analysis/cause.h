// Why a verdict that is not a PASS came out: the class of change the recorded evidence points to
// (the data, its order, the preprocessing, the optimisation, the numerics, compilation, operators,
// allocations, the environment, or unknown), the rule that fired with the evidence it read, and
// the other classes whose rules fired as well. The classifier (comparison/cause_classifier.h)
// fills it; the run record holds it on each MetricComparison; reporters print it. A cause is never
// a guess stated as fact: `rule` says what was seen, and when the evidence is weak or several
// rules fire, `alternatives` lists the others and `unknown`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress::internal {

enum class CauseClass {
  kData,           ///< the dataset's fingerprint differs from the baseline's
  kDataOrder,      ///< the order examples were served in differs; the dataset is the same
  kPreprocessing,  ///< statistics of the preprocessed inputs moved
  kOptimisation,   ///< a gated curve (loss, gradient norm) left its band from some step on
  kNumerics,       ///< non-finite values, or the kernels' side of the environment changed
  kCompile,        ///< compile counts or specialisations moved
  kOperatorCount,  ///< operators dispatched moved
  kAllocation,     ///< allocations or memory moved
  kEnvironment,    ///< the machine differs from the one the baseline holds the value for
  kUnknown,        ///< no rule fired, or the evidence is too weak to name one
};

/// "data", "data_order", "preprocessing", "optimisation", "numerics", "compile",
/// "operator_count", "allocation", "environment", "unknown".
std::string_view cause_class_name(CauseClass cause);
std::optional<CauseClass> parse_cause_class(std::string_view name);

/// One rule that fired: its class and what it read ("the data-order hash of 'train' differs from
/// the baseline's (sha256:3f2a… → sha256:91c0…); the dataset hash is the same").
struct CauseRule {
  CauseClass cause = CauseClass::kUnknown;
  std::string rule;
  friend bool operator==(const CauseRule&, const CauseRule&) = default;
};

struct Cause {
  CauseClass cause = CauseClass::kUnknown;
  std::string rule;  ///< the rule that decided, with its evidence
  /// Other classes whose rules fired (in the classifier's order), then `unknown` whenever the
  /// decision is not certain: several rules fired, or the one that did reads weak evidence.
  /// Empty when exactly one strong rule fired.
  std::vector<CauseRule> alternatives;
  friend bool operator==(const Cause&, const Cause&) = default;
};

/// "data_order — rule: the data-order hash of 'train' differs ...; alternatives: numerics (rule:
/// ...), unknown (...)": one line for a console, a JUnit failure and a table cell.
std::string format_cause(const Cause& cause);

/// True when `unknown` is the cause or one of its alternatives.
bool admits_unknown(const Cause& cause);

}  // namespace mlregress::internal
