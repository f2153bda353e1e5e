// libFuzzer target: the native trace reader. The checksum at bytes 8-15 (XXH64 of
// everything from byte 16, native_trace.h) is recomputed, so a mutation reaches the
// header and section checks instead of stopping at the checksum.
#include <cstring>
#include <vector>

#include "allocsim/trace/format/native_trace.h"
#include "allocsim/trace/format/xxhash64.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> file(data, data + size);
  if (size >= 16) {
    const std::uint64_t checksum = allocsim::xxhash64(file.data() + 16, size - 16);
    for (int i = 0; i < 8; ++i) file[8 + i] = static_cast<std::uint8_t>(checksum >> (8 * i));
  }
  const std::string& path = allocsim::fuzz::write_input(file.data(), file.size());
  return allocsim::fuzz::expect_clean_rejection([&] { allocsim::read_native_trace(path); });
}
