// NameFilter: GoogleTest's filter syntax over ML tests. The mistakes it must not make: '?'
// matching any run like '*', a pattern matching only a prefix, negative patterns ignored, and
// a name-only pattern tried against the full name (which would let "Fast*" select every test of
// the fast tier).
#include "registry/name_filter.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace mlregress::internal {
namespace {

// One glob case: does `pattern` match the whole of `text`?
struct GlobCase {
  std::string pattern;
  std::string text;
  bool matches;
};

void expect_globs(std::initializer_list<GlobCase> cases) {
  for (const GlobCase& c : cases) {
    EXPECT_EQ(glob_match(c.pattern, c.text), c.matches)
        << "pattern \"" << c.pattern << "\" text \"" << c.text << "\"";
  }
}

// One test as the filter sees it: its own name, its full name (tier first), selected or not.
struct NameCase {
  std::string name;
  std::string full_name;
  bool selected;
};

void expect_selection(const NameFilter& filter, std::initializer_list<NameCase> cases) {
  for (const NameCase& c : cases) {
    EXPECT_EQ(filter.matches(c.name, c.full_name), c.selected) << c.full_name;
  }
}

TEST(GlobMatch, StarMatchesAnyRunIncludingEmpty) {
  expect_globs({{"*", "", true},
                {"*", "CnnOverfitsOneBatch", true},
                {"Cnn*", "Cnn", true},
                {"Cnn*", "CnnOverfits", true},
                {"*Batch", "CnnOverfitsOneBatch", true},
                {"a*c", "abbbbc", true},
                {"**", "x", true}});
}

TEST(GlobMatch, QuestionMarkMatchesExactlyOneCharacter) {
  expect_globs({{"?", "a", true},
                {"?", "", false},    // '?' is not '*': it needs a character...
                {"?", "ab", false},  // ...and only one
                {"a?c", "abc", true},
                {"a?c", "ac", false},
                {"a?c", "abbc", false},
                {"Seed?", "Seed7", true},
                {"Seed?", "Seed12", false}});
}

TEST(GlobMatch, MatchesTheWholeTextNotAPrefixOrSuffix) {
  expect_globs({{"Cnn", "Cnn", true},
                {"Cnn", "CnnOverfits", false},
                {"Overfits", "CnnOverfits", false},
                {"Cnn*x", "CnnOverfits", false},
                {"", "a", false},
                {"", "", true},
                {"abc", "abd", false}});
}

TEST(GlobMatch, BacktracksOverEarlierStars) {
  expect_globs({{"*a", "baaa", true},
                {"*a", "aaab", false},
                {"*ab*ab", "xabyabab", true},
                {"a*b?d", "axxbcbcd", true},
                {"a*a*a*a*b", std::string(64, 'a'), false},
                {"a*a*a*a*b", std::string(64, 'a') + "b", true}});
}

TEST(GlobMatch, DotIsAnOrdinaryCharacter) {
  expect_globs({{"Fast.*", "Fast.Cnn", true}, {"Fast.*", "FastXCnn", false}});
}

TEST(NameFilter, EmptyFilterSelectsEverything) {
  expect_selection(NameFilter(""), {{"Cnn", "Fast.Cnn", true}, {"Sweep", "Full.Sweep", true}});
}

TEST(NameFilter, PatternWithoutDotMatchesTheTestsOwnName) {
  expect_selection(NameFilter("Cnn*"), {{"CnnOverfitsOneBatch", "Fast.CnnOverfitsOneBatch", true},
                                        {"MlpSweep", "Full.MlpSweep", false}});
}

TEST(NameFilter, PatternWithoutDotIsNotTriedOnTheFullName) {
  // Planted: against the full name "Fast.Cnn", "Fast*" would select the whole fast tier.
  expect_selection(NameFilter("Fast*"),
                   {{"Cnn", "Fast.Cnn", false}, {"FastPath", "Medium.FastPath", true}});
}

TEST(NameFilter, PatternWithDotMatchesTheFullName) {
  expect_selection(NameFilter("Fast.*"), {{"Cnn", "Fast.Cnn", true}, {"Cnn", "Medium.Cnn", false}});
  // Planted: against the own name, "Fast.Cnn" would match nothing at all.
  expect_selection(NameFilter("Fast.Cnn"), {{"Cnn", "Fast.Cnn", true}, {"Cnn", "Full.Cnn", false}});
}

TEST(NameFilter, ColonSeparatesAlternatives) {
  expect_selection(NameFilter("Cnn:Mlp?"), {{"Cnn", "Fast.Cnn", true},
                                            {"Mlp2", "Full.Mlp2", true},
                                            {"Mlp22", "Full.Mlp22", false},
                                            {"Rnn", "Fast.Rnn", false}});
}

TEST(NameFilter, EmptyAlternativesAreIgnored) {
  expect_selection(NameFilter("::Cnn::"), {{"Cnn", "Fast.Cnn", true}, {"Mlp", "Fast.Mlp", false}});
}

TEST(NameFilter, NegativePatternsExclude) {
  expect_selection(NameFilter("*-*Sweep:Full.*"), {{"Cnn", "Fast.Cnn", true},
                                                   {"LrSweep", "Medium.LrSweep", false},
                                                   {"Seeds20", "Full.Seeds20", false}});
}

TEST(NameFilter, OnlyNegativePatternsStartFromEverything) {
  expect_selection(NameFilter("-Cnn*"), {{"CnnOverfits", "Fast.CnnOverfits", false},
                                         {"MlpSweep", "Full.MlpSweep", true}});
}

TEST(NameFilter, NegativeWinsOverPositive) {
  expect_selection(NameFilter("Cnn*-CnnSlow"),
                   {{"CnnFast", "Fast.CnnFast", true}, {"CnnSlow", "Full.CnnSlow", false}});
}

TEST(NameFilter, LoneDashSelectsEverything) {
  expect_selection(NameFilter("-"), {{"Cnn", "Fast.Cnn", true}});
}

}  // namespace
}  // namespace mlregress::internal
