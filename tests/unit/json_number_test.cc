// JSON has no NaN or Inf. Planted: nlohmann writes a NaN as null, so a diverged loss would read
// back as "no value"; json_number must keep NaN, +Inf and -Inf distinct and round-trip them.
#include "record/json_number.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace mlregress::internal {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Writes the value as JSON text and reads it back, as a later `compare` would.
std::optional<double> through_text(double value) {
  const nlohmann::json doc = {{"v", json_number(value)}};
  return read_json_number(nlohmann::json::parse(doc.dump()).at("v"));
}

TEST(JsonNumber, PlainJsonLosesNaNAndInf) {
  // The bug this unit exists for: both come out as null, indistinguishable from "missing".
  EXPECT_EQ(nlohmann::json(kNaN).dump(), "null");
  EXPECT_EQ(nlohmann::json(kInf).dump(), "null");
  EXPECT_NE(json_number(kNaN).dump(), "null");
}

TEST(JsonNumber, NonFiniteValuesAreNamedStrings) {
  EXPECT_EQ(json_number(kNaN), nlohmann::json("NaN"));
  EXPECT_EQ(json_number(kInf), nlohmann::json("Infinity"));
  EXPECT_EQ(json_number(-kInf), nlohmann::json("-Infinity"));
  EXPECT_EQ(json_number(-kNaN), nlohmann::json("NaN"));
}

TEST(JsonNumber, FiniteValuesAreNumbers) {
  EXPECT_TRUE(json_number(0.25).is_number_float());
  EXPECT_EQ(json_number(0.25).dump(), "0.25");
  EXPECT_EQ(json_number(1.0).dump(), "1.0");
}

TEST(JsonNumber, NonFiniteValuesRoundTripThroughText) {
  const auto nan = through_text(kNaN);
  ASSERT_TRUE(nan.has_value());
  EXPECT_TRUE(std::isnan(*nan));
  EXPECT_EQ(through_text(kInf), kInf);
  EXPECT_EQ(through_text(-kInf), -kInf);
}

TEST(JsonNumber, FiniteValuesRoundTripBitExactly) {
  for (double value : {0.0, 0.1, 1.0 / 3.0, 1e-300, std::numeric_limits<double>::denorm_min(),
                       std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
                       0.0002, 1.3411, std::nextafter(1.0, 2.0)}) {
    const auto back = through_text(value);
    ASSERT_TRUE(back.has_value()) << value;
    EXPECT_EQ(*back, value);
  }
}

TEST(JsonNumber, NegativeZeroKeepsItsSign) {
  const auto back = through_text(-0.0);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, 0.0);
  EXPECT_TRUE(std::signbit(*back));
}

TEST(ReadJsonNumber, AcceptsIntegers) {
  EXPECT_EQ(read_json_number(nlohmann::json(3)), 3.0);
  EXPECT_EQ(read_json_number(nlohmann::json(-7)), -7.0);
  EXPECT_EQ(read_json_number(nlohmann::json::parse("18446744073709551615")),
            18446744073709551615.0);
}

TEST(ReadJsonNumber, RejectsEverythingElse) {
  for (const char* text : {"null", "true", "\"nan\"", "\"inf\"", "\"-inf\"", "\"+Infinity\"",
                           "\"1.5\"", "\"\"", "[]", "{}", "[1.5]"}) {
    EXPECT_EQ(read_json_number(nlohmann::json::parse(text)), std::nullopt) << text;
  }
}

}  // namespace
}  // namespace mlregress::internal
