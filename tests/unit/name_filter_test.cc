// NameFilter: GoogleTest's filter syntax over ML tests. The mistakes it must not make: '?'
// matching any run like '*', a pattern matching only a prefix, negative patterns ignored, and
// a name-only pattern tried against the full name (which would let "Fast*" select every test of
// the fast tier).
#include "registry/name_filter.h"

#include <gtest/gtest.h>

#include <string>

namespace mlregress::internal {
namespace {

TEST(GlobMatch, StarMatchesAnyRunIncludingEmpty) {
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("*", "CnnOverfitsOneBatch"));
  EXPECT_TRUE(glob_match("Cnn*", "Cnn"));
  EXPECT_TRUE(glob_match("Cnn*", "CnnOverfits"));
  EXPECT_TRUE(glob_match("*Batch", "CnnOverfitsOneBatch"));
  EXPECT_TRUE(glob_match("a*c", "abbbbc"));
  EXPECT_TRUE(glob_match("**", "x"));
}

TEST(GlobMatch, QuestionMarkMatchesExactlyOneCharacter) {
  EXPECT_TRUE(glob_match("?", "a"));
  EXPECT_FALSE(glob_match("?", ""));    // '?' is not '*': it needs a character...
  EXPECT_FALSE(glob_match("?", "ab"));  // ...and only one
  EXPECT_TRUE(glob_match("a?c", "abc"));
  EXPECT_FALSE(glob_match("a?c", "ac"));
  EXPECT_FALSE(glob_match("a?c", "abbc"));
  EXPECT_TRUE(glob_match("Seed?", "Seed7"));
  EXPECT_FALSE(glob_match("Seed?", "Seed12"));
}

TEST(GlobMatch, MatchesTheWholeTextNotAPrefixOrSuffix) {
  EXPECT_TRUE(glob_match("Cnn", "Cnn"));
  EXPECT_FALSE(glob_match("Cnn", "CnnOverfits"));
  EXPECT_FALSE(glob_match("Overfits", "CnnOverfits"));
  EXPECT_FALSE(glob_match("Cnn*x", "CnnOverfits"));
  EXPECT_FALSE(glob_match("", "a"));
  EXPECT_TRUE(glob_match("", ""));
  EXPECT_FALSE(glob_match("abc", "abd"));
}

TEST(GlobMatch, BacktracksOverEarlierStars) {
  EXPECT_TRUE(glob_match("*a", "baaa"));
  EXPECT_FALSE(glob_match("*a", "aaab"));
  EXPECT_TRUE(glob_match("*ab*ab", "xabyabab"));
  EXPECT_TRUE(glob_match("a*b?d", "axxbcbcd"));
  EXPECT_FALSE(glob_match("a*a*a*a*b", std::string(64, 'a')));
  EXPECT_TRUE(glob_match("a*a*a*a*b", std::string(64, 'a') + "b"));
}

TEST(GlobMatch, DotIsAnOrdinaryCharacter) {
  EXPECT_TRUE(glob_match("Fast.*", "Fast.Cnn"));
  EXPECT_FALSE(glob_match("Fast.*", "FastXCnn"));
}

TEST(NameFilter, EmptyFilterSelectsEverything) {
  const NameFilter filter("");
  EXPECT_TRUE(filter.matches("Cnn", "Fast.Cnn"));
  EXPECT_TRUE(filter.matches("Sweep", "Full.Sweep"));
}

TEST(NameFilter, PatternWithoutDotMatchesTheTestsOwnName) {
  const NameFilter filter("Cnn*");
  EXPECT_TRUE(filter.matches("CnnOverfitsOneBatch", "Fast.CnnOverfitsOneBatch"));
  EXPECT_FALSE(filter.matches("MlpSweep", "Full.MlpSweep"));
}

TEST(NameFilter, PatternWithoutDotIsNotTriedOnTheFullName) {
  // Planted: against the full name "Fast.Cnn", "Fast*" would select the whole fast tier.
  const NameFilter filter("Fast*");
  EXPECT_FALSE(filter.matches("Cnn", "Fast.Cnn"));
  EXPECT_TRUE(filter.matches("FastPath", "Medium.FastPath"));
}

TEST(NameFilter, PatternWithDotMatchesTheFullName) {
  const NameFilter tier_filter("Fast.*");
  EXPECT_TRUE(tier_filter.matches("Cnn", "Fast.Cnn"));
  EXPECT_FALSE(tier_filter.matches("Cnn", "Medium.Cnn"));
  // Planted: against the own name, "Fast.Cnn" would match nothing at all.
  const NameFilter exact("Fast.Cnn");
  EXPECT_TRUE(exact.matches("Cnn", "Fast.Cnn"));
  EXPECT_FALSE(exact.matches("Cnn", "Full.Cnn"));
}

TEST(NameFilter, ColonSeparatesAlternatives) {
  const NameFilter filter("Cnn:Mlp?");
  EXPECT_TRUE(filter.matches("Cnn", "Fast.Cnn"));
  EXPECT_TRUE(filter.matches("Mlp2", "Full.Mlp2"));
  EXPECT_FALSE(filter.matches("Mlp22", "Full.Mlp22"));
  EXPECT_FALSE(filter.matches("Rnn", "Fast.Rnn"));
}

TEST(NameFilter, EmptyAlternativesAreIgnored) {
  const NameFilter filter("::Cnn::");
  EXPECT_TRUE(filter.matches("Cnn", "Fast.Cnn"));
  EXPECT_FALSE(filter.matches("Mlp", "Fast.Mlp"));
}

TEST(NameFilter, NegativePatternsExclude) {
  const NameFilter filter("*-*Sweep:Full.*");
  EXPECT_TRUE(filter.matches("Cnn", "Fast.Cnn"));
  EXPECT_FALSE(filter.matches("LrSweep", "Medium.LrSweep"));
  EXPECT_FALSE(filter.matches("Seeds20", "Full.Seeds20"));
}

TEST(NameFilter, OnlyNegativePatternsStartFromEverything) {
  const NameFilter filter("-Cnn*");
  EXPECT_FALSE(filter.matches("CnnOverfits", "Fast.CnnOverfits"));
  EXPECT_TRUE(filter.matches("MlpSweep", "Full.MlpSweep"));
}

TEST(NameFilter, NegativeWinsOverPositive) {
  const NameFilter filter("Cnn*-CnnSlow");
  EXPECT_TRUE(filter.matches("CnnFast", "Fast.CnnFast"));
  EXPECT_FALSE(filter.matches("CnnSlow", "Full.CnnSlow"));
}

TEST(NameFilter, LoneDashSelectsEverything) {
  const NameFilter filter("-");
  EXPECT_TRUE(filter.matches("Cnn", "Fast.Cnn"));
}

}  // namespace
}  // namespace mlregress::internal
