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

// A probability or fraction in `range`, written as a decimal (0.001), with an exponent
// (1e-3) or as a ratio of two such numbers (1/1000, 1/102400). A transform: give it to
// ->transform(), which passes the option the value as a decimal number.
CLI::Validator probability(NumberRange range);

// (0, 1): probabilities, confidence levels, relative errors (->transform()).
inline CLI::Validator open_fraction() { return probability({0, 1, true, true}); }

// A number of bytes in `range`, with or without a unit as in scenarios: 4096, 4k,
// 512KiB, 1.5MiB (allocsim/json/byte_size.h: powers of 1024; "kB" is refused as
// ambiguous). A transform: ->transform() passes the option the number of bytes;
// ->check() only checks and leaves the text as written (for options read later as a
// scenario's byte sizes).
CLI::Validator byte_amount(NumberRange range);
// Any number of bytes > 0.
inline CLI::Validator positive_byte_amount() {
  return byte_amount({0, std::numeric_limits<double>::max(), true, false});
}
// A whole number of bytes in [low, high] (->transform()).
CLI::Validator whole_byte_count(std::uint64_t low, std::uint64_t high);
// Any finite number > 0.
inline CLI::Validator positive_number() { return real_number({0, std::numeric_limits<double>::max(), true, false}); }

}  // namespace allocsim::cli
