#pragma once
// Shared gtest assertions for the statistical and closed-form checks, used as
// EXPECT_TRUE(within_sigmas(measured, expected, se)) << where; a failure says how
// many standard errors apart the two were.
#include <gtest/gtest.h>

#include "allocsim/stats/metrics.h"
#include "testing/statistical_bounds.h"

namespace allocsim::testing {

// |measured - expected| <= k se: a Monte Carlo value agrees with its expected
// value (false-alarm rate kSigmasFalseAlarmRate at the default k). Fails on NaN.
::testing::AssertionResult within_sigmas(double measured, double expected, double standard_error, double k = kSigmas);

// The estimator of `m` is unbiased: its bias is within k standard errors of 0,
// the standard error of a mean of R replications by the theory's variance,
// sqrt(theory var / R). Fails when the row carries no theory variance.
::testing::AssertionResult unbiased(const Metrics& m, double k = kSigmas);

// The binomial count check: `successes` out of `trials` independent trials with
// success probability p agrees with its expectation trials p within k binomial
// standard errors, sqrt(trials p (1 - p)). With p 0 or 1 the count must be exact.
::testing::AssertionResult binomial_count_within_sigmas(double successes, double trials, double p, double k = kSigmas);

// A deterministic value equals its closed form up to `relative_tolerance` of the
// closed form (rounding only: no sampling error is allowed for).
::testing::AssertionResult matches_closed_form(double value, double closed_form, double relative_tolerance);

}  // namespace allocsim::testing
