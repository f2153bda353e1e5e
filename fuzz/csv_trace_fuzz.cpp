// libFuzzer target: the CSV trace reader.
#include "allocsim/trace/format/csv_trace.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = allocsim::fuzz::write_input(data, size);
  return allocsim::fuzz::expect_clean_rejection([&] { allocsim::read_csv_trace(path); });
}
