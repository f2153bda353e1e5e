#pragma once
// How far each scheme's p_Z curve is from the optimal one, as curves: P(an
// allocation is sampled) against its requested size, for each advised scheme at
// the interval where it takes a given number of expected samples, and for the
// optimal design (bytes allocated, exact sizes; optimal_design.h) at that budget.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/advice/advisor.h"

namespace allocsim {

struct ProbabilityCurve {
  std::string label;                 // the scheme, or "optimum"
  double interval = 0;               // 0 for the optimum
  std::vector<std::uint64_t> sizes;  // distinct requested sizes, ascending, at least 2% apart
  std::vector<double> probability;
};

// The curves of every advised scheme (but the optimal design) at the interval that
// takes `samples` expected samples, then the optimum's; on up to `threads` threads.
std::vector<ProbabilityCurve> probability_curves(const Advisor& advisor, double samples, unsigned threads);

}  // namespace allocsim
