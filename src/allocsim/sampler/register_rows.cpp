#include "allocsim/sampler/register_rows.h"

#include <stdexcept>
#include <string>

namespace allocsim {

RegisterLayout::RegisterLayout(const std::vector<EstimatorSpec>& estimators) : first_{0} {
  for (const EstimatorSpec& spec : estimators) first_.push_back(first_.back() + spec.registers);
}

void register_width_mismatch(std::size_t width, std::size_t size, std::size_t observations) {
  throw std::logic_error("scheme writes " + std::to_string(width) + " registers per observation, but " +
                         std::to_string(size) + " were laid out for " + std::to_string(observations) + " observations");
}

}  // namespace allocsim
