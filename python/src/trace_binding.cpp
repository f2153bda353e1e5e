// allocsim.Trace: a trace read from any file format allocsim reads, or built from
// NumPy arrays; its columns are read-only NumPy views of the C++ trace.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "allocsim/trace/format/heaptrack_json.h"
#include "allocsim/trace/format/trace_format.h"
#include "allocsim/trace/trace_summary.h"
#include "allocsim/util/json_text.h"
#include "arguments.h"
#include "array_column.h"
#include "bindings.h"
#include "errors.h"
#include "py_trace.h"

namespace py = pybind11;

namespace allocsim::python {
namespace {

HeaptrackOptions heaptrack_options(const std::string& pairing, const std::string& clock) {
  HeaptrackOptions options;
  if (pairing != "lifo" && pairing != "fifo") throw InputError("pairing must be lifo or fifo, got '" + pairing + "'");
  if (clock != "events" && clock != "milliseconds") {
    throw InputError("clock must be events or milliseconds, got '" + clock + "'");
  }
  options.pairing = pairing == "fifo" ? FreePairing::fifo : FreePairing::lifo;
  options.clock = clock == "milliseconds" ? HeaptrackClock::milliseconds : HeaptrackClock::events;
  return options;
}

PyTrace load(const py::object& path_object, const py::object& format_object, const py::object& pairing,
             const py::object& clock) {
  const std::string path = path_argument(path_object, "path");
  const std::string format_name = string_argument(format_object, "format");
  const auto format = parse_trace_format(format_name);
  if (!format) throw InputError("format must be auto, heaptrack, csv or native, got '" + format_name + "'");
  const HeaptrackOptions options =
      heaptrack_options(string_argument(pairing, "pairing"), string_argument(clock, "clock"));
  TraceFile file = read_input_file(path, [&](const std::string& p) {
    py::gil_scoped_release released;
    return read_trace_file(p, *format, options);
  });
  return {std::make_shared<const Trace>(std::move(file.trace)), to_string(file.format), file.heaptrack, options};
}

// How many ids (0..count-1) a column of `what` ids uses, "stack" for the argument
// stacks named by stack_names, checked before anything is sized by it. With names,
// every id must have one and the count is the number of names; without, an id must
// be below the number of allocations, as Trace::validate asks.
std::uint32_t id_count(const Column<std::uint32_t>& ids, const std::vector<std::string>& names,
                       const std::string& what) {
  const std::size_t limit = names.empty() ? std::max<std::size_t>(ids.size(), 1) : names.size();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < limit) continue;
    const std::string element = what + "s[" + std::to_string(i) + "]: " + what + " id " + std::to_string(ids[i]);
    if (names.empty()) {
      throw InputError(element + " needs a name: without " + what + "_names, ids must be below the number of " +
                       "allocations (" + std::to_string(ids.size()) + ")");
    }
    throw InputError(element + " has no name (" + what + "_names names ids 0 to " + std::to_string(names.size() - 1) +
                     ")");
  }
  if (ids.empty()) return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(names.size()));
  const std::uint32_t largest = *std::max_element(ids.begin(), ids.end());
  return std::max<std::uint32_t>(largest + 1, static_cast<std::uint32_t>(names.size()));
}

// One more than the largest thread id, each below kMaxTraceThreads.
std::uint32_t thread_count(const ThreadColumn& threads) {
  std::uint32_t largest = 0;
  for (std::size_t i = 0; i < threads.size(); ++i) {
    if (threads[i] >= kMaxTraceThreads) {
      throw InputError("threads[" + std::to_string(i) + "]: thread id " + std::to_string(threads[i]) +
                       " is not below " + std::to_string(kMaxTraceThreads) + ", the most threads a trace may have");
    }
    largest = std::max<std::uint32_t>(largest, threads[i]);
  }
  return largest + 1;
}

template <typename T>
std::vector<T> column_or(const std::optional<py::array>& array, const std::string& name, std::size_t length, T fill) {
  if (!array) return std::vector<T>(length, fill);
  return array_column<T>(*array, name, static_cast<long long>(length), name == "frees");
}

