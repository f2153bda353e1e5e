#include "allocsim/util/file_text.h"

#include <fstream>

#include "allocsim/util/error.h"

namespace allocsim {
namespace {

enum class ReadOutcome { kRead, kNotOpened, kStoppedShort };

ReadOutcome read_whole(const std::filesystem::path& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ReadOutcome::kNotOpened;
  // Read through the stream, not its buffer: a read error (a directory opened as a
  // file, an I/O error) then sets badbit instead of looking like the file's end.
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) text.append(chunk, static_cast<std::size_t>(in.gcount()));
  return in.bad() ? ReadOutcome::kStoppedShort : ReadOutcome::kRead;
}

}  // namespace

std::optional<std::string> try_read_file_text(const std::filesystem::path& path) {
  std::string text;
  if (read_whole(path, text) != ReadOutcome::kRead) return std::nullopt;
  return text;
}

std::string read_file_text(const std::filesystem::path& path, std::string_view what) {
  std::string text;
  switch (read_whole(path, text)) {
    case ReadOutcome::kRead: return text;
    case ReadOutcome::kNotOpened: throw InputError(path.string() + ": cannot open " + std::string(what));
    case ReadOutcome::kStoppedShort: break;
  }
  throw InputError(path.string() + ": cannot read " + std::string(what));
}

}  // namespace allocsim
