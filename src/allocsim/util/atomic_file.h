#pragma once
// Writes a whole file or nothing: the content goes to a temporary file beside the
// target, is flushed, and is renamed over the target, so an interrupted run never
// leaves a half-written result; an interrupt (interrupt_cleanup.h) removes the
// temporary file. The parent directory must exist: nothing is created silently.
#include <cstdio>
#include <string>

namespace allocsim {

void write_file_atomically(const std::string& path, const std::string& content);

// The temporary file `path`.tmp.<pid> beside the output `path`, and its creation by
// this call and no one else's: a file or link already of that name is refused, never
// written through. The file closes on exec. A failure is an InputError that starts
// with `named` (the output as the user gave it) and says why. Call it inside
// RemovedOnInterrupt's prepare step, so that only a file this process created is
// ever registered for removal.
std::string temporary_path_for(const std::string& path);
std::FILE* create_temporary_file(const std::string& temporary, const std::string& named);

// Creates `path` and its parents (a directory inside one allocsim writes, such as
// a results directory's charts/); a failure is an InputError naming the path.
void create_output_directory(const std::string& path);

}  // namespace allocsim
