// `--set Test.key=value`: every mistake a user can type must stop the run with a message that
// names the item, instead of silently running the default. Each test plants one such mistake.
#include "registry/param_overrides.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "builders.h"
#include "registry/param_value.h"

namespace mlregress::internal {
namespace {

class ParamOverridesTest : public ::testing::Test {
 protected:
  ParamOverridesTest() {
    registry_.add(
        registered_test(Tier::Fast, "Fast", "CnnOverfitsOneBatch", "cnn_test.cc", 12,
                        {{"lr", 1e-3}, {"steps", 500}, {"verbose", false}, {"optimizer", "adam"}}));
    registry_.add(
        registered_test(Tier::Full, "Full", "LrSweep", "sweep_test.cc", 40, {{"lr", 0.1}}));

    RegisteredTest bare;
    bare.name = "NoParams";
    bare.tier_token = "Fast";
    registry_.add(std::move(bare));
  }

  std::vector<ParamOverride> parse(std::vector<std::string> items) const {
    return parse_param_overrides(items, registry_);
  }

  /// The ConfigError message for one item, or "" when it was (wrongly) accepted.
  std::string error_for(const std::string& item) const {
    try {
      parse({item});
    } catch (const ConfigError& error) {
      return error.what();
    }
    return "";
  }

  const RegisteredTest& cnn() const { return *registry_.find("CnnOverfitsOneBatch"); }

