#include "allocsim/trace/format/native_trace.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <memory>
#include <span>
#include <stdexcept>

#include "allocsim/trace/format/atomic_output.h"
#include "allocsim/trace/format/mapped_file.h"
#include "allocsim/trace/resident_pages.h"
#include "allocsim/util/error.h"

namespace allocsim {

namespace {

static_assert(std::endian::native == std::endian::little, "the native trace format is little-endian");
static_assert(sizeof(WideValue) == 16);

constexpr std::size_t kChecksumEnd = 16;
// Where the header's fields are (native_trace.h), the same in versions 1 and 2.
constexpr std::size_t kVersionAt = 16;
constexpr std::size_t kHeaderSizeAt = 20;
constexpr std::size_t kEventsAt = 24;
constexpr std::size_t kThreadCountAt = 32;
constexpr std::size_t kStackCountAt = 36;
constexpr std::size_t kTypeCountAt = 40;
constexpr std::size_t kFlagsAt = 44;
constexpr std::size_t kSectionTable = 48;
constexpr std::size_t kAlignment = 64;
constexpr std::uint32_t kFlagAllocated = 1;
// Checksums and copies of a mapped file go through it in pieces this large,
// dropping each piece's pages after use.
constexpr std::size_t kScanPiece = std::size_t{1} << 26;

struct Layout {
  std::uint32_t version;
  std::size_t header_size;
  std::vector<const char*> sections;
};
const Layout kVersion1{
    1, 192, {"thread", "requested", "allocated", "stack", "type", "time", "free_time", "stack names", "type names"}};
const Layout kVersion2{2,
                       256,
                       {"thread", "thread wide", "requested", "requested wide", "allocated", "allocated wide", "stack",
                        "type", "time", "free_time", "stack names", "type names"}};

// Version 2 sections.
enum Section : std::size_t {
  kThread,
  kThreadWide,
  kRequested,
  kRequestedWide,
  kAllocated,
  kAllocatedWide,
  kStack,
  kType,
  kTime,
  kFreeTime,
  kStackNames,
  kTypeNames
};

std::uint64_t aligned(std::uint64_t offset) { return (offset + kAlignment - 1) / kAlignment * kAlignment; }

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

template <typename T>
std::string_view bytes_of(std::span<const T> values) {
  return {reinterpret_cast<const char*>(values.data()), values.size_bytes()};
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

// Reads a mapped file: every check names the byte offset it concerns.
class NativeDecoder {
 public:
  NativeDecoder(const std::string& path, std::shared_ptr<const MappedFile> file)
      : path_(path), file_(std::move(file)), data_(file_->data()), size_(file_->size()) {}

  Trace decode() {
    if (size_ < kChecksumEnd + 8) fail(0, "too short for a native trace header (" + std::to_string(size_) + " bytes)");
    if (std::memcmp(data_, kNativeTraceMagic, sizeof kNativeTraceMagic) != 0) {
      fail(0, "not an allocsim native trace (bad magic)");
    }
    const auto version = get<std::uint32_t>(data_, kVersionAt);
    if (version == 1) return decode_with(kVersion1);
    if (version == 2) return decode_with(kVersion2);
    fail(kVersionAt, "unsupported native trace version " + std::to_string(version) +
                         " (this build reads versions 1 and " + std::to_string(kNativeTraceVersion) + ")");
  }

 private:
  Trace decode_with(const Layout& layout) {
    layout_ = &layout;
    if (size_ < layout.header_size) {
      fail(0, "too short for a native trace header (" + std::to_string(size_) + " bytes)");
    }
    if (get<std::uint32_t>(data_, kHeaderSizeAt) != layout.header_size) fail(kHeaderSizeAt, "bad header size");
    check_checksum();
    const auto n = get<std::uint64_t>(data_, kEventsAt);
    if (n > size_ / 2) fail(kEventsAt, "event count " + std::to_string(n) + " does not fit the file");
    Trace trace;
    trace.thread_count = get<std::uint32_t>(data_, kThreadCountAt);
    trace.stack_count = get<std::uint32_t>(data_, kStackCountAt);
    trace.type_count = get<std::uint32_t>(data_, kTypeCountAt);
    const auto flags = get<std::uint32_t>(data_, kFlagsAt);
    if ((flags & ~kFlagAllocated) != 0) fail(kFlagsAt, "unknown flags");
    const std::uint64_t allocated_events = (flags & kFlagAllocated) != 0 ? n : 0;
    if (layout.version == 1) {
      copy_columns_v1(trace, n, allocated_events);
    } else {
      view_columns_v2(trace, n, allocated_events);
    }
    const std::size_t names = layout.sections.size() - 2;
    trace.stack_names = read_names(names, trace.stack_count);
    trace.type_names = read_names(names + 1, trace.type_count);
    trace.validate(path_);
    return trace;
  }

  [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
    throw InputError(path_ + ": byte " + std::to_string(offset) + ": " + what);
  }

  std::size_t entry(std::size_t s) const { return kSectionTable + 16 * s; }
  std::string name_of(std::size_t s) const { return std::string("section '") + layout_->sections[s] + "'"; }

  // The bytes of a section, after checking that they lie inside the file.
  std::span<const unsigned char> section(std::size_t s) const {
    const auto offset = get<std::uint64_t>(data_, entry(s));
    const auto length = get<std::uint64_t>(data_, entry(s) + 8);
    if (offset < layout_->header_size || offset % 8 != 0 || offset > size_ || length > size_ - offset) {
      fail(entry(s), name_of(s) + " lies outside the file");
    }
    return {data_ + offset, length};
  }

  // XXH64 of bytes, read in pieces whose mapped pages are dropped after use.
  Xxhash64 hash_of(std::span<const unsigned char> bytes) const {
    Xxhash64 hash;
    for (std::size_t at = 0; at < bytes.size(); at += kScanPiece) {
      const std::size_t length = std::min(kScanPiece, bytes.size() - at);
      hash.update(bytes.data() + at, length);
      drop_resident_pages(bytes.data() + at, length);
    }
    return hash;
  }

  void check_checksum() const {
    const auto stored = get<std::uint64_t>(data_, 8);
    std::uint64_t computed = 0;
    if (layout_->version == 1) {
      computed = hash_of({data_ + kChecksumEnd, size_ - kChecksumEnd}).digest();
    } else {
      Xxhash64 hash;
      hash.update(data_ + kChecksumEnd, layout_->header_size - kChecksumEnd);
      std::uint64_t end = layout_->header_size;
      for (std::size_t s = 0; s < layout_->sections.size(); ++s) {
        const auto bytes = section(s);
        end = std::max<std::uint64_t>(end, static_cast<std::uint64_t>(bytes.data() - data_) + bytes.size());
        const std::uint64_t digest = hash_of(bytes).digest();
        hash.update(&digest, sizeof digest);
      }
      if (end != size_) fail(end, std::to_string(size_ - end) + " bytes after the last section");
      computed = hash.digest();
    }
    if (stored != computed) fail(8, "checksum mismatch: the file is corrupt");
  }

  template <typename T>
  std::span<const T> array(std::size_t s, std::uint64_t n) const {
    const auto bytes = section(s);
    if (bytes.size() != n * sizeof(T)) {
      fail(entry(s) + 8,
           name_of(s) + " has " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(n * sizeof(T)));
    }
    return {reinterpret_cast<const T*>(bytes.data()), n};
  }

  template <typename T>
  Column<T> view(std::size_t s, std::uint64_t n) const {
    const auto values = array<T>(s, n);
    return Column<T>::view(file_, values.data(), values.size());
  }

  template <typename T>
  std::span<const T> table(std::size_t s) const {
    const auto bytes = section(s);
    if (bytes.size() % sizeof(T) != 0) {
      fail(entry(s) + 8, name_of(s) + " has " + std::to_string(bytes.size()) + " bytes, not a whole table");
    }
    return array<T>(s, bytes.size() / sizeof(T));
  }

  void view_columns_v2(Trace& trace, std::uint64_t n, std::uint64_t allocated_events) const {
    trace.thread = ThreadColumn(
        view<std::uint16_t>(kThread, n),
        Column<WideValue>::view(file_, table<WideValue>(kThreadWide).data(), table<WideValue>(kThreadWide).size()));
    trace.requested = narrow_sizes(kRequested, kRequestedWide, n);
    trace.allocated = narrow_sizes(kAllocated, kAllocatedWide, allocated_events);
    trace.stack = view<std::uint32_t>(kStack, n);
    trace.type = view<std::uint32_t>(kType, n);
    trace.time = view<std::uint64_t>(kTime, n);
    trace.free_time = view<std::uint64_t>(kFreeTime, n);
  }

  SizeColumn narrow_sizes(std::size_t codes, std::size_t wide, std::uint64_t n) const {
    const auto entries = table<WideValue>(wide);
    return SizeColumn(view<std::uint32_t>(codes, n), Column<WideValue>::view(file_, entries.data(), entries.size()));
  }

  template <typename T, typename Out>
  void copy(std::size_t s, std::uint64_t n, Out& out) const {
    const auto values = array<T>(s, n);
    out.reserve(n);
    for (std::size_t at = 0; at < n; at += kScanPiece) {
      const auto piece = values.subspan(at, std::min<std::size_t>(kScanPiece, n - at));
      for (const T value : piece) out.push_back(value);
      drop_resident_pages(piece.data(), piece.size_bytes());
    }
  }

  void copy_columns_v1(Trace& trace, std::uint64_t n, std::uint64_t allocated_events) const {
    copy<std::uint32_t>(0, n, trace.thread);
    copy<std::uint64_t>(1, n, trace.requested);
    copy<std::uint64_t>(2, allocated_events, trace.allocated);
    copy<std::uint32_t>(3, n, trace.stack);
    copy<std::uint32_t>(4, n, trace.type);
    copy<std::uint64_t>(5, n, trace.time);
    copy<std::uint64_t>(6, n, trace.free_time);
  }

  std::vector<std::string> read_names(std::size_t s, std::uint32_t id_count) const {
    const auto bytes = section(s);
    const std::size_t base = static_cast<std::size_t>(bytes.data() - data_);
    auto need = [&](std::size_t at, std::size_t length) {
      if (length > bytes.size() || at > bytes.size() - length) fail(base + at, name_of(s) + " is cut short");
    };
    need(0, 4);
    const auto count = get<std::uint32_t>(bytes.data(), 0);
    if (count != 0 && count != id_count) {
      fail(base, name_of(s) + " has " + std::to_string(count) + " names for " + std::to_string(id_count) + " ids");
    }
    if (count > (bytes.size() - 4) / 4) {  // each name takes at least its 4-byte length
      fail(base,
           name_of(s) + " declares " + std::to_string(count) + " names in " + std::to_string(bytes.size()) + " bytes");
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
    if (at != bytes.size()) fail(base + at, name_of(s) + " has trailing bytes");
    return out;
  }

  const std::string& path_;
  std::shared_ptr<const MappedFile> file_;
  const unsigned char* data_;
  std::size_t size_;
  const Layout* layout_ = nullptr;
};

}  // namespace

NativeTraceWriter::NativeTraceWriter(WriteAt write_at, std::uint64_t events, bool has_allocated)
    : write_at_(std::move(write_at)), events_(events), has_allocated_(has_allocated) {
  // The fixed-length columns first, at offsets known now; the wide tables and
  // names, known only at the end, after them.
  const std::pair<Section, std::uint64_t> fixed[] = {
      {kThread, 2}, {kRequested, 4}, {kAllocated, has_allocated ? 4u : 0u}, {kStack, 4}, {kType, 4},
      {kTime, 8},   {kFreeTime, 8}};
  std::uint64_t end = kVersion2.header_size;
  for (const auto& [section, width] : fixed) {
    offsets_[section] = aligned(end);
    lengths_[section] = width * events;
    end = offsets_[section] + lengths_[section];
  }
}

void NativeTraceWriter::put_section(std::size_t section, std::uint64_t at, std::string_view bytes) {
  hashes_[section].update(bytes.data(), bytes.size());
  if (!bytes.empty()) write_at_(offsets_[section] + at, bytes);
}

template <class Values>
void NativeTraceWriter::put_column(std::size_t section, const Values& column) {
  using T = typename Values::value_type;
  put_section(section, written_ * sizeof(T), bytes_of(std::span<const T>(column)));
}

template <class Narrow>
void NativeTraceWriter::put_narrow(std::size_t section, const Narrow& column, std::vector<WideValue>& wide) {
  put_column(section, column.codes());
  for (const WideValue& w : column.wide()) wide.push_back({written_ + w.event, w.value});
}

void NativeTraceWriter::append(const Trace& piece) {
  const std::size_t n = piece.size();
  if (piece.thread.size() != n || piece.stack.size() != n || piece.type.size() != n || piece.time.size() != n ||
      piece.free_time.size() != n || piece.allocated.size() != (has_allocated_ ? n : 0) || n > events_ - written_) {
    throw std::logic_error("native trace writer: a piece does not fit the trace");
  }
  put_narrow(kThread, piece.thread, thread_wide_);
  put_narrow(kRequested, piece.requested, requested_wide_);
  if (has_allocated_) put_narrow(kAllocated, piece.allocated, allocated_wide_);
  put_column(kStack, piece.stack);
  put_column(kType, piece.type);
  put_column(kTime, piece.time);
  put_column(kFreeTime, piece.free_time);
  written_ += n;
}

void NativeTraceWriter::finish(const Trace& ids) {
  if (written_ != events_) throw std::logic_error("native trace writer: events missing at finish");
  const std::string stack_names = encode_names(ids.stack_names);
  const std::string type_names = encode_names(ids.type_names);
  const std::pair<Section, std::string_view> variable[] = {
      {kThreadWide, bytes_of(std::span<const WideValue>(thread_wide_))},
      {kRequestedWide, bytes_of(std::span<const WideValue>(requested_wide_))},
      {kAllocatedWide, bytes_of(std::span<const WideValue>(allocated_wide_))},
      {kStackNames, stack_names},
      {kTypeNames, type_names}};
  std::uint64_t end = offsets_[kFreeTime] + lengths_[kFreeTime];
  for (const auto& [section, bytes] : variable) {
    offsets_[section] = aligned(end);
    lengths_[section] = bytes.size();
    put_section(section, 0, bytes);
    end = offsets_[section] + lengths_[section];
  }
  std::string header(kVersion2.header_size, '\0');
  std::memcpy(header.data(), kNativeTraceMagic, sizeof kNativeTraceMagic);
  put(header, kVersionAt, kNativeTraceVersion);
  put(header, kHeaderSizeAt, static_cast<std::uint32_t>(kVersion2.header_size));
  put(header, kEventsAt, events_);
  put(header, kThreadCountAt, ids.thread_count);
  put(header, kStackCountAt, ids.stack_count);
  put(header, kTypeCountAt, ids.type_count);
  put(header, kFlagsAt, has_allocated_ ? kFlagAllocated : 0u);
  Xxhash64 checksum;
  for (std::size_t s = 0; s < kSections; ++s) {
    put(header, kSectionTable + 16 * s, offsets_[s]);
    put(header, kSectionTable + 16 * s + 8, lengths_[s]);
  }
  checksum.update(header.data() + kChecksumEnd, header.size() - kChecksumEnd);
  for (const Xxhash64& section : hashes_) {
    const std::uint64_t digest = section.digest();
    checksum.update(&digest, sizeof digest);
  }
  put(header, 8, checksum.digest());
  write_at_(0, header);
}

std::string encode_native_trace(const Trace& trace) {
  std::string out;
  NativeTraceWriter writer(
      [&out](std::uint64_t offset, std::string_view bytes) {
        if (out.size() < offset + bytes.size()) out.resize(offset + bytes.size());
        std::memcpy(out.data() + offset, bytes.data(), bytes.size());
      },
      trace.size(), trace.has_allocated_sizes());
  writer.append(trace);
  writer.finish(trace);
  return out;
}

void write_native_trace(const Trace& trace, const std::string& path) {
  AtomicOutput output(path);
  NativeTraceWriter writer([&output](std::uint64_t offset, std::string_view bytes) { output.write_at(offset, bytes); },
                           trace.size(), trace.has_allocated_sizes());
  writer.append(trace);
  writer.finish(trace);
  output.commit();
}

Trace read_native_trace(const std::string& path) {
  return NativeDecoder(path, std::make_shared<const MappedFile>(path)).decode();
}

std::uint64_t native_trace_checksum(std::string_view file) {
  const auto* data = reinterpret_cast<const unsigned char*>(file.data());
  Xxhash64 checksum;
  checksum.update(data + kChecksumEnd, kVersion2.header_size - kChecksumEnd);
  for (std::size_t s = 0; s < kVersion2.sections.size(); ++s) {
    const auto offset = get<std::uint64_t>(data, kSectionTable + 16 * s);
    const auto length = get<std::uint64_t>(data, kSectionTable + 16 * s + 8);
    const std::uint64_t digest = xxhash64(data + offset, length);
    checksum.update(&digest, sizeof digest);
  }
  return checksum.digest();
}

std::optional<NativeTraceCounts> read_native_trace_counts(const std::string& path) {
  unsigned char header[kSectionTable];
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return std::nullopt;
  const auto version = get<std::uint32_t>(header, kVersionAt);
  if (std::memcmp(header, kNativeTraceMagic, sizeof kNativeTraceMagic) != 0 || version < 1 ||
      version > kNativeTraceVersion) {
    return std::nullopt;
  }
  return NativeTraceCounts{get<std::uint64_t>(header, kEventsAt), get<std::uint32_t>(header, kThreadCountAt),
                           get<std::uint32_t>(header, kStackCountAt), get<std::uint32_t>(header, kTypeCountAt)};
}

}  // namespace allocsim
