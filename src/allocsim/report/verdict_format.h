#pragma once
// How the verdict writes its numbers, shared by the text verdict (verdict.h) and the
// HTML report (html_report.h), so both show the same figures: fractions as percents,
// bytes in binary units (util/byte_units.h), a sweep point as "rate 64 KiB".
#include <string>

#include "allocsim/estimate/quantity.h"
#include "allocsim/scenario/scenario.h"

namespace allocsim {

// "-0.012%", "3.1%", "45%": two significant digits below 10%, whole percents above;
// "n/a" for NaN.
std::string verdict_percent(double fraction);

// Sweep variable `v` of the point: a byte rate as it can be typed back ("64 KiB",
// "14227 B": util/byte_units.h), others as results write them.
std::string verdict_sweep_value(const Scenario& scenario, std::size_t point, std::size_t v);

// ", rate 64 KiB, size 32": each sweep variable of the point, a byte rate in units.
std::string verdict_point_text(const Scenario& scenario, std::size_t point);

// What "truth" is for an estimator of quantity `q`, in a few words: "requested bytes
// (the sizes the program asked for)" or "allocated bytes (each request rounded up to
// the allocator's size class)", so that the same stack reading differently under two
// schemes is explained.
std::string verdict_truth_text(Quantity q);

}  // namespace allocsim
