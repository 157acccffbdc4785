// Untrusted text made safe for each output. Planted inputs: every class of invalid UTF-8
// (stray bytes, truncation, overlong forms, surrogates, past U+10FFFF), the control characters
// XML 1.0 forbids, and file names that try to escape the run folder or collide.
#include "support/text_sanitize.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

namespace mlregress::internal {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";  // U+FFFD, the replacement character

std::string times(const std::string& text, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += text;
  return out;
}

// True when no byte of `text` is a C0 control other than tab, newline and carriage return.
bool has_no_forbidden_controls(const std::string& text) {
  for (unsigned char c : text) {
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
  }
  return true;
}

TEST(ValidUtf8, KeepsValidTextUnchanged) {
  for (const std::string text :
       {"", "plain ascii", "caf\xC3\xA9", "\xE2\x82\xAC 5", "\xF0\x9D\x84\x9E clef",
        "\xF4\x8F\xBF\xBF" /* U+10FFFF */, "\xEF\xBF\xBE" /* U+FFFE is valid UTF-8 */}) {
    EXPECT_EQ(valid_utf8(text), text);
  }
  const std::string with_nul("a\0b", 3);
  EXPECT_EQ(valid_utf8(with_nul), with_nul);
}

TEST(ValidUtf8, StrayBytesBecomeReplacementCharacters) {
  EXPECT_EQ(valid_utf8("a\xFF"
                       "b"),
            "a" + kFffd + "b");
  EXPECT_EQ(valid_utf8("\x80"), kFffd);  // continuation byte without a lead
  EXPECT_EQ(valid_utf8("\xFE\xFF"), times(kFffd, 2));
  EXPECT_EQ(valid_utf8("\xF8\x88\x80\x80\x80"), times(kFffd, 5));  // old 5-byte form
}

TEST(ValidUtf8, TruncatedSequencesAreReplacedBytewise) {
  EXPECT_EQ(valid_utf8("\xE2\x82"), times(kFffd, 2));
  EXPECT_EQ(valid_utf8("x\xF0\x9D\x84"), std::string("x").append(times(kFffd, 3)));
  EXPECT_EQ(valid_utf8("\xC3"
                       "A"),
            kFffd + "A");  // lead byte followed by a non-continuation
}

TEST(ValidUtf8, OverlongEncodingsAreRejected) {
  EXPECT_EQ(valid_utf8("\xC0\xAF"), times(kFffd, 2));  // '/' in two bytes
  EXPECT_EQ(valid_utf8("\xC1\xBF"), times(kFffd, 2));
  EXPECT_EQ(valid_utf8("\xE0\x80\xAF"), times(kFffd, 3));      // '/' in three bytes
  EXPECT_EQ(valid_utf8("\xE0\x9F\xBF"), times(kFffd, 3));      // U+07FF in three bytes
  EXPECT_EQ(valid_utf8("\xF0\x80\x80\xAF"), times(kFffd, 4));  // '/' in four bytes
  EXPECT_EQ(valid_utf8("\xF0\x8F\xBF\xBF"), times(kFffd, 4));  // U+FFFF in four bytes
  EXPECT_EQ(valid_utf8("\xC0\x80"), times(kFffd, 2));          // "modified UTF-8" NUL
  // The shortest forms just above each boundary are fine.
  EXPECT_EQ(valid_utf8("\xC2\x80"), "\xC2\x80");
  EXPECT_EQ(valid_utf8("\xE0\xA0\x80"), "\xE0\xA0\x80");
  EXPECT_EQ(valid_utf8("\xF0\x90\x80\x80"), "\xF0\x90\x80\x80");
}

TEST(ValidUtf8, SurrogatesAreRejected) {
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), times(kFffd, 3));              // U+D800
  EXPECT_EQ(valid_utf8("\xED\xBF\xBF"), times(kFffd, 3));              // U+DFFF
  EXPECT_EQ(valid_utf8("\xED\xA0\xBD\xED\xB8\x80"), times(kFffd, 6));  // CESU-8 pair
  EXPECT_EQ(valid_utf8("\xED\x9F\xBF"), "\xED\x9F\xBF");  // U+D7FF, just below, is fine
}

