#pragma once
// What the `poisson` and `per-byte` references share: sample points fall on bytes
// at rate 1/T, so an allocation of s bytes is sampled with probability pi(s), and
//   bytes = T * n            (n sample points in the allocation)
//   count = 1 / pi(s)        (Horvitz-Thompson) per sampled allocation.
// Each estimator keeps two registers, the estimate and an unbiased estimate of its
// variance, which give its Wald interval: for the count, (1 - pi)/pi^2 per sampled
// allocation; for the bytes, whatever the sampler's count distribution implies.
#include "allocsim/sampler/scheme.h"

namespace allocsim {

class ByteRateScheme : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kBytesVariance, kCount, kCountVariance, kRegisters };

  explicit ByteRateScheme(double rate) : rate_(rate) {}

  const std::vector<EstimatorSpec>& estimators() const override;
  const std::vector<IntervalSpec>& intervals() const override;
  Interval interval(std::size_t interval, std::span<const double> registers, double level) const override;
  void weigh(const Trace& trace, std::span<const Observation> observations,
             std::span<double> contributions) const override;
  // The count estimator's: contribution 1/pi with probability pi, variance
  // (1 - pi)/pi; a zero-size allocation is never sampled and is missed (bias -1).
  // The bytes estimator's theory is the sampler's own (bytes_theory).
  EstimatorTheory theory(std::size_t estimator) const override;

 protected:
  // ln(1 - pi(s)): ln P(an allocation of s bytes gets no sample point).
  virtual double log_p_none(double size) const = 0;
  // Unbiased estimate of Var(T * n) from the n points of one allocation.
  virtual double bytes_variance_estimate(std::uint32_t samples) const = 0;
  // The bytes estimator's metrics for a group of the given truth.
  virtual TheoryValues bytes_theory(const GroupTotals& truth) const = 0;

  double rate_;
};

}  // namespace allocsim
