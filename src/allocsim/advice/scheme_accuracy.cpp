#include "allocsim/advice/scheme_accuracy.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace allocsim {

double GroupAccuracy::rmse() const { return std::sqrt(variance + bias * bias); }

double GroupAccuracy::normal_mape() const {
  if (!(truth > 0)) return 0;
  const double sd = std::sqrt(variance);
  if (sd == 0) return std::fabs(bias) / truth;
  // Folded normal: E|X| = sd sqrt(2/pi) e^(-b^2 / 2 sd^2) + b erf(b / (sd sqrt 2)).
  const double b = bias;
  const double folded = sd * std::sqrt(2 / std::numbers::pi) * std::exp(-b * b / (2 * sd * sd)) +
                        b * std::erf(b / (sd * std::numbers::sqrt2));
  return folded / truth;
}

double GroupAccuracy::p_seen() const { return -std::expm1(log_p_none); }

SchemeAccuracy scheme_accuracy(const Scheme& scheme, const Trace& trace) {
  const EstimatorSpec& spec = scheme.estimators().at(0);
  const EstimatorTheory bytes_theory = scheme.theory(0);
  if (spec.quantity == Quantity::count || !bytes_theory.per_allocation()) {
    throw std::invalid_argument("scheme's first estimator is not bytes with closed-form theory");
  }
  SchemeAccuracy a;
  const std::size_t n = trace.size();
  a.measured.resize(n);
  a.probability.resize(n);
  a.allocation_variance.resize(n);
  a.stacks.resize(trace.stack_count);
  const std::vector<AllocationTheory> theory = bytes_theory.all_allocations(trace);
  for (std::size_t i = 0; i < n; ++i) {
    a.measured[i] = spec.quantity == Quantity::requested_bytes ? trace.requested[i] : scheme.allocated_size(trace, i);
    const AllocationTheory& t = theory[i];
    const double bytes = static_cast<double>(a.measured[i]);
    a.probability[i] = -std::expm1(t.log_p_none);
    a.allocation_variance[i] = t.variance;
    a.expected_samples += a.probability[i];
    for (GroupAccuracy* g : {&a.total, &a.stacks[trace.stack[i]]}) {
      g->truth += bytes;
      g->bias += t.bias;
      g->variance += t.variance;
      g->log_p_none += t.log_p_none;
    }
  }
  return a;
}

}  // namespace allocsim
