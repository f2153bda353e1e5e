#pragma once
// Files for the trace format tests: a scratch directory per test (scratch_directory.h),
// the committed recordings under traces/, and writers for plain, zstd and gzip text.
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "testing/build_paths.h"
#include "testing/scratch_directory.h"

namespace allocsim::testing {

inline std::string recorded_trace(const std::string& name) {
  return allocsim::testing::source_dir() + "/traces/" + name;
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path);
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string zstd_compress(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const std::size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  if (ZSTD_isError(n)) throw std::runtime_error("zstd compression failed");
  out.resize(n);
  return out;
}

inline std::string zstd_decompress_file(const std::string& path) {
  const std::string compressed = read_bytes(path);
  std::string out;
  std::string chunk(1 << 16, '\0');
  ZSTD_DCtx* context = ZSTD_createDCtx();
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  while (true) {
    ZSTD_outBuffer o{chunk.data(), chunk.size(), 0};
    if (ZSTD_isError(ZSTD_decompressStream(context, &o, &in))) throw std::runtime_error("bad zstd");
    out.append(chunk.data(), o.pos);
    if (in.pos == in.size && o.pos < o.size) break;
  }
  ZSTD_freeDCtx(context);
  return out;
}

inline std::string gzip_compress(const std::string& text) {
  z_stream stream{};
  deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&stream, text.size()) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

}  // namespace allocsim::testing
