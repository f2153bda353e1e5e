#pragma once
// The bytes of a trace file, decompressed on the fly. The compression is told by
// the first bytes (zstd 28 b5 2f fd, gzip 1f 8b); anything else is read as is.
// Errors (a corrupt or truncated stream, garbage after the last frame) are
// InputErrors naming the file and the byte offset in the compressed file.
#include <cstddef>
#include <memory>
#include <string>

namespace allocsim {

enum class Compression { none, zstd, gzip };
const char* to_string(Compression compression);

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `capacity` bytes; returns 0 only at the end of the data.
  virtual std::size_t read(char* out, std::size_t capacity) = 0;
};

Compression detect_compression(const std::string& path);
std::unique_ptr<ByteSource> open_decompressed(const std::string& path);

}  // namespace allocsim
