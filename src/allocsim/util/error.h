#pragma once
// Error types shared by the library and the CLI.
//
// InputError is anything the user can fix: a malformed scenario, an impossible
// parameter, a corrupt trace file. Its message is one line that names where the
// problem is (a JSON path, a file and offset, a flag). The CLI maps it to exit 2.
#include <stdexcept>
#include <string>

namespace allocsim {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace allocsim