  TestRegistry registry_;
};

TEST_F(ParamOverridesTest, RegistryHoldsTheFixtureTests) {
  ASSERT_TRUE(registry_.errors().empty());
  ASSERT_EQ(registry_.tests().size(), 3u);
}

TEST_F(ParamOverridesTest, ParsesEachTypeAsDeclared) {
  const auto overrides =
      parse({"CnnOverfitsOneBatch.lr=0.01", "CnnOverfitsOneBatch.steps=100",
             "CnnOverfitsOneBatch.verbose=true", "CnnOverfitsOneBatch.optimizer=sgd"});
  ASSERT_EQ(overrides.size(), 4u);
  EXPECT_EQ(overrides[0].test, "CnnOverfitsOneBatch");
  EXPECT_EQ(overrides[0].key, "lr");
  EXPECT_EQ(overrides[0].value, ParamValue{0.01});
  EXPECT_EQ(overrides[1].value, ParamValue{std::int64_t{100}});
  EXPECT_EQ(overrides[2].value, ParamValue{true});
  EXPECT_EQ(overrides[3].value, ParamValue{std::string("sgd")});
}

TEST_F(ParamOverridesTest, IntegerTextIsAValidDouble) {
  const auto overrides = parse({"LrSweep.lr=1"});
  ASSERT_EQ(overrides.size(), 1u);
  EXPECT_EQ(overrides[0].value, ParamValue{1.0});  // stays a double, not an int
}

TEST_F(ParamOverridesTest, ValueMayContainDotsAndEquals) {
  const auto overrides = parse({"CnnOverfitsOneBatch.optimizer=a.b=c.d"});
  ASSERT_EQ(overrides.size(), 1u);
  EXPECT_EQ(overrides[0].test, "CnnOverfitsOneBatch");
  EXPECT_EQ(overrides[0].key, "optimizer");
  EXPECT_EQ(overrides[0].value, ParamValue{std::string("a.b=c.d")});
}

TEST_F(ParamOverridesTest, UnknownTestIsRejectedByName) {
  const std::string message = error_for("CnnOverfitsOneBach.lr=0.01");
  EXPECT_THAT(message, ::testing::HasSubstr("no test named 'CnnOverfitsOneBach'")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("--set 'CnnOverfitsOneBach.lr=0.01'")) << message;
}

TEST_F(ParamOverridesTest, TestIsAddressedByNameNotFullName) {
  // "Fast.CnnOverfitsOneBatch.lr" would be test "Fast.CnnOverfitsOneBatch": no such test.
  EXPECT_THAT(error_for("Fast.CnnOverfitsOneBatch.lr=0.01"), ::testing::HasSubstr("no test named"));
}

TEST_F(ParamOverridesTest, UnknownKeyIsRejectedAndTheKnownKeysListed) {
  const std::string message = error_for("CnnOverfitsOneBatch.learning_rate=0.01");
  EXPECT_THAT(message, ::testing::HasSubstr("has no parameter 'learning_rate'")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("lr, steps, verbose, optimizer")) << message;
}

TEST_F(ParamOverridesTest, KeyOfATestWithoutParametersSaysNone) {
  const std::string message = error_for("NoParams.lr=1");
  EXPECT_THAT(message, ::testing::HasSubstr("(it has: none)")) << message;
}

TEST_F(ParamOverridesTest, KeyOfAnotherTestIsUnknown) {
  EXPECT_THAT(error_for("LrSweep.steps=10"), ::testing::HasSubstr("has no parameter 'steps'"));
}

TEST_F(ParamOverridesTest, FractionIsNoInt) {
  const std::string message = error_for("CnnOverfitsOneBatch.steps=3.5");
  EXPECT_THAT(message, ::testing::HasSubstr(
                           "'3.5' is not a valid int for CnnOverfitsOneBatch.steps (default 500)"))
      << message;
}

TEST_F(ParamOverridesTest, MalformedIntsAreRejected) {
  for (const char* text : {"", "1e3", "0x10", " 5", "5 ", "5x", "99999999999999999999", "--1"}) {
    EXPECT_NE(error_for(std::string("CnnOverfitsOneBatch.steps=") + text), "")
        << "'" << text << "'";
  }
  EXPECT_EQ(parse({"CnnOverfitsOneBatch.steps=-3"})[0].value, ParamValue{std::int64_t{-3}});
}

TEST_F(ParamOverridesTest, YesIsNoBool) {
  const std::string message = error_for("CnnOverfitsOneBatch.verbose=yes");
  EXPECT_THAT(message, ::testing::HasSubstr("'yes' is not a valid bool")) << message;
  for (const char* text : {"", "True", "TRUE", "on", "2", "true "}) {
    EXPECT_NE(error_for(std::string("CnnOverfitsOneBatch.verbose=") + text), "")
        << "'" << text << "'";
  }
  EXPECT_EQ(parse({"CnnOverfitsOneBatch.verbose=0"})[0].value, ParamValue{false});
  EXPECT_EQ(parse({"CnnOverfitsOneBatch.verbose=1"})[0].value, ParamValue{true});
}

TEST_F(ParamOverridesTest, TrailingGarbageAfterADoubleIsRejected) {
  const std::string message = error_for("CnnOverfitsOneBatch.lr=1e-3x");
  EXPECT_THAT(message, ::testing::HasSubstr("'1e-3x' is not a valid double")) << message;
  for (const char* text : {"", "0.01 ", " 0.01", "0,01", "1e", "0.01.2", "1e-3 "}) {
    EXPECT_NE(error_for(std::string("CnnOverfitsOneBatch.lr=") + text), "") << "'" << text << "'";
  }
  EXPECT_EQ(parse({"CnnOverfitsOneBatch.lr=1e-3"})[0].value, ParamValue{1e-3});
}

TEST_F(ParamOverridesTest, NonFiniteDoublesAreRejected) {
  for (const char* text : {"inf", "-inf", "infinity", "nan", "NaN", "-nan", "1e400"}) {
    EXPECT_NE(error_for(std::string("CnnOverfitsOneBatch.lr=") + text), "") << "'" << text << "'";
  }
}

TEST_F(ParamOverridesTest, MissingEqualsIsMalformed) {
  const std::string message = error_for("CnnOverfitsOneBatch.lr");
  EXPECT_THAT(message, ::testing::HasSubstr("expected TEST.KEY=VALUE")) << message;
}

TEST_F(ParamOverridesTest, MissingDotIsMalformed) {
  const std::string message = error_for("lr=0.01");
  EXPECT_THAT(message, ::testing::HasSubstr("expected TEST.KEY=VALUE")) << message;
  // The dot in the value does not count as the TEST.KEY separator.
  EXPECT_THAT(error_for("CnnOverfitsOneBatch=0.01"),
              ::testing::HasSubstr("expected TEST.KEY=VALUE"));
}

TEST_F(ParamOverridesTest, EmptyTestOrKeyIsMalformed) {
  for (const char* item : {"", "=", ".=1", ".lr=1", "CnnOverfitsOneBatch.=1"}) {
    EXPECT_THAT(error_for(item), ::testing::HasSubstr("expected TEST.KEY=VALUE")) << item;
  }
}

TEST_F(ParamOverridesTest, OneBadItemFailsTheWholeList) {
  EXPECT_THROW(parse({"CnnOverfitsOneBatch.lr=0.01", "CnnOverfitsOneBatch.steps=many"}),
               ConfigError);
}

TEST_F(ParamOverridesTest, ResolveStartsFromTheDefaults) {
  const ResolvedParams params = resolve_params(cnn(), {});
  ASSERT_EQ(params.size(), 4u);
  EXPECT_EQ(params.at("lr"), ParamValue{1e-3});
  EXPECT_EQ(params.at("steps"), ParamValue{std::int64_t{500}});
  EXPECT_EQ(params.at("verbose"), ParamValue{false});
  EXPECT_EQ(params.at("optimizer"), ParamValue{std::string("adam")});
}

TEST_F(ParamOverridesTest, ResolveAppliesOnlyOverridesAddressingTheTestAndLaterWins) {
  const auto overrides =
      parse({"CnnOverfitsOneBatch.lr=0.5", "LrSweep.lr=7", "CnnOverfitsOneBatch.lr=0.25"});
  const ResolvedParams cnn_params = resolve_params(cnn(), overrides);
  EXPECT_EQ(cnn_params.at("lr"), ParamValue{0.25});
  EXPECT_EQ(cnn_params.at("steps"), ParamValue{std::int64_t{500}});
  const ResolvedParams sweep_params = resolve_params(*registry_.find("LrSweep"), overrides);
  EXPECT_EQ(sweep_params.at("lr"), ParamValue{7.0});
}

TEST(ParamValue, TypeNames) {
  EXPECT_EQ(param_type_name(ParamValue{true}), "bool");
  EXPECT_EQ(param_type_name(ParamValue{std::int64_t{1}}), "int");
  EXPECT_EQ(param_type_name(ParamValue{1.0}), "double");
  EXPECT_EQ(param_type_name(ParamValue{std::string("x")}), "string");
}

TEST(ParamValue, ToStringIsAcceptedBackExactly) {
  for (double d : {0.1, 1e-3, 1.0 / 3.0, 6.02214076e23, -2.5e-308, std::nextafter(0.1, 1.0)}) {
    const std::string text = param_value_to_string(ParamValue{d});
    const auto back = parse_param_value(text, ParamValue{0.0});
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(std::get<double>(*back), d) << text;  // bit-exact, not approximately
  }
  const std::int64_t big = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(parse_param_value(param_value_to_string(ParamValue{big}), ParamValue{std::int64_t{0}}),
            ParamValue{big});
  EXPECT_EQ(param_value_to_string(ParamValue{true}), "true");
  EXPECT_EQ(parse_param_value("false", ParamValue{true}), ParamValue{false});
}

TEST(ParamValue, StringsAreTakenVerbatim) {
  EXPECT_EQ(parse_param_value("", ParamValue{std::string("x")}), ParamValue{std::string()});
  EXPECT_EQ(parse_param_value(" a=b ", ParamValue{std::string("x")}),
            ParamValue{std::string(" a=b ")});
}

}  // namespace
}  // namespace mlregress::internal
