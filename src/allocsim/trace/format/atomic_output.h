#pragma once
// A file written piece by piece and published whole: the bytes go to a temporary
// file beside the target, and commit() flushes it to disk and renames it over the
// target. Destroyed without commit(), it removes the temporary file, so a failed
// write leaves no output; so does an interrupt, once handle_interrupts() was called
// (util/interrupt_cleanup.h). For content built in memory, see util/atomic_file.h.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "allocsim/util/interrupt_cleanup.h"

namespace allocsim {

class AtomicOutput {
 public:
  explicit AtomicOutput(const std::string& path);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  void write(std::string_view bytes);
  // Bytes at an offset, for formats whose parts are written out of order.
  void write_at(std::uint64_t offset, std::string_view bytes);
  void commit();

 private:
  std::string path_;
  std::string temporary_;
  std::FILE* file_ = nullptr;
  RemovedOnInterrupt cleanup_;  // registered as the temporary file is created (after file_)
};

}  // namespace allocsim