// Every argument arrives as a plain object and is read here (arguments.h).
PyTrace from_arrays(const py::object& sizes_object, const py::object& threads_object, const py::object& stacks_object,
                    const py::object& times_object, const py::object& frees_object, const py::object& allocated_object,
                    const py::object& types_object, const py::object& stack_names_object,
                    const py::object& type_names_object) {
  const auto sizes = optional_array(sizes_object, "sizes");
  if (!sizes) throw_type_error("sizes must be a NumPy array, got None");
  const auto threads = optional_array(threads_object, "threads");
  const auto stacks = optional_array(stacks_object, "stacks");
  const auto times = optional_array(times_object, "times");
  const auto frees = optional_array(frees_object, "frees");
  const auto allocated = optional_array(allocated_object, "allocated");
  const auto types = optional_array(types_object, "types");
  std::vector<std::string> stack_names = string_list_argument(stack_names_object, "stack_names");
  std::vector<std::string> type_names = string_list_argument(type_names_object, "type_names");
  Trace trace;
  trace.requested = array_column<std::uint64_t>(*sizes, "sizes", -1);
  const std::size_t n = trace.requested.size();
  trace.thread = column_or<std::uint32_t>(threads, "threads", n, 0);
  trace.stack = column_or<std::uint32_t>(stacks, "stacks", n, 0);
  trace.type = column_or<std::uint32_t>(types, "types", n, 0);
  trace.free_time = column_or<std::uint64_t>(frees, "frees", n, kNeverFreed);
  if (allocated) trace.allocated = array_column<std::uint64_t>(*allocated, "allocated", static_cast<long long>(n));
  if (times) {
    trace.time = array_column<std::uint64_t>(*times, "times", static_cast<long long>(n));
  } else {
    trace.time.resize(n);
    for (std::size_t i = 0; i < n; ++i) trace.time.mutable_data()[i] = i;  // the event order
  }
  trace.thread_count = thread_count(trace.thread);
  trace.stack_count = id_count(trace.stack, stack_names, "stack");
  trace.type_count = id_count(trace.type, type_names, "type");
  trace.stack_names = std::move(stack_names);
  trace.type_names = std::move(type_names);
  trace.validate("Trace");
  return {std::make_shared<const Trace>(std::move(trace)), "arrays", std::nullopt, {}};
}

// A read-only NumPy view of a column; `owner` (the Python Trace) keeps it alive.
template <typename T>
py::array view(const Column<T>& column, const py::object& owner) {
  py::array_t<T> array(static_cast<py::ssize_t>(column.size()), column.data(), owner);
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

// A narrow column (sizes, threads) has no array of its values to view: a copy.
template <typename T, typename Narrow>
py::array view(const NarrowColumn<T, Narrow>& column, const py::object&) {
  py::array_t<T> array(static_cast<py::ssize_t>(column.size()));
  std::copy(column.begin(), column.end(), array.mutable_data());
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

// The CLI's JSON (trace/format/heaptrack_json.h) as Python objects.
py::object heaptrack_dict(const PyTrace& t) {
  return py::module_::import("json").attr("loads")(json_text(to_json(*t.heaptrack, t.heaptrack_options)));
}

py::object info(const PyTrace& t, const py::object& top) {
  const TraceSummary summary = summarize_trace(*t.trace, "Trace", integer_argument<std::size_t>(top, "top"));
  py::object parsed = py::module_::import("json").attr("loads")(json_text(to_json(summary)));
  parsed["format"] = t.format;
  if (t.heaptrack) parsed["heaptrack"] = heaptrack_dict(t);
  return parsed;
}

py::object to_pandas(const py::object& self) {
  const PyTrace& t = self.cast<const PyTrace&>();
  py::dict columns;
  columns["time"] = view(t.trace->time, self);
  columns["thread"] = view(t.trace->thread, self);
  columns["requested"] = view(t.trace->requested, self);
  if (t.trace->has_allocated_sizes()) columns["allocated"] = view(t.trace->allocated, self);
  columns["stack"] = view(t.trace->stack, self);
  columns["type"] = view(t.trace->type, self);
  columns["free_time"] = view(t.trace->free_time, self);
  return py::module_::import("pandas").attr("DataFrame")(columns);
}

void save(const PyTrace& t, const py::object& path_object, const py::object& format_object) {
  const std::string path = path_argument(path_object, "path");
  const std::optional<std::string> format = optional_string(format_object, "format");
  TraceFormat to = output_format_for(path);
  if (format) {
    if (*format != "csv" && *format != "native")
      throw InputError("format must be csv or native, got '" + *format + "'");
    to = *format == "csv" ? TraceFormat::csv : TraceFormat::native;
  }
  py::gil_scoped_release released;
  write_trace_file(*t.trace, path, to);
}

constexpr const char* kTraceDoc = R"(A trace: the allocations of one program run, column by column.

Build one from NumPy integer arrays (each copied once, converted as it is copied):
    Trace(sizes, threads=None, stacks=None, times=None, frees=None,
          allocated=None, types=None, stack_names=[], type_names=[])
  sizes      requested bytes of each allocation (required)
  threads    dense thread index per allocation (default 0)
  stacks     dense stack id per allocation (default 0); stack_names, when given,
             names every id (else ids stay below the number of allocations)
  times      non-decreasing timestamps (default 0, 1, 2, ...: the event order)
  frees      when each allocation was freed; -1 (or 2**64-1) = live at the end
             (default: nothing freed)
  allocated  the allocator's sizes, when known
  types      dense type id per allocation (default 0); type_names as stack_names
Integer arrays of any width, stride and byte order are read as they are. Or read
a file with Trace.load(path). Bad columns raise ValueError naming the column and
element; non-integer arrays and arguments of the wrong type raise TypeError.)";

}  // namespace

