#include "allocsim/util/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
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

std::string temporary_path_for(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

std::FILE* create_temporary_file(const std::string& temporary, const std::string& named) {
  // O_EXCL | O_NOFOLLOW: a name that exists, as a file or a link, is someone else's.
  // O_CLOEXEC: a program another thread starts meanwhile (a gnuplot drawing another
  // chart) does not hold this file open.
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int error = errno;
    if (error == EEXIST) throw InputError(named + ": cannot write: " + temporary + " exists and is not this run's");
    throw InputError(named + ": cannot write: " + std::strerror(error));
  }
  std::FILE* file = ::fdopen(fd, "wb");
  if (file == nullptr) {
    const int error = errno;
    ::close(fd);
    std::remove(temporary.c_str());  // created just above
    throw InputError(named + ": cannot write: " + std::strerror(error));
  }
  return file;
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::filesystem::path target(path);
  std::error_code ec;
  const std::string temporary = temporary_path_for(path);
  std::FILE* file = nullptr;
  RemovedOnInterrupt cleanup(temporary, [&] { file = create_temporary_file(temporary, path); });
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
