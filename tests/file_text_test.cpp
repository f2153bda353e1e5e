// read_file_text() and try_read_file_text() (util/file_text.h): a file's bytes whole
// and unchanged, and one error naming the file where it cannot be opened or read.
#include "allocsim/util/file_text.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "allocsim/util/error.h"
#include "testing/scratch_directory.h"

namespace allocsim {
namespace {

using namespace std::string_literals;
using testing::ScratchDirectory;

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::string message_of_reading(const std::string& path, std::string_view what) {
  try {
    read_file_text(path, what);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(FileText, ReadsEveryByteUnchanged) {
  ScratchDirectory dir;
  // NUL, CR LF, a byte that is not UTF-8 and more than one 64 KiB chunk.
  const std::string bytes = "a\0b\r\n\xff"s + std::string(70000, 'x') + "end";
  write_bytes(dir.file("bytes.bin"), bytes);
  EXPECT_EQ(read_file_text(dir.file("bytes.bin"), "file"), bytes);
  EXPECT_EQ(try_read_file_text(dir.file("bytes.bin")), bytes);
}

TEST(FileText, AnEmptyFileIsEmptyText) {
  ScratchDirectory dir;
  write_bytes(dir.file("empty"), "");
  EXPECT_EQ(read_file_text(dir.file("empty"), "file"), "");
  EXPECT_EQ(try_read_file_text(dir.file("empty")), "");
}

TEST(FileText, AMissingFileIsNamedWithWhatItWasFor) {
  ScratchDirectory dir;
  const std::string missing = dir.file("missing.json");
  EXPECT_EQ(message_of_reading(missing, "scenario file"), missing + ": cannot open scenario file");
  EXPECT_EQ(try_read_file_text(missing), std::nullopt);
}

TEST(FileText, ADirectoryOpensButCannotBeRead) {
  ScratchDirectory dir;
  EXPECT_EQ(message_of_reading(dir.path().string(), "part file"), dir.path().string() + ": cannot read part file");
  EXPECT_EQ(try_read_file_text(dir.path()), std::nullopt);
}

}  // namespace
}  // namespace allocsim