TEST(ValidUtf8, CodePointsPastU10FFFFAreRejected) {
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), times(kFffd, 4));  // U+110000
  EXPECT_EQ(valid_utf8("\xF5\x80\x80\x80"), times(kFffd, 4));
  EXPECT_EQ(valid_utf8("\xF7\xBF\xBF\xBF"), times(kFffd, 4));
}

TEST(ValidUtf8, OutputIsAlwaysValidForEveryTwoByteInput) {
  // The output of valid_utf8 is a fixed point (valid text passes unchanged) and never holds a
  // byte that cannot occur in UTF-8.
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::string input{static_cast<char>(a), static_cast<char>(b)};
      const std::string out = valid_utf8(input);
      ASSERT_EQ(valid_utf8(out), out) << std::hex << a << " " << b;
      for (unsigned char c : out) {
        ASSERT_TRUE(c != 0xC0 && c != 0xC1 && c < 0xF5) << std::hex << a << " " << b;
      }
    }
  }
}

TEST(XmlSafe, C0ControlsAreWrittenVisibly) {
  EXPECT_EQ(xml_safe("a\x01z"), "a\\x01z");
  EXPECT_EQ(xml_safe(std::string("\0", 1)), "\\x00");
  EXPECT_EQ(xml_safe("\x1B[31mred\x1B[0m"), "\\x1B[31mred\\x1B[0m");
  EXPECT_EQ(xml_safe("\x1F\x0B\x0C"), "\\x1F\\x0B\\x0C");
}

TEST(XmlSafe, TabNewlineAndCarriageReturnStay) {
  EXPECT_EQ(xml_safe("a\tb\nc\r\n"), "a\tb\nc\r\n");
}

TEST(XmlSafe, NonCharactersFFFEAndFFFFAreWrittenVisibly) {
  EXPECT_EQ(xml_safe("x\xEF\xBF\xBEy"), "x\\uFFFEy");
  EXPECT_EQ(xml_safe("\xEF\xBF\xBF"), "\\uFFFF");
  EXPECT_EQ(xml_safe("\xEF\xBF\xBD"), "\xEF\xBF\xBD");  // U+FFFD itself is allowed
}

TEST(XmlSafe, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(xml_safe("a\xFF"), "a" + kFffd);
  EXPECT_EQ(xml_safe("\xC0\xAF"), times(kFffd, 2));
  EXPECT_EQ(xml_safe("\xED\xA0\x80"), times(kFffd, 3));
}

TEST(XmlSafe, MarkupCharactersAreLeftToTheXmlWriter) {
  EXPECT_EQ(xml_safe("<a href=\"x\">&amp;</a> ]]>"), "<a href=\"x\">&amp;</a> ]]>");
  EXPECT_EQ(xml_safe("caf\xC3\xA9 \xF0\x9D\x84\x9E"), "caf\xC3\xA9 \xF0\x9D\x84\x9E");
}

TEST(XmlSafe, NoSingleOrTwoByteInputLeavesAForbiddenCharacter) {
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::string out = xml_safe(std::string{static_cast<char>(a), static_cast<char>(b)});
      ASSERT_TRUE(has_no_forbidden_controls(out)) << std::hex << a << " " << b;
      ASSERT_EQ(valid_utf8(out), out) << std::hex << a << " " << b;
      ASSERT_THAT(out, ::testing::Not(::testing::HasSubstr("\xEF\xBF\xBE")));
    }
  }
  // U+FFFE/U+FFFF take three bytes: check them amid other text too.
  EXPECT_THAT(xml_safe("\x01\xEF\xBF\xBF\x02"),
              ::testing::Not(::testing::HasSubstr("\xEF\xBF\xBF")));
}

TEST(SafeFileStem, PathTraversalCannotLeaveTheFolder) {
  const std::string stem = safe_file_stem("../../etc/passwd");
  EXPECT_EQ(stem, "_.._.._etc_passwd");
  EXPECT_THAT(stem, ::testing::Not(::testing::HasSubstr("/")));
  EXPECT_NE(stem.front(), '.');
  EXPECT_EQ(safe_file_stem("/abs/path"), "_abs_path");
  EXPECT_EQ(safe_file_stem("a\\b"), "a_b");
}

