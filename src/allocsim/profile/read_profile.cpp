#include "allocsim/profile/read_profile.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/pprof_reader.h"
#include "allocsim/profile/symbols.h"
#include "allocsim/profile/text_profile_reader.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim::profile {
namespace {

// Files larger than this are refused rather than read.
constexpr std::size_t kMaxProfileBytes = std::size_t{1} << 30;
// A pprof decompressing beyond this is refused: its protobuf, parsed, takes several
// times its size in memory (real Go heap profiles decompress to a few MiB).
constexpr std::size_t kMaxPprofBytes = std::size_t{1} << 28;

// Whether `data` opens as an uncompressed profile.proto: its first byte is the tag of
// a Profile field with that field's wire type (1-6, 11: messages and strings; 7-10,
// 12-14: numbers; 13 packed or not), and it holds bytes no text has (a protobuf's
// small varints and lengths). dd-trace-go's fastdelta fixtures and Pyroscope's
// heap.pb are such files; the wire scan then checks the rest.
bool looks_like_protobuf(const std::string& data) {
  if (data.empty()) return false;
  const auto tag = static_cast<unsigned char>(data[0]);
  const unsigned field = tag >> 3;
  const unsigned wire = tag & 7;
  const bool length = wire == 2 && ((field >= 1 && field <= 6) || field == 11 || field == 13);
  const bool varint = wire == 0 && ((field >= 7 && field <= 10) || (field >= 12 && field <= 14));
  if (!length && !varint) return false;
  const std::size_t look = std::min<std::size_t>(data.size(), 4096);
  for (std::size_t i = 0; i < look; ++i) {
    const auto c = static_cast<unsigned char>(data[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return true;
  }
  return false;
}

// One line for a file allocsim does not read: what it is, when its first bytes say.
[[noreturn]] void refuse_unknown(const std::string& contents, const std::string& path) {
  std::string what = "neither pprof (gzip'd or not) nor a \"heap_v2/\" or \"heap profile:\" text header";
  if (contents.starts_with("--- heapz")) {
    what = "a Java heapz text profile (pprof's legacy Java format, whose sampling allocsim does not model)";
  } else if (contents.starts_with("--- contention")) {
    what = "a contention profile (lock waits, not allocations)";
  } else if (contents.starts_with("threadcreate profile:") || contents.starts_with("goroutine profile:")) {
    what = "a Go " + contents.substr(0, contents.find(' ')) + " profile (stacks, not allocations)";
  } else if (contents.size() >= 8 && contents.compare(0, 4, std::string(4, '\0')) == 0) {
    what = "a legacy binary CPU profile (gperftools' profiler or Go before 1.9: time, not allocations)";
  }
  throw InputError(path + ": not a heap profile: " + what + "; " + kReadableFormats);
}

}  // namespace

HeapProfile parse_profile(const std::string& contents, const std::string& path, const ReadOptions& options) {
  if (!options.window.empty() && options.window != "inuse" && options.window != "alloc") {
    throw InputError("--window must be inuse or alloc, got " + printable(options.window));
  }
  // The text formats have no default window of their own: live objects, as their tools show.
  const std::string text_window = options.window.empty() ? "inuse" : options.window;
  HeapProfile profile;
  if (is_gzip(contents)) {
    profile = read_pprof(gunzip(contents, path, kMaxPprofBytes), path, options.window);
  } else if (contents.starts_with("heap_v2/")) {
    profile = read_jemalloc_heap(contents, path, text_window, options.jemalloc_unbias);
  } else if (contents.starts_with("heap profile:")) {
    profile = read_gperftools_heap(contents, path, text_window);
  } else if (looks_like_protobuf(contents)) {
    if (contents.size() > kMaxPprofBytes) throw InputError(path + ": a protobuf larger than 256 MiB (the limit)");
    profile = read_pprof(contents, path, options.window);
  } else {
    refuse_unknown(contents, path);
  }
  if (profile.entries.empty()) throw InputError(path + ": no sampled " + profile.window + " records");
  const bool addresses_only = profile.format.find("pprof") == std::string::npos;
  if (options.symbolize && addresses_only) profile.symbols_note = symbolize(profile);
  return profile;
}

HeapProfile read_profile(const std::string& path, const ReadOptions& options) {
  const std::string where = printable_name(path);
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw InputError(where + ": is a directory, not a profile");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where + ": cannot open");
  // Read in pieces rather than by the size the file claims, so that pipes and
  // special files are read as they come and no more than the limit is ever held.
  std::string contents;
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  while (in) {
    const std::size_t used = contents.size();
    contents.resize(used + kPiece);
    in.read(contents.data() + used, static_cast<std::streamsize>(kPiece));
    contents.resize(used + static_cast<std::size_t>(in.gcount()));
    if (contents.size() > kMaxProfileBytes) throw InputError(where + ": larger than 1 GiB (the limit)");
  }
  if (in.bad()) throw InputError(where + ": read failed");
  // Messages name the file as `where`; the profile keeps its name as given (JSON
  // output writes it through json_text, the table through printable_name).
  HeapProfile profile = parse_profile(contents, where, options);
  profile.path = path;
  return profile;
}

}  // namespace allocsim::profile
