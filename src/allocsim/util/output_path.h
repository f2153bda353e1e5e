#pragma once
// Output paths checked before anything is written, so that a command that would
// fail to write its last file fails before its first.
#include <string>

namespace allocsim {

enum class OutputKind { file, directory };

// Checks, without creating anything, that `path` can be written as a file or a
// directory: it is not already the other kind, no existing part of its parents is a
// file, and the nearest existing parent is writable. Throws an InputError naming
// `what` (a flag or a file) and the path otherwise.
void check_output_path(const std::string& path, OutputKind kind, const std::string& what);

}  // namespace allocsim
