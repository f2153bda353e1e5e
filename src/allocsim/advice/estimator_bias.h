#pragma once
// Whether an estimator is unbiased, and where not, read from the scheme's own
// closed-form theory (Scheme::theory): the bias of one allocation's contribution,
// at every size of a ladder from 1 B to 96 MiB. `allocsim schemes NAME` prints it,
// so the statement cannot drift from the model.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

#include "allocsim/sampler/scheme.h"

namespace allocsim {

struct EstimatorBias {
  enum class Kind {
    unbiased,  // zero bias at every size probed
    biased,    // non-zero somewhere; `condition` says where and how much
    unknown,   // the scheme has no closed-form bias for this estimator
  };
  Kind kind = Kind::unknown;
  std::string condition;  // one sentence: under what condition, from the theory
};

const char* to_string(EstimatorBias::Kind kind);

EstimatorBias estimator_bias(const Scheme& scheme, std::size_t estimator);

nlohmann::ordered_json to_json(const EstimatorBias& bias);

}  // namespace allocsim
