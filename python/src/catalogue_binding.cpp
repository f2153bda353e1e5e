// allocsim.schemes() (the registry) and the .NET document's bytes interval and
// quantile table (estimate/bytes_interval.h, estimate/quantile_table.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "allocsim/estimate/bytes_interval.h"
#include "allocsim/estimate/quantile_table.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/util/error.h"
#include "allocsim/util/json_text.h"
#include "arguments.h"
#include "bindings.h"

namespace py = pybind11;

namespace allocsim::python {
namespace {

using interval::IntervalMethod;
using interval::QuantileRounding;

py::object from_json(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

IntervalMethod parse_method(const std::string& name) {
  for (const auto method : {IntervalMethod::exact, IntervalMethod::camp_paulson}) {
    if (name == interval::method_name(method)) return method;
  }
  throw InputError("method must be exact or camp-paulson, got '" + name + "'");
}

QuantileRounding parse_rounding(const std::string& name) {
  for (const auto rounding : {QuantileRounding::up, QuantileRounding::down, QuantileRounding::real}) {
    if (name == interval::rounding_name(rounding)) return rounding;
  }
  throw InputError("rounding must be up, down or real, got '" + name + "'");
}

// Every argument arrives as a plain object and is read here (arguments.h).
py::dict bytes_interval(const py::object& samples, const py::object& tail_bytes, const py::object& p,
                        const py::object& level, const py::object& method, const py::object& rounding,
                        const py::object& boundary_correction) {
  const interval::BytesInterval b =
      interval::bytes_interval({.samples = integer_argument<std::int64_t>(samples, "samples"),
                                .tail_bytes = integer_argument<std::int64_t>(tail_bytes, "tail_bytes"),
                                .p = real_argument(p, "p"),
                                .level = real_argument(level, "level"),
                                .method = parse_method(string_argument(method, "method")),
                                .boundary_correction = bool_argument(boundary_correction, "boundary_correction"),
                                .rounding = parse_rounding(string_argument(rounding, "rounding"))});
  py::dict d;
  d["estimate"] = b.estimate;
  d["lower"] = b.lower;
  d["upper"] = b.upper;
  return d;
}

py::list table(const py::object& p, const py::object& level, const py::object& rounding) {
  py::list rows;
  const auto quantiles = interval::quantile_table(real_argument(p, "p"), real_argument(level, "level"),
                                                  parse_rounding(string_argument(rounding, "rounding")));
  for (const auto& row : quantiles) {
    py::dict d;
    d["samples"] = row.samples;
    d["exact_lower"] = row.exact.lower;
    d["exact_upper"] = row.exact.upper;
    d["camp_paulson_lower"] = row.camp_paulson.lower;
    d["camp_paulson_upper"] = row.camp_paulson.upper;
    d["camp_paulson_max_cdf_error"] = row.camp_paulson_cdf_error.max_abs_error;
    d["camp_paulson_max_cdf_error_at_failures"] = row.camp_paulson_cdf_error.at_failures;
    rows.append(d);
  }
  return rows;
}

}  // namespace

void bind_catalogue(py::module_& module) {
  module.def(
      "schemes", [] { return from_json(json_text(describe_schemes_json())); },
      "The sampling schemes a scenario can name, with their parameters, as `allocsim schemes --json`.");
  module.def("interval", &bytes_interval, py::arg("samples"), py::arg("tail_bytes"), py::arg("p"),
             py::arg("level") = 0.95, py::arg("method") = "exact", py::arg("rounding") = "up",
             py::arg("boundary_correction") = false,
             R"(Confidence interval for the bytes allocated, from s sample events and their tail bytes u
(the .NET document's estimation approach 2), as `allocsim interval`.

  samples              s, sample events in the window (>= 0)
  tail_bytes           u, the sum over samples of size - offset (u >= s)
  p                    per-byte sampling probability in (0, 1)
  level                confidence level in (0, 1)
  method               "exact" (negative binomial quantiles) or "camp-paulson"
  rounding             discrete quantile rule: "up", "down" (the document's table) or "real"
  boundary_correction  window not aligned on sample events: lower bound from s-1, upper from s+1
Returns {"estimate", "lower", "upper"} in bytes; impossible inputs raise ValueError.)");
  module.def("interval_table", &table, py::arg("p") = 1.0 / 102400.0, py::arg("level") = 0.95,
             py::arg("rounding") = "up",
             "The .NET document's table of negative binomial failure quantiles, exact and by "
             "Camp-Paulson, one dict per sample count (as `allocsim interval --table`).");
}

}  // namespace allocsim::python
