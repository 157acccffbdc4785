// config_hash: equal hashes must mean comparable configurations. Planted: each ingredient
// (a parameter's value, name or type, the seed, the thread count) changed alone must change the
// hash, and the value must not drift between versions (it is pinned).
#include "registry/config_hash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <regex>
#include <string>

namespace mlregress::internal {
namespace {

ResolvedParams cnn_params() {
  return {{"lr", ParamValue{1e-3}},
          {"steps", ParamValue{std::int64_t{500}}},
          {"verbose", ParamValue{false}},
          {"optimizer", ParamValue{std::string("adam")}}};
}

TEST(ConfigHash, IsSixteenLowerCaseHexDigits) {
  EXPECT_TRUE(std::regex_match(config_hash(cnn_params(), 42, 1), std::regex("[0-9a-f]{16}")));
  EXPECT_TRUE(std::regex_match(config_hash({}, 0, 1), std::regex("[0-9a-f]{16}")));
}

TEST(ConfigHash, PinnedValue) {
  // Stored in run records and baselines: a change here makes every old run "not comparable".
  // Recompute only with a deliberate, documented format change. (Values computed independently:
  // FNV-1a 64 in Python over the canonical text shown in CanonicalTextIsSortedAndTyped.)
  EXPECT_EQ(config_hash(cnn_params(), 42, 1), "a63dfab3b1f7275e");
  EXPECT_EQ(config_hash({}, 0, 1), "e9f4780100504f88");
}

TEST(ConfigHash, CanonicalTextIsSortedAndTyped) {
  // What the hash is taken over: keys sorted, every value with its natural JSON type.
  const nlohmann::json canonical = {
      {"params", params_json(cnn_params())}, {"seed", std::uint64_t{42}}, {"threads", 1}};
  EXPECT_EQ(canonical.dump(),
            R"({"params":{"lr":0.001,"optimizer":"adam","steps":500,"verbose":false},)"
            R"("seed":42,"threads":1})");
}

TEST(ConfigHash, SameInputsGiveTheSameHash) {
  EXPECT_EQ(config_hash(cnn_params(), 42, 1), config_hash(cnn_params(), 42, 1));
  // Insertion order does not matter.
  ResolvedParams reversed;
  reversed["verbose"] = false;
  reversed["steps"] = std::int64_t{500};
  reversed["optimizer"] = std::string("adam");
  reversed["lr"] = 1e-3;
  EXPECT_EQ(config_hash(reversed, 42, 1), config_hash(cnn_params(), 42, 1));
}

TEST(ConfigHash, SensitiveToEachParameterValue) {
  const std::string base = config_hash(cnn_params(), 42, 1);
  ResolvedParams p = cnn_params();
  p["lr"] = 1e-2;
  EXPECT_NE(config_hash(p, 42, 1), base);
  p = cnn_params();
  p["lr"] = std::nextafter(1e-3, 1.0);  // one ulp: doubles are hashed in round-trip form
  EXPECT_NE(config_hash(p, 42, 1), base);
  p = cnn_params();
  p["steps"] = std::int64_t{501};
  EXPECT_NE(config_hash(p, 42, 1), base);
  p = cnn_params();
  p["verbose"] = true;
  EXPECT_NE(config_hash(p, 42, 1), base);
  p = cnn_params();
  p["optimizer"] = std::string("sgd");
  EXPECT_NE(config_hash(p, 42, 1), base);
}

TEST(ConfigHash, SensitiveToParameterNamesAndTypes) {
  const std::string base = config_hash(cnn_params(), 42, 1);
  ResolvedParams p = cnn_params();
  p.erase("verbose");
  EXPECT_NE(config_hash(p, 42, 1), base);
  p = cnn_params();
  p["extra"] = std::int64_t{0};
  EXPECT_NE(config_hash(p, 42, 1), base);
  // 500 as an int and 500.0 as a double are different declarations.
  p = cnn_params();
  p["steps"] = 500.0;
  EXPECT_NE(config_hash(p, 42, 1), base);
  // false and 0 differ too.
  p = cnn_params();
  p["verbose"] = std::int64_t{0};
  EXPECT_NE(config_hash(p, 42, 1), base);
}

TEST(ConfigHash, SensitiveToSeed) {
  const std::string base = config_hash(cnn_params(), 42, 1);
  EXPECT_NE(config_hash(cnn_params(), 43, 1), base);
  EXPECT_NE(config_hash(cnn_params(), 0, 1), base);
  // Seeds use the full 64 bits: no truncation to int or to a double's 53 bits.
  const std::uint64_t big = std::numeric_limits<std::uint64_t>::max();
  EXPECT_NE(config_hash(cnn_params(), big, 1), config_hash(cnn_params(), big - 1, 1));
}

TEST(ConfigHash, SensitiveToThreads) {
  EXPECT_NE(config_hash(cnn_params(), 42, 2), config_hash(cnn_params(), 42, 1));
}

TEST(ConfigHash, ParamsJsonKeepsNaturalTypes) {
  const nlohmann::json json = params_json(cnn_params());
  EXPECT_TRUE(json.at("lr").is_number_float());
  EXPECT_TRUE(json.at("steps").is_number_integer());
  EXPECT_TRUE(json.at("verbose").is_boolean());
  EXPECT_TRUE(json.at("optimizer").is_string());
  EXPECT_TRUE(params_json({}).is_object());
}

// nlohmann's dump() throws on invalid UTF-8 unless told otherwise; hashing must never throw.
TEST(ConfigHash, StringParameterWithInvalidUtf8CanBeHashed) {
  ResolvedParams p = cnn_params();
  p["optimizer"] = std::string("ad\xFFm");
  EXPECT_NO_THROW(config_hash(p, 42, 1));
}

// Non-finite doubles become JSON null unless encoded; NaN, Inf and -Inf are different configs.
TEST(ConfigHash, NaNAndInfDefaultsHashDifferently) {
  ResolvedParams nan_params{{"clip", ParamValue{std::numeric_limits<double>::quiet_NaN()}}};
  ResolvedParams inf_params{{"clip", ParamValue{std::numeric_limits<double>::infinity()}}};
  EXPECT_NE(config_hash(nan_params, 42, 1), config_hash(inf_params, 42, 1));
}

}  // namespace
}  // namespace mlregress::internal
