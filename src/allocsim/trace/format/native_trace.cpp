#include "allocsim/trace/format/native_trace.h"

#include <array>
#include <bit>
#include <cstring>
#include <span>

#include "allocsim/trace/format/mapped_file.h"
#include "allocsim/trace/format/xxhash64.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/huge_pages.h"
#include "allocsim/util/error.h"

namespace allocsim {

namespace {

static_assert(std::endian::native == std::endian::little, "the native trace format is little-endian");

constexpr std::size_t kHeaderSize = 192;
constexpr std::size_t kChecksumEnd = 16;
constexpr std::size_t kSectionTable = 48;
constexpr std::size_t kAlignment = 64;
constexpr std::uint32_t kFlagAllocated = 1;

enum class Section : std::size_t {
  thread, requested, allocated, stack, type, time, free_time, stack_names, type_names
};
constexpr std::size_t kSections = 9;
constexpr std::array<const char*, kSections> kSectionNames = {
    "thread", "requested", "allocated", "stack", "type", "time", "free_time", "stack names", "type names"};

const char* name_of(Section s) { return kSectionNames[static_cast<std::size_t>(s)]; }

template <typename T>
void put(std::string& out, std::size_t offset, T value) {
  std::memcpy(out.data() + offset, &value, sizeof value);
}

template <typename T>
T get(const unsigned char* data, std::size_t offset) {
  T value;
  std::memcpy(&value, data + offset, sizeof value);
  return value;
}

std::string encode_names(const std::vector<std::string>& names) {
  std::string out(4, '\0');
  put(out, 0, static_cast<std::uint32_t>(names.size()));
  for (const auto& name : names) {
    const std::size_t at = out.size();
    out.resize(at + 4);
    put(out, at, static_cast<std::uint32_t>(name.size()));
    out += name;
  }
  return out;
}

template <typename T>
std::string_view bytes_of(const std::vector<T>& column) {
  return {reinterpret_cast<const char*>(column.data()), column.size() * sizeof(T)};
}

// Reads a file already mapped: every check names the byte offset it concerns.
class NativeDecoder {
 public:
  NativeDecoder(const std::string& path, const MappedFile& file)
      : path_(path), data_(file.data()), size_(file.size()) {}

  Trace decode() {
    if (size_ < kHeaderSize) fail(0, "too short for a native trace header (" + std::to_string(size_) + " bytes)");
    if (std::memcmp(data_, kNativeTraceMagic, sizeof kNativeTraceMagic) != 0) {
      fail(0, "not an allocsim native trace (bad magic)");
    }
    const auto version = get<std::uint32_t>(data_, 16);
    if (version != kNativeTraceVersion) {
      fail(16, "unsupported native trace version " + std::to_string(version) + " (this build reads version " +
                   std::to_string(kNativeTraceVersion) + ")");
    }
    if (get<std::uint32_t>(data_, 20) != kHeaderSize) fail(20, "bad header size");
    const auto stored = get<std::uint64_t>(data_, 8);
    const std::uint64_t computed = xxhash64(data_ + kChecksumEnd, size_ - kChecksumEnd);
    if (stored != computed) fail(8, "checksum mismatch: the file is corrupt");

    const auto n = get<std::uint64_t>(data_, 24);
    if (n > size_ / 8) fail(24, "event count " + std::to_string(n) + " does not fit the file");
    Trace trace;
    trace.thread_count = get<std::uint32_t>(data_, 32);
    trace.stack_count = get<std::uint32_t>(data_, 36);
    trace.type_count = get<std::uint32_t>(data_, 40);
    const auto flags = get<std::uint32_t>(data_, 44);
    if ((flags & ~kFlagAllocated) != 0) fail(44, "unknown flags");

    column(Section::thread, n, trace.thread);
    column(Section::requested, n, trace.requested);
    column(Section::allocated, (flags & kFlagAllocated) != 0 ? n : 0, trace.allocated);
    column(Section::stack, n, trace.stack);
    column(Section::type, n, trace.type);
    column(Section::time, n, trace.time);
    column(Section::free_time, n, trace.free_time);
    trace.stack_names = names(Section::stack_names, trace.stack_count);
    trace.type_names = names(Section::type_names, trace.type_count);
    trace.validate(path_);
    return trace;
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
    throw InputError(path_ + ": byte " + std::to_string(offset) + ": " + what);
  }

