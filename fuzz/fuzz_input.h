#pragma once
// What every fuzz target shares: the readers take a path, so each input is written
// to a file of this process first. An InputError is the expected answer to a bad
// input; any other exception escapes, and libFuzzer reports it as a crash (for the
// command-line tool it would be an internal error, exit 3).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "allocsim/util/error.h"

namespace allocsim::fuzz {

inline const std::string& input_path() {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("allocsim-fuzz-" + std::to_string(::getpid()))).string();
  return path;
}

inline const std::string& write_input(const std::uint8_t* data, std::size_t size) {
  const std::string& path = input_path();
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0) std::abort();
  return path;
}

// Runs `read` on the input; an InputError is a correct rejection.
template <class Read>
int expect_clean_rejection(Read&& read) {
  try {
    read();
  } catch (const InputError&) {
  }
  return 0;
}

}  // namespace allocsim::fuzz
