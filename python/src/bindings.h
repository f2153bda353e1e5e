#pragma once
// One function per group of entry points, each defined in its own file.
#include <pybind11/pybind11.h>

namespace allocsim::python {

void bind_run(pybind11::module_& module);        // run_binding.cpp
void bind_trace(pybind11::module_& module);      // trace_binding.cpp
void bind_catalogue(pybind11::module_& module);  // catalogue_binding.cpp

}  // namespace allocsim::python