  // The bytes of a section, after checking that they lie inside the file.
  std::span<const unsigned char> section(Section s) const {
    const std::size_t entry = kSectionTable + 16 * static_cast<std::size_t>(s);
    const auto offset = get<std::uint64_t>(data_, entry);
    const auto length = get<std::uint64_t>(data_, entry + 8);
    if (offset < kHeaderSize || offset % 8 != 0 || offset > size_ || length > size_ - offset) {
      fail(entry, std::string("section '") + name_of(s) + "' lies outside the file");
    }
    return {data_ + offset, length};
  }

  template <typename T>
  void column(Section s, std::uint64_t n, std::vector<T>& out) const {
    const auto bytes = section(s);
    if (bytes.size() != n * sizeof(T)) {
      fail(kSectionTable + 16 * static_cast<std::size_t>(s) + 8,
           std::string("section '") + name_of(s) + "' has " + std::to_string(bytes.size()) +
               " bytes, expected " + std::to_string(n * sizeof(T)));
    }
    resize_on_huge_pages(out, n);
    if (n > 0) std::memcpy(out.data(), bytes.data(), bytes.size());
  }

  std::vector<std::string> names(Section s, std::uint32_t id_count) const {
    const auto bytes = section(s);
    const std::size_t base = static_cast<std::size_t>(bytes.data() - data_);
    auto need = [&](std::size_t at, std::size_t length) {
      if (length > bytes.size() || at > bytes.size() - length) {
        fail(base + at, std::string("section '") + name_of(s) + "' is cut short");
      }
    };
    need(0, 4);
    const auto count = get<std::uint32_t>(bytes.data(), 0);
    if (count != 0 && count != id_count) {
      fail(base, std::string("section '") + name_of(s) + "' has " + std::to_string(count) +
                     " names for " + std::to_string(id_count) + " ids");
    }
    if (count > (bytes.size() - 4) / 4) {  // each name takes at least its 4-byte length
      fail(base, std::string("section '") + name_of(s) + "' declares " + std::to_string(count) + " names in " +
                     std::to_string(bytes.size()) + " bytes");
    }
    std::vector<std::string> out(count);
    std::size_t at = 4;
    for (auto& name : out) {
      need(at, 4);
      const auto length = get<std::uint32_t>(bytes.data(), at);
      at += 4;
      need(at, length);
      name.assign(reinterpret_cast<const char*>(bytes.data() + at), length);
      at += length;
    }
    if (at != bytes.size()) fail(base + at, std::string("section '") + name_of(s) + "' has trailing bytes");
    return out;
  }

  const std::string& path_;
  const unsigned char* data_;
  std::size_t size_;
};

}  // namespace

std::string encode_native_trace(const Trace& trace) {
  const std::string stack_names = encode_names(trace.stack_names);
  const std::string type_names = encode_names(trace.type_names);
  const std::array<std::string_view, kSections> contents = {
      bytes_of(trace.thread), bytes_of(trace.requested), bytes_of(trace.allocated), bytes_of(trace.stack),
      bytes_of(trace.type),   bytes_of(trace.time),      bytes_of(trace.free_time), stack_names,
      type_names};
  std::array<std::size_t, kSections> offsets{};
  std::size_t size = kHeaderSize;
  for (std::size_t s = 0; s < kSections; ++s) {
    offsets[s] = (size + kAlignment - 1) / kAlignment * kAlignment;
    size = offsets[s] + contents[s].size();
  }
  std::string out(size, '\0');
  std::memcpy(out.data(), kNativeTraceMagic, sizeof kNativeTraceMagic);
  put(out, 16, kNativeTraceVersion);
  put(out, 20, static_cast<std::uint32_t>(kHeaderSize));
  put(out, 24, static_cast<std::uint64_t>(trace.size()));
  put(out, 32, trace.thread_count);
  put(out, 36, trace.stack_count);
  put(out, 40, trace.type_count);
  put(out, 44, trace.has_allocated_sizes() ? kFlagAllocated : 0u);
  for (std::size_t s = 0; s < kSections; ++s) {
    put(out, kSectionTable + 16 * s, static_cast<std::uint64_t>(offsets[s]));
    put(out, kSectionTable + 16 * s + 8, static_cast<std::uint64_t>(contents[s].size()));
    if (!contents[s].empty()) std::memcpy(out.data() + offsets[s], contents[s].data(), contents[s].size());
  }
  put(out, 8, xxhash64(out.data() + kChecksumEnd, out.size() - kChecksumEnd));
  return out;
}

void write_native_trace(const Trace& trace, const std::string& path) {
  write_file_atomically(path, encode_native_trace(trace));
}

Trace read_native_trace(const std::string& path) {
  const MappedFile file(path);
  return NativeDecoder(path, file).decode();
}

}  // namespace allocsim
