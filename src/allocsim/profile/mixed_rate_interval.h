#pragma once
// The interval for a site's true bytes summed over profiles of one system sampled at
// different rates (allocsim aggregate). Profile i's k_i samples of objects of s bytes
// each stand for w_i = 1 / samples_per_byte(model_i, s) true bytes: the rate T_i for
// the byte-rate model, s / p_i(s) for the per-allocation models (N_i s at a fixed 1 in
// N_i). The total Y = sum_i w_i k_i is a weighted sum of independent counts; the
// per-allocation models' Binomial(n_i, p_i(s)) counts are taken as Poisson with mean
// n_i p_i(s) (variance n_i p_i(s) >= the binomial's n_i p_i(s)(1 - p_i(s)): wider, not
// narrower), and the Fay-Feuer gamma interval (weighted_poisson_interval.h) bounds
// E[Y]. A profile in which the size is certain to be sampled (recorded whole, or p = 1)
// adds its w_i k_i to both bounds: its count has no sampling error.
#include <span>

#include "allocsim/profile/entry_interval.h"
#include "allocsim/profile/sampling_model.h"

namespace allocsim::profile {

// `samples[i]` of objects of `size` bytes in the profile of `models[i]` (the spans of
// one length). InputError for spans of different lengths or none, a size <= 0, a
// level outside (0, 1) or a negative count.
EntryInterval mixed_rate_interval(std::span<const SamplingModel> models, std::span<const double> samples, double size,
                                  double level, bool mixed_sizes);

}  // namespace allocsim::profile
