#include "allocsim/trace/format/byte_source.h"

#include <zlib.h>
#include <zstd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "allocsim/util/error.h"

namespace allocsim {

const char* to_string(Compression compression) {
  switch (compression) {
    case Compression::none: return "none";
    case Compression::zstd: return "zstd";
    case Compression::gzip: return "gzip";
  }
  return "?";
}

namespace {

constexpr std::size_t kChunk = 1 << 16;

// A file read in chunks, counting the bytes handed out.
class InputFile {
 public:
  explicit InputFile(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "rb")) {
    if (file_ == nullptr) throw InputError(path + ": cannot open file");
  }
  ~InputFile() { std::fclose(file_); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  std::size_t read(char* out, std::size_t capacity) {
    const std::size_t n = std::fread(out, 1, capacity, file_);
    if (n < capacity && std::ferror(file_)) throw InputError(path_ + ": read error");
    offset_ += n;
    return n;
  }
  std::uint64_t offset() const { return offset_; }
  [[noreturn]] void fail(std::uint64_t at, const std::string& what) const {
    throw InputError(path_ + ": byte " + std::to_string(at) + ": " + what);
  }

 private:
  std::string path_;
  std::FILE* file_;
  std::uint64_t offset_ = 0;
};

class PlainSource : public ByteSource {
 public:
  explicit PlainSource(const std::string& path) : file_(path) {}
  std::size_t read(char* out, std::size_t capacity) override { return file_.read(out, capacity); }

 private:
  InputFile file_;
};

class ZstdSource : public ByteSource {
 public:
  explicit ZstdSource(const std::string& path) : file_(path), input_(kChunk), stream_(ZSTD_createDStream()) {
    if (stream_ == nullptr) throw std::bad_alloc();
  }
  ~ZstdSource() override { ZSTD_freeDStream(stream_); }

  std::size_t read(char* out, std::size_t capacity) override {
    ZSTD_outBuffer output{out, capacity, 0};
    while (true) {
      if (in_.pos == in_.size && !file_done_) refill();
      if (in_.pos == in_.size && file_done_ && !frame_open_) return 0;
      const std::size_t result = ZSTD_decompressStream(stream_, &output, &in_);
      if (ZSTD_isError(result)) {
        if (!frame_open_ && frame_end_ > 0) file_.fail(frame_end_, "garbage after the end of the zstd stream");
        file_.fail(consumed(), std::string("corrupt zstd data: ") + ZSTD_getErrorName(result));
      }
      frame_open_ = result != 0;
      if (!frame_open_) frame_end_ = consumed();
      if (output.pos > 0) return output.pos;
      if (in_.pos == in_.size && file_done_ && frame_open_) {
        file_.fail(consumed(), "truncated zstd stream (the last frame is incomplete)");
      }
    }
  }

 private:
  void refill() {
    const std::size_t n = file_.read(input_.data(), input_.size());
    file_done_ = n == 0;
    in_ = ZSTD_inBuffer{input_.data(), n, 0};
  }
  std::uint64_t consumed() const { return file_.offset() - (in_.size - in_.pos); }

  InputFile file_;
  std::vector<char> input_;
  ZSTD_DStream* stream_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  bool file_done_ = false;
  bool frame_open_ = false;
  std::uint64_t frame_end_ = 0;  // where the last complete frame ends
};

class GzipSource : public ByteSource {
 public:
  explicit GzipSource(const std::string& path) : file_(path), input_(kChunk) {
    if (inflateInit2(&stream_, 15 + 16) != Z_OK) throw std::bad_alloc();
  }
  ~GzipSource() override { inflateEnd(&stream_); }

  std::size_t read(char* out, std::size_t capacity) override {
    stream_.next_out = reinterpret_cast<Bytef*>(out);
    stream_.avail_out = static_cast<uInt>(capacity);
    while (true) {
      if (stream_.avail_in == 0 && !file_done_) refill();
      if (member_done_) {
        if (stream_.avail_in == 0 && file_done_) return capacity - stream_.avail_out;
        if (stream_.next_in[0] != 0x1f || (stream_.avail_in > 1 && stream_.next_in[1] != 0x8b)) {
          file_.fail(consumed(), "garbage after the end of the gzip stream");
        }
        inflateReset(&stream_);  // another gzip member follows
        member_done_ = false;
      }
      const int result = inflate(&stream_, Z_NO_FLUSH);
      if (result == Z_STREAM_END) {
        member_done_ = true;
      } else if (result == Z_BUF_ERROR) {
        if (stream_.avail_in == 0 && file_done_) {
          file_.fail(consumed(), "truncated gzip stream (the last member is incomplete)");
        }
      } else if (result != Z_OK) {
        file_.fail(consumed(),
                   std::string("corrupt gzip data: ") + (stream_.msg != nullptr ? stream_.msg : "inflate failed"));
      }
      const std::size_t produced = capacity - stream_.avail_out;
      if (produced > 0) return produced;
    }
  }

 private:
  void refill() {
    const std::size_t n = file_.read(input_.data(), input_.size());
    file_done_ = n == 0;
    stream_.next_in = reinterpret_cast<Bytef*>(input_.data());
    stream_.avail_in = static_cast<uInt>(n);
  }
  std::uint64_t consumed() const { return file_.offset() - stream_.avail_in; }

  InputFile file_;
  std::vector<char> input_;
  z_stream stream_{};
  bool file_done_ = false;
  bool member_done_ = false;
};

}  // namespace

Compression detect_compression(const std::string& path) {
  std::array<unsigned char, 4> magic{};
  std::size_t n = 0;
  {
    InputFile file(path);
    n = file.read(reinterpret_cast<char*>(magic.data()), magic.size());
  }
  if (n >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd) {
    return Compression::zstd;
  }
  if (n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return Compression::gzip;
  return Compression::none;
}

std::unique_ptr<ByteSource> open_decompressed(const std::string& path) {
  switch (detect_compression(path)) {
    case Compression::zstd: return std::make_unique<ZstdSource>(path);
    case Compression::gzip: return std::make_unique<GzipSource>(path);
    case Compression::none: break;
  }
  return std::make_unique<PlainSource>(path);
}

}  // namespace allocsim
