#pragma once
// A whole file mapped read-only into memory, unmapped when destroyed. Shared:
// every process that maps the file reads the same pages of the page cache.
#include <cstddef>
#include <string>

namespace allocsim {

class MappedFile {
 public:
  explicit MappedFile(const std::string& path);  // InputError if it cannot be opened or mapped
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const unsigned char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace allocsim
