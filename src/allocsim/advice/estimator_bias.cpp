#include "allocsim/advice/estimator_bias.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "allocsim/outputs/value_format.h"

namespace allocsim {
namespace {

// Below this relative bias an estimator counts as unbiased: the theory's own
// rounding error (a few ulps of expm1/log1p sums), far below any real bias.
constexpr double kZeroBias = 1e-9;

// One allocation per size: 1 B to 96 MiB, each power of two up to 64 MiB and the sizes
// one below, one above and half-way to the next, so that size-class edges and
// pass-through thresholds (allocations of S >= T) fall between probes.
Trace probe_trace() {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t p = 1; p <= (std::uint64_t{1} << 26); p <<= 1) {
    for (const std::uint64_t s : {p - 1, p, p + 1, p + p / 2}) {
      if (s >= 1 && (sizes.empty() || s > sizes.back())) sizes.push_back(s);
    }
  }
  Trace trace;
  const std::size_t n = sizes.size();
  trace.requested = sizes;
  trace.thread.assign(n, 0);
  trace.stack.assign(n, 0);
  trace.type.assign(n, 0);
  trace.free_time.assign(n, kNeverFreed);
  for (std::size_t i = 0; i < n; ++i) trace.time.push_back(i);
  return trace;
}

double truth_of(const Scheme& scheme, Quantity quantity, const Trace& trace, std::size_t i) {
  switch (quantity) {
    case Quantity::count: return 1;
    case Quantity::requested_bytes: return static_cast<double>(trace.requested[i]);
    case Quantity::allocated_bytes: return static_cast<double>(scheme.allocated_size(trace, i));
    case Quantity::net_allocated_bytes:
      return trace.live_at_end(i) ? static_cast<double>(scheme.allocated_size(trace, i)) : 0.0;
  }
  return 0;
}

std::string bytes(std::uint64_t s) { return format_value(static_cast<double>(s), Unit::bytes); }
std::string percent(double f) { return format_value(f, Unit::percent, 3); }

}  // namespace

const char* to_string(EstimatorBias::Kind kind) {
  switch (kind) {
    case EstimatorBias::Kind::unbiased: return "unbiased";
    case EstimatorBias::Kind::biased: return "biased";
    case EstimatorBias::Kind::unknown: return "unknown";
  }
  return "?";
}

EstimatorBias estimator_bias(const Scheme& scheme, std::size_t estimator) {
  const EstimatorTheory theory = scheme.theory(estimator);
  const Quantity quantity = scheme.estimators()[estimator].quantity;
  const Trace trace = probe_trace();
  const std::vector<AllocationTheory> parts =
      theory.per_allocation() ? theory.all_allocations(trace) : std::vector<AllocationTheory>(trace.size());
  // Sizes whose relative bias is not zero, and its smallest and largest value.
  std::optional<std::size_t> first, last, low, high;
  std::vector<double> relative(trace.size());
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const double truth = truth_of(scheme, quantity, trace, i);
    const GroupTotals totals{static_cast<double>(trace.requested[i]),
                             static_cast<double>(scheme.allocated_size(trace, i)), 1};
    const std::optional<double> bias = theory.of_group(totals, parts[i]).bias;
    if (!bias) return {EstimatorBias::Kind::unknown, "no closed form for its bias: Monte Carlo only"};
    relative[i] = *bias / truth;
    if (std::abs(relative[i]) <= kZeroBias) continue;
    if (!first) first = i;
    last = i;
    if (!low || relative[i] < relative[*low]) low = i;
    if (!high || relative[i] > relative[*high]) high = i;
  }
  const std::string ladder = bytes(trace.requested.front()) + " to " + bytes(trace.requested.back());
  const std::string scope = theory.per_allocation() ? "each allocation's contribution, so any group's sum"
                                                    : "the closed form of a group's total";
  if (!first) {
    return {EstimatorBias::Kind::unbiased, "unbiased at every allocation size from " + ladder + " (" + scope + ")"};
  }
  std::string where = *first == 0 && *last + 1 == trace.size()
                          ? "at every size from " + ladder
                          : "for sizes " + bytes(trace.requested[*first]) + " to " + bytes(trace.requested[*last]) +
                                " of the " + ladder + " probed, unbiased outside them";
  const std::string at_low = percent(relative[*low]) + " (" + bytes(trace.requested[*low]) + ")";
  const std::string at_high = percent(relative[*high]) + " (" + bytes(trace.requested[*high]) + ")";
  return {EstimatorBias::Kind::biased,
          "biased " + where + ": relative bias of one allocation " +
              (relative[*low] == relative[*high] ? percent(relative[*low]) : "from " + at_low + " to " + at_high)};
}

nlohmann::ordered_json to_json(const EstimatorBias& bias) {
  return {{"bias", to_string(bias.kind)}, {"condition", bias.condition}};
}

}  // namespace allocsim
