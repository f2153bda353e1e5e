// libFuzzer target: the heaptrack reader, both pairing rules and clocks (the file
// may be plain, zstd or gzip).
#include "allocsim/trace/format/heaptrack_reader.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace allocsim;
  if (size == 0) return 0;
  // The first byte picks the options, the rest is the file.
  const HeaptrackOptions options{(data[0] & 1) != 0 ? FreePairing::fifo : FreePairing::lifo,
                                 (data[0] & 2) != 0 ? HeaptrackClock::milliseconds : HeaptrackClock::events};
  const std::string& path = fuzz::write_input(data + 1, size - 1);
  return fuzz::expect_clean_rejection([&] { read_heaptrack(path, options); });
}