void bind_trace(py::module_& module) {
  py::class_<PyTrace>(module, "Trace", kTraceDoc)
      .def(py::init(&from_arrays), py::arg("sizes"), py::arg("threads") = py::none(), py::arg("stacks") = py::none(),
           py::arg("times") = py::none(), py::arg("frees") = py::none(), py::arg("allocated") = py::none(),
           py::arg("types") = py::none(), py::arg("stack_names") = py::list(), py::arg("type_names") = py::list())
      .def_static("load", &load, py::arg("path"), py::arg("format") = "auto", py::arg("pairing") = "lifo",
                  py::arg("clock") = "events",
                  R"(Reads a trace file of any format allocsim reads.

  path     the file (heaptrack, possibly zstd/gzip-compressed; CSV; native)
  format   "auto" (by content), "heaptrack", "csv" or "native"
  pairing  heaptrack interpreted files: which live allocation of a (size, stack)
           a free releases, "lifo" or "fifo"
  clock    heaptrack: time is the event order ("events") or the milliseconds
Raises FileNotFoundError for a missing file, ValueError for a malformed one.)")
      .def("save", &save, py::arg("path"), py::arg("format") = py::none(),
           "Writes the trace: format \"csv\" or \"native\" (default: CSV for a .csv name, else native).")
      .def("info", &info, py::arg("top") = 10,
           "Counts, bytes, live heap at the end and at its peak, the size histogram and the `top` "
           "biggest stacks, as `allocsim trace info --json` reports them, plus the format read.")
      .def("to_pandas", &to_pandas,
           "One row per allocation: time, thread, requested, [allocated], stack, type, free_time "
           "(2**64-1 = live at the end).")
      .def("__len__", [](const PyTrace& t) { return t.trace->size(); })
      .def_property_readonly("format", [](const PyTrace& t) { return t.format; })
      .def_property_readonly("heaptrack",
                             [](const PyTrace& t) { return t.heaptrack ? heaptrack_dict(t) : py::object(py::none()); })
      .def_property_readonly("thread_count", [](const PyTrace& t) { return t.trace->thread_count; })
      .def_property_readonly("stack_count", [](const PyTrace& t) { return t.trace->stack_count; })
      .def_property_readonly("type_count", [](const PyTrace& t) { return t.trace->type_count; })
      .def_property_readonly("stack_names", [](const PyTrace& t) { return t.trace->stack_names; })
      .def_property_readonly("type_names", [](const PyTrace& t) { return t.trace->type_names; });
}

}  // namespace allocsim::python
