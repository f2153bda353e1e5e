#include "allocsim/trace/format/line_reader.h"

#include "allocsim/util/error.h"

namespace allocsim {

namespace {
constexpr std::size_t kReadChunk = 1 << 16;
}

LineReader::LineReader(const std::string& path) : path_(path), source_(open_decompressed(path)) {}

bool LineReader::next(std::string_view& line) {
  std::size_t scanned = begin_;
  while (true) {
    const std::size_t newline = buffer_.find('\n', scanned);
    if (newline != std::string::npos) {
      ++line_number_;
      std::size_t end = newline;
      if (end > begin_ && buffer_[end - 1] == '\r') --end;
      line = std::string_view(buffer_).substr(begin_, end - begin_);
      begin_ = newline + 1;
      return true;
    }
    if (end_of_data_) {
      if (begin_ < buffer_.size()) {
        ++line_number_;
        fail("truncated: the last line has no newline (the file was cut)");
      }
      return false;
    }
    if (buffer_.size() - begin_ > kMaxLineBytes) {
      ++line_number_;
      fail("more than " + std::to_string(kMaxLineBytes >> 20) + " MiB without a line break");
    }
    buffer_.erase(0, begin_);
    begin_ = 0;
    scanned = buffer_.size();
    buffer_.resize(scanned + kReadChunk);
    const std::size_t n = source_->read(buffer_.data() + scanned, kReadChunk);
    buffer_.resize(scanned + n);
    end_of_data_ = n == 0;
  }
}

void LineReader::fail(const std::string& what) const {
  throw InputError(path_ + ": line " + std::to_string(line_number_) + ": " + what);
}

}  // namespace allocsim
