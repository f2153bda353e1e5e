#pragma once
// A pass over a pprof protobuf before it is parsed: a message of a few bytes (an
// empty sample, a location) takes a hundred or more in memory once parsed, so the
// elements are counted on the wire first and a file past the limits is refused
// before any of it is built.
#include <string>

namespace allocsim::profile {

// Limits of one profile, far above real Go heap profiles (some 10^4 samples and
// locations, 10^5 values):
//   kMaxPprofMessages  nested messages and strings, each parsed into an object (2^22)
//   kMaxPprofScalars   numbers, packed or not, 8 bytes each once parsed (2^25)
inline constexpr std::size_t kMaxPprofMessages = std::size_t{1} << 22;
inline constexpr std::size_t kMaxPprofScalars = std::size_t{1} << 25;

// InputError naming `path` when `data` is not a well-formed Profile on the wire, has
// a field at its top level that Profile does not define, or passes a limit above.
void check_pprof_wire(const std::string& data, const std::string& path);

}  // namespace allocsim::profile
