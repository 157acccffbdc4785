// The SciPy comparison itself can fail: a MaxError that saw no value fails its test, so an empty
// or missing list of vectors in vectors.json is never a pass.
#include "vectors.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

namespace mlregress::internal::stats::test_vectors {
namespace {

TEST(SciPyVectors, AComparisonThatSawNoValueFails) {
  // As a test whose list in vectors.json is empty: its loop never calls add().
  EXPECT_NONFATAL_FAILURE(
      {
        const nlohmann::json empty = nlohmann::json::array();
        MaxError error("planted.empty_list");
        for (const auto& c : empty) error.add(number(c.at("x")), number(c.at("expected")));
      },
      "planted.empty_list: no reference value was compared");
}

TEST(SciPyVectors, AComparisonThatSawValuesPasses) {
  MaxError error("planted.one_value");
  EXPECT_EQ(error.add(1.0, 1.0), 0.0);
}

TEST(SciPyVectors, EveryListInTheFileHasVectors) {
  for (const auto& [name, list] : vectors().items()) {
    if (list.is_array()) EXPECT_FALSE(list.empty()) << name << " in vectors.json is empty";
  }
}

}  // namespace
}  // namespace mlregress::internal::stats::test_vectors
