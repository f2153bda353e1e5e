#pragma once
// What a command may write, checked before anything is written, so that a command
// that would fail to write its last output fails before its first, and so that no
// command deletes or overwrites what allocsim did not write (docs/bad-input.md,
// "Outputs"):
// - a results directory is replaced whole only if allocsim wrote it: it carries the
//   marker file kResultsMarker, which every staged directory gets first
//   (staged_directory.h); a directory without it is never replaced;
// - no output replaces, holds or overwrites an input of the same command, the
//   working directory or a directory above it, the filesystem root, a top-level
//   directory or a system directory (/etc, /usr, ...);
// - an output's missing parent is an error, except the one directory that holds
//   results directories (`--out`), which is created when its own parent exists.
// A violation is an InputError naming the flag, the path and what to do instead.
#include <filesystem>
#include <string>
#include <vector>

namespace allocsim {

// The file whose presence marks a directory that allocsim wrote.
inline constexpr char kResultsMarker[] = ".allocsim-results";

// The paths a command reads (scenario files, traces, profiles, part files): its
// outputs never replace, hold or overwrite them.
class InputPaths {
 public:
  InputPaths() = default;
  InputPaths(std::initializer_list<std::string> paths);
  void add(const std::string& path);
  void add_all(const InputPaths& others);
  // The first input that is `path` or lies inside the directory `path`, as given.
  const std::string* held_by(const std::filesystem::path& path) const;
  // The first input that is the same file as `path` (through links as well).
  const std::string* same_file_as(const std::filesystem::path& path) const;

 private:
  struct Input {
    std::string given;
    std::filesystem::path resolved;
  };
  std::vector<Input> inputs_;
};

// Checks that `path` may be written as an output file: not a directory, its parent
// exists and is writable, it is not an input and not inside a system directory.
void check_output_file(const std::string& path, const InputPaths& inputs, const std::string& what);

// An output file of a command and the flag that names it.
struct OutputFile {
  std::string path;  // empty: not asked for
  std::string flag;
};

// check_output_file for each output asked for, and no two the same file, by any name
// or link: "--pprof "x": is also --csv; give the two outputs different paths".
void check_output_files(const std::vector<OutputFile>& outputs, const InputPaths& inputs);

// Checks that the output file `path` is not the results directory `directory`, nor in
// it: the command replaces that directory whole, which would delete the file.
void check_outside_results_directory(const std::string& path, const std::string& directory, const std::string& what);

// Checks that the results directory `path` may be replaced whole: if it exists it is
// a directory (not a link) that allocsim wrote, it holds no input, the working
// directory or a system directory, and its parent exists or can be created.
void check_results_directory(const std::string& path, const InputPaths& inputs, const std::string& what);

// True if `path` is a directory (not a link) holding allocsim's marker file.
bool written_by_allocsim(const std::filesystem::path& path);

// The marker's text: what wrote the directory, for a person who finds it.
std::string results_marker_text(const std::string& written_by);

}  // namespace allocsim
