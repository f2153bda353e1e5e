#pragma once
// Where this checkout's allocsim binary and source tree are, as the build set them.
#include <string>

namespace allocsim::testing {

// The allocsim command-line binary under test.
const std::string& cli_binary();

// The source tree (traces/, docs/, scenarios/, ...), without a trailing slash.
const std::string& source_dir();

// The recorded profiles, traces/profiles/ of the source tree, with a trailing slash.
inline std::string profiles_dir() { return source_dir() + "/traces/profiles/"; }

}  // namespace allocsim::testing
