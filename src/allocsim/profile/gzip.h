#pragma once
// gzip (RFC 1952) decompression with zlib, for pprof files.
#include <string>
#include <string_view>

namespace allocsim::profile {

// Whether `data` starts with the gzip magic bytes 1f 8b.
bool is_gzip(std::string_view data);

// The decompressed contents; InputError naming `where` when the stream is corrupt,
// truncated, or would decompress beyond `limit` bytes.
std::string gunzip(std::string_view data, const std::string& where, std::size_t limit);

// gzip of `data`, for writing pprof files.
std::string gzip(std::string_view data);

}  // namespace allocsim::profile
