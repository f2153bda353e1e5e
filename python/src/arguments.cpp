#include "arguments.h"

#include <cmath>

#include "one_line.h"

namespace py = pybind11;

namespace allocsim::python {
namespace {

std::string type_name(py::handle value) { return Py_TYPE(value.ptr())->tp_name; }

}  // namespace

void throw_type_error(const std::string& message) { throw py::type_error(one_line(message)); }

py::int_ integer_of(py::handle value, const std::string& name) {
  if (!PyIndex_Check(value.ptr())) throw_type_error(name + " must be an integer, got " + type_name(value));
  PyObject* number = PyNumber_Index(value.ptr());
  if (number == nullptr) throw py::error_already_set();  // its __index__ raised
  return py::reinterpret_steal<py::int_>(number);
}

std::string shown(const py::int_& number) {
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow == 0) return std::to_string(value);
  const unsigned long long unsigned_value = PyLong_AsUnsignedLongLong(number.ptr());
  if (!PyErr_Occurred()) return std::to_string(unsigned_value);
  PyErr_Clear();
  const auto bits = number.attr("bit_length")().cast<std::size_t>();
  return std::string(overflow < 0 ? "-" : "") + "an integer of " + std::to_string(bits) + " bits";
}

double real_argument(py::handle value, const std::string& name) {
  const PyNumberMethods* number = Py_TYPE(value.ptr())->tp_as_number;
  const bool is_number =
      PyFloat_Check(value.ptr()) || PyIndex_Check(value.ptr()) || (number != nullptr && number->nb_float != nullptr);
  if (!is_number) throw_type_error(name + " must be a number, got " + type_name(value));
  const double result = PyFloat_AsDouble(value.ptr());
  if (result == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    const std::string what = PyIndex_Check(value.ptr()) ? shown(integer_of(value, name)) : "a value out of range";
    throw InputError(name + " must be a number a double can hold, got " + what);
  }
  return result;
}

bool bool_argument(py::handle value, const std::string& name) {
  const bool is_bool = PyBool_Check(value.ptr()) || py::isinstance(value, py::module_::import("numpy").attr("bool_"));
  if (!is_bool) throw_type_error(name + " must be True or False, got " + type_name(value));
  return PyObject_IsTrue(value.ptr()) == 1;
}

std::string string_argument(py::handle value, const std::string& name) {
  if (!PyUnicode_Check(value.ptr())) throw_type_error(name + " must be a str, got " + type_name(value));
  Py_ssize_t size = 0;
  const char* text = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
  if (text == nullptr) {
    PyErr_Clear();
    throw InputError(name + " has no UTF-8 form (a lone surrogate?)");
  }
  return {text, static_cast<std::size_t>(size)};
}

std::optional<std::string> optional_string(py::handle value, const std::string& name) {
  if (value.is_none()) return std::nullopt;
  return string_argument(value, name);
}

std::string path_argument(py::handle value, const std::string& name) {
  const bool is_path = PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr()) || py::hasattr(value, "__fspath__");
  if (!is_path) throw_type_error(name + " must be a str or an os.PathLike, got " + type_name(value));
  const py::module_ os = py::module_::import("os");
  const std::string path = string_argument(os.attr("fsdecode")(value), name);
  // Escaped here: the message reaches Python as a C string, which would end at the NUL.
  if (path.find('\0') != std::string::npos) throw InputError(name + " contains a NUL character: " + one_line(path));
  return path;
}

std::vector<std::string> string_list_argument(py::handle value, const std::string& name) {
  if (value.is_none()) return {};
  if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr()) || !PySequence_Check(value.ptr())) {
    throw_type_error(name + " must be a list of str, got " + type_name(value));
  }
  const auto items = py::reinterpret_borrow<py::sequence>(value);
  std::vector<std::string> strings;
  strings.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    strings.push_back(string_argument(items[i], name + "[" + std::to_string(i) + "]"));
  }
  return strings;
}

std::optional<py::array> optional_array(py::handle value, const std::string& name) {
  if (value.is_none()) return std::nullopt;
  if (!py::isinstance<py::array>(value)) throw_type_error(name + " must be a NumPy array, got " + type_name(value));
  return py::reinterpret_borrow<py::array>(value);
}

}  // namespace allocsim::python
