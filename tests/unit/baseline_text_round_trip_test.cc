// Whatever text promote puts into a baseline file (a --reason from a commit message, a CPU model,
// a test or metric name), the reader takes it back: control characters are escaped, invalid
// UTF-8 is written as U+FFFD. A file that run refuses would stop every later run with exit 6
// until someone edits it by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "baseline_edits.h"
#include "baselines/baseline_toml.h"
#include "support/errors.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

// A file in which every free-text field holds `text`.
BaselineFile file_holding(const std::string& text) {
  BaselineFile file;
  file.provenance.version = 2;
  file.provenance.reason = text;
  file.provenance.environment = "cpu-aaaa";
  EnvironmentProfile env;
  env.id = "cpu-aaaa";
  env.framework = text;
  env.cpu = text;
  env.machine = text;
  file.environments[env.id] = env;
  BaselineMetric metric;
  metric.value = 0.5;
  HistoryEntry entry;
  entry.version = 2;
  entry.reason = text;
  entry.old_value = 0.4;
  entry.new_value = 0.5;
  metric.history.push_back(entry);
  file.tests["Test" + text].metrics["metric" + text] = metric;
  return file;
}

BaselineFile read_back(const BaselineFile& file) {
  return parse_baseline(render_baseline(file), "rendered.toml");
}

TEST(BaselineText, ControlCharactersQuotesAndBackslashesSurviveAWriteAndARead) {
  for (const std::string text : {std::string("two\nlines"), std::string("cr\r and tab\t"),
                                 std::string("bell\a nul\0 del\x7f", 16),
                                 std::string("\"quoted\" and \\backslash\\ and a literal \\n"),
                                 std::string("ünïcödé ✓ 𝄞"), std::string("\x1b[31mred\x1b[0m")}) {
    SCOPED_TRACE(::testing::PrintToString(text));
    const BaselineFile file = file_holding(text);
    BaselineFile back;
    ASSERT_NO_THROW(back = read_back(file)) << render_baseline(file);
    EXPECT_EQ(back, file) << render_baseline(file);
  }
}

TEST(BaselineText, DatasetAndDataOrderHashesSurviveAWriteAndARead) {
  BaselineFile file = file_holding("plain");
  BaselineTest& test = file.tests.begin()->second;
  test.datasets = {{"eval", "sha256:ab12"}, {"eval set \"2\"", "sha256:cd34"}};
  test.data_orders = {{"train", "sha256:ef56"}};
  const std::string rendered = render_baseline(file);
  EXPECT_THAT(rendered, ::testing::HasSubstr("data_order = { train = \"sha256:ef56\" }"));
  BaselineFile back;
  ASSERT_NO_THROW(back = read_back(file)) << rendered;
  EXPECT_EQ(back, file) << rendered;
  // A hash that is not a string is refused with its place in the file.
  std::string broken = rendered;
  broken.replace(broken.find("\"sha256:ef56\""), 13, "42");
  EXPECT_THROW(parse_baseline(broken, "broken.toml"), BaselineError);
}

TEST(BaselineText, AMultiLineReasonIsWrittenOnOneEscapedLine) {
  const std::string rendered = render_baseline(file_holding("first line\nsecond line"));
  EXPECT_THAT(rendered, ::testing::HasSubstr("reason = \"first line\\nsecond line\""));
}

TEST(BaselineText, InvalidUtf8IsWrittenAsReplacementCharacters) {
  const std::string invalid = "caf\xE9 \xFF\xFE";
  const BaselineFile back = read_back(file_holding(invalid));
  EXPECT_EQ(back.provenance.reason, valid_utf8(invalid));
  EXPECT_EQ(back.provenance.reason, "caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(back.environments.at("cpu-aaaa").cpu, valid_utf8(invalid));
}

// The property, over random byte strings: the reader always takes back what was written, as the
// valid UTF-8 of what was given.
TEST(BaselineText, AnyBytesAreReadBackAsTheirValidUtf8) {
  std::mt19937 random(20261203);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> length(0, 40);
  for (int i = 0; i < 2000; ++i) {
    std::string text(static_cast<std::size_t>(length(random)), '\0');
    for (char& c : text) c = static_cast<char>(byte(random));
    const BaselineFile file = file_holding(text);
    BaselineFile back;
    ASSERT_NO_THROW(back = read_back(file)) << ::testing::PrintToString(text);
    ASSERT_EQ(back, file_holding(valid_utf8(text))) << ::testing::PrintToString(text);
  }
}

// An exact value's scope: portable is one value gated everywhere, numerics one value per profile.
// Planted: the scope lost in a write and a read (a portable value would be read as bound to one
// machine), and storage that contradicts the scope accepted.
TEST(BaselineText, AnExactValuesScopeSurvivesAWriteAndAReadAndMustMatchItsStorage) {
  BaselineFile file = file_holding("x");
  BaselineMetric portable;
  portable.direction = MustEqual;
  portable.policy = Exact{Scope::Portable};
  portable.value = 19.0;
  BaselineMetric numerics;
  numerics.direction = MustEqual;
  numerics.policy = Exact{Scope::Numerics};
  numerics.by_environment["cpu-aaaa"] = 0.125;
  file.tests["Clipping"].metrics["first_bad_step"] = portable;
  file.tests["Clipping"].metrics["max_norm"] = numerics;
  const BaselineFile back = read_back(file);
  EXPECT_EQ(back, file);
  const std::string text = render_baseline(file);
  EXPECT_THAT(text, ::testing::HasSubstr("scope = \"portable\"\nvalue = 19.0\n"));

  const auto refused = [&](const std::string& from, const std::string& to) {
    return error_of(replace(text, from, to), "edited.toml");
  };
  EXPECT_THAT(refused("scope = \"portable\"\nvalue = 19.0",
                      "scope = \"portable\"\nvalues = { cpu-aaaa = 19.0 }"),
              ::testing::HasSubstr("a portable value is one 'value'"));
  EXPECT_THAT(refused("scope = \"numerics\"", "scope = \"numerics\"\nvalue = 1.0"),
              ::testing::HasSubstr("a numerics value is stored per environment"));
  EXPECT_THAT(refused("scope = \"numerics\"", "scope = \"everywhere\""),
              ::testing::HasSubstr("unknown scope 'everywhere'"));
}

}  // namespace
}  // namespace mlregress::internal
