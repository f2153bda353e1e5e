// libFuzzer target: the scenario parser (scenario JSON text to a validated Scenario).
#include "allocsim/scenario/scenario.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  return allocsim::fuzz::expect_clean_rejection([&] { allocsim::parse_scenario(text, "fuzz.json"); });
}
