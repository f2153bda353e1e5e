// Names for a text profile's addresses from its memory map (profile/symbols.h),
// checked on this test process itself: its own /proc/self/maps as the profile's map
// and the address of a function of this file as a frame.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "allocsim/profile/profile.pb.h"
#include "allocsim/profile/read_profile.h"
#include "allocsim/util/child_process.h"

namespace allocsim::profile {
namespace {

[[gnu::noinline]] int symbol_probe(int x) {
  volatile int sum = x;
  for (int i = 0; i < x; ++i) sum = sum + i * 3;
  return sum;
}

std::string hex(std::uintptr_t address) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

std::string self_maps() {
  std::ifstream in("/proc/self/maps");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A jemalloc dump of one record: its leaf in an allocator library that is not on
// this machine, its caller a return address inside symbol_probe.
std::string profile_text() {
  const std::string allocator = "7f0000000000-7f0000100000 r-xp 00000000 00:00 0 /nonexistent/libjemalloc.so.2\n";
  const auto probe = reinterpret_cast<std::uintptr_t>(&symbol_probe);
  return "heap_v2/524288\n@ 0x7f0000000100 " + hex(probe + 8) + "\n  t*: 1: 1048576 [0: 0]\n\nMAPPED_LIBRARIES:\n" +
         allocator + self_maps();
}

TEST(ProfileSymbols, AddressesOfThisProcessGetTheirFunctionNames) {
  if (!run_program({"llvm-symbolizer", "--version"})) GTEST_SKIP() << "llvm-symbolizer is not installed";
  ASSERT_GT(symbol_probe(3), 0);
  const HeapProfile profile = parse_profile(profile_text(), "self.heap", {});
  ASSERT_EQ(profile.entries.size(), 1u);
  const ProfileEntry& entry = profile.entries[0];
  ASSERT_EQ(entry.frames.size(), 2u);
  EXPECT_EQ(entry.frames[0], "0x7f0000000100");  // its file is missing: an address
  EXPECT_NE(entry.frames[1].find("symbol_probe"), std::string::npos) << entry.frames[1];
  EXPECT_EQ(entry.allocator_frames, 1u);  // the libjemalloc frame
  EXPECT_NE(profile.symbols_note.find("llvm-symbolizer"), std::string::npos) << profile.symbols_note;
  EXPECT_NE(profile.symbols_note.find("/nonexistent/libjemalloc.so.2"), std::string::npos) << profile.symbols_note;
  // The pprof message carries the name too, for the annotated copy.
  pprof::Profile message;
  ASSERT_TRUE(message.ParseFromString(profile.pprof_message));
  bool named = false;
  for (const auto& function : message.function()) {
    named = named || message.string_table(static_cast<int>(function.name())).find("symbol_probe") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

TEST(ProfileSymbols, WithoutSymbolsTheFramesStayAddresses) {
  ReadOptions options;
  options.symbolize = false;
  const HeapProfile profile = parse_profile(profile_text(), "self.heap", options);
  ASSERT_EQ(profile.entries.size(), 1u);
  EXPECT_EQ(profile.entries[0].frames[1].rfind("0x", 0), 0u) << profile.entries[0].frames[1];
  EXPECT_TRUE(profile.symbols_note.empty());
}

}  // namespace
}  // namespace allocsim::profile
