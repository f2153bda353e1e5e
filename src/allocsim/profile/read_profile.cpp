#include "allocsim/profile/read_profile.h"

#include <filesystem>
#include <fstream>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/pprof_reader.h"
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

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

HeapProfile parse_profile(const std::string& contents, const std::string& path, const ReadOptions& options) {
  if (options.window != "inuse" && options.window != "alloc") {
    throw InputError("--window must be inuse or alloc, got " + printable(options.window));
  }
  HeapProfile profile;
  if (is_gzip(contents)) {
    profile = read_pprof(gunzip(contents, path, kMaxPprofBytes), path, options.window);
  } else if (starts_with(contents, "heap_v2/")) {
    profile = read_jemalloc_heap(contents, path, options.window, options.jemalloc_unbias);
  } else if (starts_with(contents, "heap profile:")) {
    profile = read_gperftools_heap(contents, path, options.window);
  } else {
    throw InputError(path + ": not a heap profile (neither gzip'd pprof nor a \"heap_v2/\" or "
                            "\"heap profile:\" text header)");
  }
  if (profile.entries.empty()) throw InputError(path + ": no sampled " + options.window + " records");
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
