#include "allocsim/profile/gzip.h"

#include <zlib.h>

#include <stdexcept>

#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

constexpr int kGzipWindowBits = 15 + 16;  // zlib's "gzip wrapper only" setting
constexpr std::size_t kChunk = 1 << 16;

}  // namespace

bool is_gzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f && static_cast<unsigned char>(data[1]) == 0x8b;
}

std::string gunzip(std::string_view data, const std::string& where, std::size_t limit) {
  z_stream stream{};
  if (inflateInit2(&stream, kGzipWindowBits) != Z_OK) throw std::runtime_error("inflateInit2 failed");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::string out;
  int status = Z_OK;
  for (;;) {
    const std::size_t used = out.size();
    out.resize(used + kChunk);
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    stream.avail_out = static_cast<uInt>(kChunk);
    status = inflate(&stream, Z_NO_FLUSH);
    out.resize(used + kChunk - stream.avail_out);
    if (out.size() > limit) status = Z_MEM_ERROR;
    if (status != Z_OK && status != Z_STREAM_END) break;
    if (status == Z_STREAM_END) {
      // Members written one after another are one file, as gzip(1) and Go's
      // gzip.Reader (which pprof uses) read them; anything else after the end of a
      // member is not gzip, and is refused rather than ignored.
      if (stream.avail_in == 0) break;
      const std::string_view rest(reinterpret_cast<const char*>(stream.next_in), stream.avail_in);
      if (!is_gzip(rest)) {
        const std::size_t offset = data.size() - rest.size();
        inflateEnd(&stream);
        throw InputError(where + ": byte " + std::to_string(offset) + ": " + std::to_string(rest.size()) +
                         " bytes of trailing data after the gzip stream");
      }
      inflateReset(&stream);
    }
  }
  const std::string message = stream.msg ? stream.msg : "zlib error";
  inflateEnd(&stream);
  if (status == Z_STREAM_END) return out;
  if (status == Z_MEM_ERROR) {
    throw InputError(where + ": decompresses to more than " + std::to_string(limit) + " bytes (the limit)");
  }
  if (status == Z_BUF_ERROR) throw InputError(where + ": truncated gzip stream");
  throw InputError(where + ": corrupt gzip stream (" + message + ")");
}

std::string gzip(std::string_view data) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

}  // namespace allocsim::profile
