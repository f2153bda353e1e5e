#pragma once
// One replication of a scheme over a trace: the sampled allocations, each one's
// registers (Scheme::weigh), and per-group estimates from them. Every Monte Carlo
// in allocsim replays through it: the experiment (SchemeEvaluator, which sums per
// group slot and window), the conformance model's moments, the advice check and the
// margins check. One per worker thread: the buffers are reused.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/scheme.h"

namespace allocsim {

class SchemeReplay {
 public:
  // Runs started from `prepared` (the scheme prepared for `trace`, shared by the
  // workers), or streaming runs prepared here.
  SchemeReplay(const Scheme& scheme, const Trace& trace, const PreparedScheme& prepared);
  SchemeReplay(const Scheme& scheme, const Trace& trace);

  // Replays replication `key` and weighs its observations.
  void replay(const StreamKey& key);

  const std::vector<Observation>& observations() const { return observations_; }
  // Observation o's registers, all estimators' in order (layout()).
  std::span<const double> registers(std::size_t o) const {
    return {contributions_.data() + o * layout_.width(), layout_.width()};
  }
  const RegisterLayout& layout() const { return layout_; }

  // Estimator e's estimate of each group g < groups: the registers of the
  // observations o with group_of(o) == g summed, then finalized
  // (estimate_from_registers); observations mapped to groups or beyond are left out.
  template <class GroupOf>
  void group_estimates(std::size_t estimator, std::size_t groups, GroupOf&& group_of, std::vector<double>& estimates) {
    const std::size_t first = layout_.first(estimator), count = layout_.count(estimator);
    group_sums_.assign(groups * count, 0.0);
    for (std::size_t o = 0; o < observations_.size(); ++o) {
      const std::size_t g = group_of(o);
      if (g >= groups) continue;
      const double* row = contributions_.data() + o * layout_.width() + first;
      for (std::size_t j = 0; j < count; ++j) group_sums_[g * count + j] += row[j];
    }
    estimates.resize(groups);
    for (std::size_t g = 0; g < groups; ++g) {
      estimates[g] = estimate_from_registers(scheme_, estimator, {group_sums_.data() + g * count, count});
    }
  }

 private:
  const Scheme& scheme_;
  const Trace& trace_;
  RegisterLayout layout_;
  std::unique_ptr<SchemeRun> run_;
  std::vector<Observation> observations_;
  std::vector<double> contributions_;
  std::vector<double> group_sums_;  // [group][register of the estimator]
};

}  // namespace allocsim
