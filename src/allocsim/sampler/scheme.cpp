#include "allocsim/sampler/scheme.h"

namespace allocsim {

const std::vector<IntervalSpec>& Scheme::intervals() const {
  static const std::vector<IntervalSpec> none;
  return none;
}

}  // namespace allocsim
