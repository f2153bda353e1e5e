#pragma once
// Arguments taken as plain Python objects and read here rather than by pybind11's
// casters, so that a bad one raises a one-line exception that names it. (A failed
// cast raises a TypeError that lists the private signature and every argument's
// value, the whole scenario text included.) An integer out of range, a negative one
// for an unsigned argument or one past 2^64, raises ValueError; an argument of the
// wrong type TypeError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/util/error.h"

namespace allocsim::python {

// Raises TypeError with `message` made one line.
[[noreturn]] void throw_type_error(const std::string& message);

// `value` as a Python int: an int, a bool or anything with __index__ (NumPy's
// integers); TypeError otherwise.
pybind11::int_ integer_of(pybind11::handle value, const std::string& name);

// How an integer shows in a message: its digits, or its size when it has more
// than 64 bits (Python refuses to print one of over 4300 digits).
std::string shown(const pybind11::int_& number);

template <typename T>
T integer_argument(pybind11::handle value, const std::string& name, T min = std::numeric_limits<T>::min(),
                   T max = std::numeric_limits<T>::max()) {
  const pybind11::int_ number = integer_of(value, name);
  if (number < pybind11::int_(min) || number > pybind11::int_(max)) {
    throw InputError(name + " must be in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " +
                     shown(number));
  }
  return number.cast<T>();
}

// As integer_argument, None giving nullopt.
template <typename T>
std::optional<T> optional_integer(pybind11::handle value, const std::string& name,
                                  T min = std::numeric_limits<T>::min(), T max = std::numeric_limits<T>::max()) {
  if (value.is_none()) return std::nullopt;
  return integer_argument<T>(value, name, min, max);
}

// A float, an integer or anything with __float__, as a double; ValueError for an
// integer too large for a double. NaN and infinities are returned as they are.
double real_argument(pybind11::handle value, const std::string& name);

// True or False (a Python or NumPy bool); TypeError for anything else, which
// pybind11 would take by its truth value ("no" as true).
bool bool_argument(pybind11::handle value, const std::string& name);

// A str, as UTF-8; ValueError for one that has no UTF-8 form (a lone surrogate).
std::string string_argument(pybind11::handle value, const std::string& name);
std::optional<std::string> optional_string(pybind11::handle value, const std::string& name);

// A str, bytes or os.PathLike naming a file; ValueError for a NUL character,
// which would cut the name short when the file is opened.
std::string path_argument(pybind11::handle value, const std::string& name);

// A list, tuple or other sequence of str (not a str itself); None: empty.
std::vector<std::string> string_list_argument(pybind11::handle value, const std::string& name);

// A NumPy array; None: nullopt.
std::optional<pybind11::array> optional_array(pybind11::handle value, const std::string& name);

}  // namespace allocsim::python
