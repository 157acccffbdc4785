#include "vectors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace mlregress::internal::stats::test_vectors {

const nlohmann::json& vectors() {
  static const nlohmann::json doc = [] {
    std::ifstream in(MLREGRESS_STATISTICS_VECTORS);
    if (!in) throw std::runtime_error("cannot open " MLREGRESS_STATISTICS_VECTORS);
    return nlohmann::json::parse(in);
  }();
  return doc;
}

double number(const nlohmann::json& value) {
  if (value.is_string()) {
    const auto text = value.get<std::string>();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::runtime_error("not a number in vectors.json: " + text);
  }
  return value.get<double>();
}

std::vector<double> numbers(const nlohmann::json& array) {
  std::vector<double> out;
  for (const auto& v : array) out.push_back(number(v));
  return out;
}

Alternative alternative(const nlohmann::json& value) {
  const auto text = value.get<std::string>();
  if (text == "two-sided") return Alternative::kTwoSided;
  if (text == "less") return Alternative::kLess;
  if (text == "greater") return Alternative::kGreater;
  throw std::runtime_error("unknown alternative " + text);
}

double relative_error(double actual, double expected, double scale) {
  if (std::isinf(expected) || std::isinf(actual)) {
    return actual == expected ? 0.0 : std::numeric_limits<double>::infinity();
  }
  if (std::isnan(actual) || std::isnan(expected)) return std::numeric_limits<double>::infinity();
  const double denominator = std::max(std::fabs(expected), scale);
  if (denominator == 0.0) return actual == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::fabs(actual - expected) / denominator;
}

double MaxError::add(double actual, double expected, double scale) {
  const double error = relative_error(actual, expected, scale);
  max_ = std::max(max_, error);
  ++count_;
  return error;
}

MaxError::~MaxError() {
  // A test whose vector list is empty (or whose loop never reaches its comparison) compared
  // nothing: that is a failure, not a pass with "0 values".
  if (count_ == 0) {
    ADD_FAILURE() << name_
                  << ": no reference value was compared (is its list in vectors.json empty?)";
  }
  std::printf("[ max err  ] %-32s %3d values, max relative error %.3g\n", name_.c_str(), count_,
              max_);
  ::testing::Test::RecordProperty("max_relative_error_" + name_, std::to_string(max_));
}

}  // namespace mlregress::internal::stats::test_vectors
