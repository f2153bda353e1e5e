#include "errors.h"

#include "allocsim/engine/experiment.h"

namespace allocsim::python {

void register_error_translation() {
  pybind11::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, one_line(e.what()).c_str());
    } catch (const RunCancelled&) {
      // The interrupt's own exception (KeyboardInterrupt) is already set; keep it.
      if (PyErr_Occurred() == nullptr) PyErr_SetString(PyExc_KeyboardInterrupt, "run cancelled");
    }
  });
}

}  // namespace allocsim::python
