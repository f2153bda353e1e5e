#include "allocsim/trace/format/atomic_output.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"

namespace allocsim {

AtomicOutput::AtomicOutput(const std::string& path)
    : path_(path),
      temporary_(temporary_path_for(path)),
      // the parent must exist: nothing is created silently
      cleanup_(temporary_, [&] { file_ = create_temporary_file(temporary_, path_); }) {}

AtomicOutput::~AtomicOutput() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(temporary_.c_str());
  }
}

void AtomicOutput::write(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) throw InputError(path_ + ": write failed");
}

void AtomicOutput::write_at(std::uint64_t offset, std::string_view bytes) {
  if (std::fflush(file_) != 0) throw InputError(path_ + ": write failed");
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t wrote =
        ::pwrite(::fileno(file_), bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (wrote <= 0) throw InputError(path_ + ": write failed");
    done += static_cast<std::size_t>(wrote);
  }
}

void AtomicOutput::commit() {
  const bool flushed = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  std::error_code ec;
  if (flushed && closed) cleanup_.commit([&] { std::filesystem::rename(temporary_, path_, ec); });
  if (!flushed || !closed || ec) {
    std::remove(temporary_.c_str());
    throw InputError(path_ + ": write failed" + (ec ? ": " + ec.message() : std::string()));
  }
}

}  // namespace allocsim
