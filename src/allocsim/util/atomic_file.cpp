#include "allocsim/util/atomic_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"

namespace allocsim {

void create_output_directory(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw InputError(path + ": cannot create directory: " + ec.message());
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::filesystem::path target(path);
  std::error_code ec;
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  RemovedOnInterrupt cleanup(temporary);
  // "e": closes on exec, so a program another thread starts meanwhile (a gnuplot
  // drawing another chart) does not hold this file open.
  std::FILE* file = std::fopen(temporary.c_str(), "wbe");
  if (file == nullptr) throw InputError(path + ": cannot write file");
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size() &&
                       std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    std::remove(temporary.c_str());
    throw InputError(path + ": write failed");
  }
  cleanup.commit([&] { std::filesystem::rename(temporary, target, ec); });
  if (ec) {
    std::remove(temporary.c_str());
    throw InputError(path + ": cannot rename temporary file: " + ec.message());
  }
}

}  // namespace allocsim
