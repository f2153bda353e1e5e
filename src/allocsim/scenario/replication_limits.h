#pragma once
// The replications a scenario may ask for, whether in its JSON or in the header of
// a part file (engine/partial_state.h): from 2 (a standard deviation needs two) to
// kMaxReplications.
#include <cstdint>

namespace allocsim {

inline constexpr std::uint64_t kMinReplications = 2;
inline constexpr std::uint64_t kMaxReplications = 1'000'000'000;

}  // namespace allocsim
