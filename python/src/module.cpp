// The compiled half of the Python package `allocsim` (python/allocsim/ wraps it
// with pandas). It binds only the high-level entry points: scenario parse, run and
// result writers, trace files, the scheme registry and the interval functions.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "errors.h"

PYBIND11_MODULE(_allocsim, module) {
  module.doc() = "allocsim's engine; use the package `allocsim`, which wraps this module.";
  module.attr("__version__") = ALLOCSIM_VERSION;
  allocsim::python::register_error_translation();
  allocsim::python::bind_run(module);
  allocsim::python::bind_trace(module);
  allocsim::python::bind_catalogue(module);
}