TEST(SafeFileStem, NeverEmptyDotOrDotDot) {
  EXPECT_EQ(safe_file_stem(""), "_");
  EXPECT_EQ(safe_file_stem("."), "_.");
  EXPECT_EQ(safe_file_stem(".."), "_..");
}

TEST(SafeFileStem, HiddenNamesAreMadeVisible) { EXPECT_EQ(safe_file_stem(".hidden"), "_.hidden"); }

TEST(SafeFileStem, OnlyPortableCharactersRemain) {
  EXPECT_EQ(safe_file_stem("Cnn.loss-curve_2"), "Cnn.loss-curve_2");
  EXPECT_EQ(safe_file_stem("a b:c*d?e\"f<g>h|i"), "a_b_c_d_e_f_g_h_i");
  EXPECT_EQ(safe_file_stem("caf\xC3\xA9"), "caf__");  // each byte of a non-ASCII character
  EXPECT_EQ(safe_file_stem(std::string("a\0b\n", 4)), "a_b_");
}

TEST(SafeFileStem, LongNamesAreCutTo120Bytes) {
  const std::string stem = safe_file_stem(std::string(300, 'a'));
  EXPECT_EQ(stem, std::string(120, 'a'));
  EXPECT_EQ(safe_file_stem(std::string(120, 'b')), std::string(120, 'b'));
}

// The '_' prefixed to a hidden name must not push a long name past the 120-byte limit.
TEST(SafeFileStem, LongHiddenNameStaysWithin120Bytes) {
  const std::string stem = safe_file_stem("." + std::string(299, 'a'));
  EXPECT_LE(stem.size(), 120u);
  EXPECT_NE(stem.front(), '.');
}

TEST(UniqueFileName, RepeatsGetNumberedSuffixes) {
  std::set<std::string> used;
  EXPECT_EQ(unique_file_name("Cnn.loss", ".csv", used), "Cnn.loss.csv");
  EXPECT_EQ(unique_file_name("Cnn.loss", ".csv", used), "Cnn.loss-2.csv");
  EXPECT_EQ(unique_file_name("Cnn.loss", ".csv", used), "Cnn.loss-3.csv");
  EXPECT_EQ(used, (std::set<std::string>{"Cnn.loss.csv", "Cnn.loss-2.csv", "Cnn.loss-3.csv"}));
}

TEST(UniqueFileName, NamesThatSanitiseAlikeDoNotCollide) {
  std::set<std::string> used;
  const std::string a = unique_file_name("loss/train", ".csv", used);
  const std::string b = unique_file_name("loss:train", ".csv", used);
  const std::string c = unique_file_name("loss train", ".csv", used);
  EXPECT_EQ(a, "loss_train.csv");
  EXPECT_EQ(b, "loss_train-2.csv");
  EXPECT_EQ(c, "loss_train-3.csv");
}

TEST(UniqueFileName, AStemThatLooksLikeASuffixedNameIsStillUnique) {
  std::set<std::string> used;
  EXPECT_EQ(unique_file_name("x", ".csv", used), "x.csv");
  EXPECT_EQ(unique_file_name("x", ".csv", used), "x-2.csv");
  EXPECT_EQ(unique_file_name("x-2", ".csv", used), "x-2-2.csv");
  EXPECT_EQ(used.size(), 3u);
}

TEST(UniqueFileName, RespectsNamesAlreadyTaken) {
  std::set<std::string> used{"a.csv", "a-2.csv"};
  EXPECT_EQ(unique_file_name("a", ".csv", used), "a-3.csv");
  EXPECT_EQ(unique_file_name("a", "", used), "a");  // another extension is another name
}

TEST(UniqueFileName, UnsafeStemsAreSanitisedFirst) {
  std::set<std::string> used;
  EXPECT_EQ(unique_file_name("../x", ".csv", used), "_.._x.csv");
  EXPECT_EQ(unique_file_name("", ".csv", used), "_.csv");
}

}  // namespace
}  // namespace mlregress::internal
