#pragma once
// Where this checkout's source tree is, as the build set it.
#include <string>

namespace allocsim::bench {

// The source tree (scenarios/, traces/, ...), without a trailing slash.
const std::string& source_dir();

}  // namespace allocsim::bench
