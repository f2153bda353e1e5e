#include "allocsim/profile/read_profile.h"

#include <fstream>
#include <sstream>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/pprof_reader.h"
#include "allocsim/profile/text_profile_reader.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim::profile {
namespace {

// Larger profiles than this (decompressed) are refused rather than read.
constexpr std::size_t kMaxProfileBytes = std::size_t{1} << 30;

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

HeapProfile parse_profile(const std::string& contents, const std::string& path,
                          const ReadOptions& options) {
  if (options.window != "inuse" && options.window != "alloc") {
    throw InputError("--window must be inuse or alloc, got " + printable(options.window));
  }
  HeapProfile profile;
  if (is_gzip(contents)) {
    profile = read_pprof(gunzip(contents, path, kMaxProfileBytes), path, options.window);
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
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open");
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::size_t>(in.tellg());
  if (size > kMaxProfileBytes) throw InputError(path + ": larger than 1 GiB");
  in.seekg(0);
  std::string contents(size, '\0');
  if (!in.read(contents.data(), static_cast<std::streamsize>(size))) {
    throw InputError(path + ": read failed");
  }
  return parse_profile(contents, path, options);
}

}  // namespace allocsim::profile
