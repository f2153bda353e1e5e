#pragma once
// A whole file read into memory, for the readers that parse their input as one text
// (JSON, CSV, scenarios, SVG, partial states).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace allocsim {

// The file's bytes, unchanged; nullopt where it cannot be opened or read to its end.
std::optional<std::string> try_read_file_text(const std::filesystem::path& path);

// The file's bytes, unchanged. Throws InputError "PATH: cannot open WHAT" where it
// cannot be opened and "PATH: cannot read WHAT" where reading stops short; WHAT names
// the file for the user ("scenario file", "part file").
std::string read_file_text(const std::filesystem::path& path, std::string_view what);

}  // namespace allocsim
