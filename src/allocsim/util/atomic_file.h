#pragma once
// Writes a whole file or nothing: the content goes to a temporary file beside the
// target, is flushed, and is renamed over the target, so an interrupted run never
// leaves a half-written result; an interrupt (interrupt_cleanup.h) removes the
// temporary file. The parent directory must exist: nothing is created silently.
#include <string>

namespace allocsim {

void write_file_atomically(const std::string& path, const std::string& content);

// Creates `path` and its parents (a directory inside one allocsim writes, such as
// a results directory's charts/); a failure is an InputError naming the path.
void create_output_directory(const std::string& path);

}  // namespace allocsim
