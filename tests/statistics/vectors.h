// Access to vectors.json (SciPy's reference numbers) and the error measure the tests use.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "statistics/alternative.h"

namespace mlregress::internal::stats::test_vectors {

/// Agreement asked of every SciPy vector unless a test states otherwise: both sides are
/// double-precision evaluations of the same formulas, so 1e-9 leaves room for differently
/// ordered sums and special-function implementations, and no room for a wrong formula.
inline constexpr double kRelativeTolerance = 1e-9;

/// The parsed vectors.json (read once).
const nlohmann::json& vectors();

/// A number from the file; the strings "inf" and "-inf" stand for infinities.
double number(const nlohmann::json& value);
std::vector<double> numbers(const nlohmann::json& array);
Alternative alternative(const nlohmann::json& value);

/// |actual - expected| / max(|expected|, scale); 0 when both are the same infinity.
/// `scale` keeps values that happen to lie near 0 (a CI bound) from inflating the ratio.
double relative_error(double actual, double expected, double scale = 0.0);

/// Tracks the worst error of one quantity and prints it when the test ends, for the report; fails
/// the test when it ends without a single value compared.
class MaxError {
 public:
  explicit MaxError(std::string name) : name_(std::move(name)) {}
  MaxError(const MaxError&) = delete;
  MaxError& operator=(const MaxError&) = delete;
  ~MaxError();
  /// Records and returns the error.
  double add(double actual, double expected, double scale = 0.0);
  double max() const { return max_; }

 private:
  std::string name_;
  double max_ = 0.0;
  int count_ = 0;
};

}  // namespace mlregress::internal::stats::test_vectors
