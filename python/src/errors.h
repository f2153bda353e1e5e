#pragma once
// How the library's errors reach Python: InputError becomes ValueError with the
// CLI's one-line message (the text after "allocsim: error: "), a missing input
// file FileNotFoundError with the same message. Each message is made one line
// (one_line.h) on its way: a file name, scheme or option it quotes may hold a newline.
#include <pybind11/pybind11.h>

#include <filesystem>
#include <string>

#include "allocsim/util/error.h"
#include "one_line.h"

namespace allocsim::python {

void register_error_translation();

// Runs read(path); an InputError about a path that does not exist is raised as
// FileNotFoundError (the message unchanged), any other as ValueError.
template <typename Read>
auto read_input_file(const std::string& path, Read&& read) {
  try {
    return read(path);
  } catch (const InputError& e) {
    if (!std::filesystem::exists(path)) {
      PyErr_SetString(PyExc_FileNotFoundError, one_line(e.what()).c_str());
      throw pybind11::error_already_set();
    }
    throw;
  }
}

}  // namespace allocsim::python
