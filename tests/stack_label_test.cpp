// The one stack display of every table (profile/stack_label.h).
#include "allocsim/profile/stack_label.h"

#include <gtest/gtest.h>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {
namespace {

TEST(StackLabel, FromTheFirstProgramFrameJoinedByCallerArrows) {
  const std::vector<std::string> frames = {"je_malloc", "imalloc", "make", "site", "main", "__libc_start_main"};
  EXPECT_EQ(stack_label(frames, 2, 3), "make < site < main < ...");
  EXPECT_EQ(stack_label(frames, 2, 4), "make < site < main < __libc_start_main");
  EXPECT_EQ(stack_label(frames, 0, 1), "je_malloc < ...");
}

TEST(StackLabel, AnAllAllocatorOrEmptyStackStillShowsSomething) {
  EXPECT_EQ(stack_label({"je_malloc", "imalloc"}, 2, 3), "je_malloc < imalloc");
  EXPECT_EQ(stack_label({}, 0, 3), kNoFrames);
}

TEST(StackLabel, ControlCharactersAreEscaped) {
  EXPECT_EQ(stack_label({"evil\x1b[2J"}, 0, 3).find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace allocsim::profile
