#include "allocsim/trace/format/native_trace_counts.h"

#include <cstring>
#include <fstream>

#include "allocsim/trace/format/native_trace.h"

namespace allocsim {
namespace {

// The little-endian integer of `bytes` bytes at `at`.
std::uint64_t little_endian(const unsigned char* header, std::size_t at, std::size_t bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = bytes; i-- > 0;) value = value << 8 | header[at + i];
  return value;
}

}  // namespace

std::optional<NativeTraceCounts> read_native_trace_counts(const std::string& path) {
  unsigned char header[48];
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return std::nullopt;
  const std::uint64_t version = little_endian(header, 16, 4);
  if (std::memcmp(header, kNativeTraceMagic, sizeof kNativeTraceMagic) != 0 || version < 1 ||
      version > kNativeTraceVersion) {
    return std::nullopt;
  }
  return NativeTraceCounts{little_endian(header, 24, 8), static_cast<std::uint32_t>(little_endian(header, 32, 4)),
                           static_cast<std::uint32_t>(little_endian(header, 36, 4)),
                           static_cast<std::uint32_t>(little_endian(header, 40, 4))};
}

}  // namespace allocsim
