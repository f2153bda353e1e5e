#pragma once
// The checks of every numeric command-line option. CLI11 alone reads "-1" into an
// unsigned option as 2^64 - 1, saturates 2^64 to 2^64 - 1, and lets NaN through its
// ranges (NaN compares false with both ends); these read the flag's text themselves
// and refuse what does not fit, and CLI11 names the flag in the one-line error.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>

namespace allocsim::cli {

// Decimal digits only, with a value in [low, high].
CLI::Validator whole_number(std::uint64_t low = 0, std::uint64_t high = std::numeric_limits<std::uint64_t>::max());

// Any 64-bit seed, 0 to 2^64 - 1.
inline CLI::Validator seed_number() { return whole_number(); }

// Worker threads: 1 to 4096.
inline CLI::Validator thread_count() { return whole_number(1, 4096); }

// A finite number in an interval whose ends may be open (excluded).
struct NumberRange {
  double low = -std::numeric_limits<double>::max();
  double high = std::numeric_limits<double>::max();
  bool low_open = false;
  bool high_open = false;
};
CLI::Validator real_number(NumberRange range);

// (0, 1): probabilities, confidence levels, relative errors.
inline CLI::Validator open_fraction() { return real_number({0, 1, true, true}); }
// Any finite number > 0.
inline CLI::Validator positive_number() { return real_number({0, std::numeric_limits<double>::max(), true, false}); }

}  // namespace allocsim::cli
