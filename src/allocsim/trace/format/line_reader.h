#pragma once
// Reads a (possibly compressed) text file line by line. Every line must end in
// '\n': a last line without one means the file was cut, which is an error.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "allocsim/trace/format/byte_source.h"

namespace allocsim {

class LineReader {
 public:
  // A longer line is refused rather than buffered: a few hundred compressed bytes
  // can decompress into gigabytes without a newline.
  static constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

  explicit LineReader(const std::string& path);

  // The next line without its '\n' (and without a trailing '\r'); false at the end.
  // The view stays valid until the next call.
  bool next(std::string_view& line);
  std::uint64_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }

  // Throws InputError "<path>: line <n>: <what>" for the current line.
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string path_;
  std::unique_ptr<ByteSource> source_;
  std::string buffer_;
  std::size_t begin_ = 0;  // start of the unread part of buffer_
  bool end_of_data_ = false;
  std::uint64_t line_number_ = 0;
};

}  // namespace allocsim
