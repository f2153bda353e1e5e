// printable(), printable_unquoted(), one_line() and is_utf8() (util/printable.h).
#include "allocsim/util/printable.h"

#include <gtest/gtest.h>

#include <string>

namespace allocsim {
namespace {

using namespace std::string_literals;

TEST(Printable, QuotesPlainTextAndEscapesQuoteAndBackslash) {
  EXPECT_EQ(printable("poisson"), "\"poisson\"");
  EXPECT_EQ(printable(""), "\"\"");
  EXPECT_EQ(printable(R"(a"b\c)"), R"("a\"b\\c")");
  EXPECT_EQ(printable_unquoted(R"(a"b\c)"), R"(a"b\\c)");
}

TEST(Printable, EscapesControlCharacters) {
  EXPECT_EQ(printable("a\nb"), R"("a\nb")");
  EXPECT_EQ(printable("\r\t"), R"("\r\t")");
  EXPECT_EQ(printable("\x1b[31mred"), R"("\x1b[31mred")");
  EXPECT_EQ(printable("\x7f"), R"("\x7f")");
  EXPECT_EQ(printable("a\0b"s), R"("a\x00b")");
}

TEST(Printable, KeepsWellFormedUtf8) {
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
}

TEST(Printable, EscapesEachByteThatIsNotWellFormedUtf8) {
  EXPECT_EQ(printable("\xff\xfe"), R"("\xff\xfe")");
  EXPECT_EQ(printable("\x80z"), R"("\x80z")");                        // a continuation byte alone
  EXPECT_EQ(printable("\xc0\xaf"), R"("\xc0\xaf")");                  // an overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), R"("\xed\xa0\x80")");          // a surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), R"("\xf4\x90\x80\x80")");  // past U+10FFFF
  EXPECT_EQ(printable("\xe2\x82"), R"("\xe2\x82")");                  // cut short at the end
  EXPECT_EQ(printable("\xe2\x82z"), R"("\xe2\x82z")");                // cut short before ASCII
}

TEST(Printable, EscapesCodePointsThatActOnTheTerminalOrTheLine) {
  EXPECT_EQ(printable("\xc2\x9b"
                      "2J"),
            R"("\u{009b}2J")");  // C1 CSI
  EXPECT_EQ(printable("a\xe2\x80\xa8"
                      "b"),
            R"("a\u{2028}b")");  // line separator
  EXPECT_EQ(printable("\xe2\x80\xae"
                      "txt"),
            R"("\u{202e}txt")");  // right-to-left override
}

TEST(Printable, OneLineEscapesLikePrintableButLeavesBackslashes) {
  const std::string message = "$.schemes[0]: unknown scheme " + printable("a\nb");
  EXPECT_EQ(one_line(message), message);
  EXPECT_EQ(one_line("x\ny\x1b\xff\\n"), R"(x\ny\x1b\xff\n)");
}

TEST(Printable, IsUtf8) {
  EXPECT_TRUE(is_utf8(""));
  EXPECT_TRUE(is_utf8("plain caf\xc3\xa9"));
  EXPECT_FALSE(is_utf8("name-\xff.json"));
  EXPECT_FALSE(is_utf8("\xe2\x82"));
  EXPECT_FALSE(is_utf8("\xed\xa0\x80"));
}

TEST(Printable, Utf8ReplacedKeepsWellFormedTextAndReplacesEachBadByte) {
  EXPECT_EQ(utf8_replaced("plain caf\xc3\xa9"), "plain caf\xc3\xa9");
  // One U+FFFD per byte: a stray byte, a truncated sequence (two bytes), a surrogate (three).
  EXPECT_EQ(utf8_replaced("a\xff"
                          "b"),
            "a\xef\xbf\xbd"
            "b");
  EXPECT_EQ(utf8_replaced("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(utf8_replaced("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_TRUE(is_utf8(utf8_replaced("0?0\xb0%000 f01")));
}

TEST(Printable, NamesStayAsTheyAreUnlessTheyNeedEscaping) {
  EXPECT_EQ(printable_name("/tmp/run 1/heap.prof"), "/tmp/run 1/heap.prof");
  EXPECT_EQ(printable_name("/tmp/\x1b]0;pwned\x07.prof"), "\"/tmp/\\x1b]0;pwned\\x07.prof\"");
}

}  // namespace
}  // namespace allocsim
