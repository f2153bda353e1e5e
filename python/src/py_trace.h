#pragma once
// What a Python allocsim.Trace holds: the C++ trace, shared with the runs that use
// it (allocsim.run(..., trace=...)) without a copy until the engine's own.
#include <memory>
#include <optional>
#include <string>

#include "allocsim/trace/format/heaptrack_reader.h"
#include "allocsim/trace/trace.h"

namespace allocsim::python {

struct PyTrace {
  std::shared_ptr<const Trace> trace;
  std::string format;  // as read: "native", "csv", "heaptrack"; "arrays" when built from NumPy
  std::optional<HeaptrackStats> heaptrack;
  HeaptrackOptions heaptrack_options;  // as the file was read
};

}  // namespace allocsim::python
