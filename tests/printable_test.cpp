// printable(): outside text echoed in a message is quoted, escaped and bounded.
#include "allocsim/util/printable.h"

#include <gtest/gtest.h>

namespace allocsim {
namespace {

TEST(Printable, QuotesAndEscapesEveryByteOutsidePrintableAscii) {
  EXPECT_EQ(printable("heap_v2/64"), "\"heap_v2/64\"");
  EXPECT_EQ(printable("say \"hi\" \\ bye"), "\"say \\\"hi\\\" \\\\ bye\"");
  EXPECT_EQ(printable("a\nb\rc\td"), "\"a\\nb\\rc\\td\"");
  // An escape sequence that would clear the screen, DEL, and a UTF-8 byte pair.
  EXPECT_EQ(printable("\x1b[2J\x7f\xc3\xa9"), "\"\\x1b[2J\\x7f\\xc3\\xa9\"");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "\"a\\x00b\"");
}

TEST(Printable, LongTextIsCutAtTheLimit) {
  EXPECT_EQ(printable(std::string(500, 'x'), 4), "\"xxxx\"...");
  EXPECT_EQ(printable("abcd", 4), "\"abcd\"");
}

TEST(Printable, NamesStayAsTheyAreUnlessTheyNeedEscaping) {
  EXPECT_EQ(printable_name("/tmp/run 1/heap.prof"), "/tmp/run 1/heap.prof");
  EXPECT_EQ(printable_name("/tmp/\x1b]0;pwned\x07.prof"), "\"/tmp/\\x1b]0;pwned\\x07.prof\"");
}

}  // namespace
}  // namespace allocsim
