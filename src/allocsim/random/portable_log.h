#pragma once
// The natural logarithm every random draw goes through: the same bits on every
// x86-64 (and any IEEE-754 machine), in scalar code or at any vector width.
//
// libm's log is not that: glibc picks a different code path by CPU (an FMA variant
// where the processor has FMA) and its last bits may change between versions, so
// draws taken through it pin the results to one machine's library.
//
// Model: x = 2^k m with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact, Sterbenz), and
//   log(1 + f) = 2 atanh(s) = 2s + 2s^3/3 + 2s^5/5 + ...,   s = f / (2 + f),
// assembled as in fdlibm's e_log.c (Sun, 1993),
//   log x = k ln2_hi - ((hfsq - (s (hfsq + R) + k ln2_lo)) - f),   hfsq = f^2 / 2,
// with R(z) ~ 2z/3 + 2z^2/5 + ... (z = s^2, |s| <= 0.1716) fdlibm's degree-7 minimax
// polynomial, whose error fdlibm bounds by 2^-58.45. ln2_hi has 32 significant bits,
// so k ln2_hi is exact. Measured error: below one unit in the last place against an
// 80-bit logl (tests/portable_log_test.cpp).
//
// Only +, -, *, / in a fixed order, rounded to nearest: the project builds with
// -ffp-contract=off, so no compiler fuses a multiply and an add here, and a loop of
// these vectorises without changing a bit, at any width (SSE2's two doubles, AVX2's
// four, AVX-512's eight: portable_logs picks one by processor, and
// tests/portable_log_test.cpp compares every kernel the processor runs with the
// scalar function). The domain is positive normal doubles
// (every uniform of random_stream.h is at least 2^-53).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace allocsim {

namespace portable_log_detail {
inline constexpr double kLn2Hi = 0x1.62e42feep-1;                    // ln 2 to 32 bits
inline constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;              // ln 2 - kLn2Hi
inline constexpr std::uint64_t kSqrt2Mantissa = 0x6a09e667f3bcdULL;  // sqrt(2) rounded, mantissa bits
// fdlibm e_log.c's Lg1..Lg7: R(z) on [0, 0.1716^2], |error| < 2^-58.45.
inline constexpr double kLg[7] = {6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
                                  2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01,
                                  1.479819860511658591e-01};
inline constexpr std::uint64_t kTwoPow52Bits = 0x4330000000000000ULL;  // 2^52; | e gives 2^52 + e
}  // namespace portable_log_detail

inline double portable_log(double x) {
  using namespace portable_log_detail;
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  const std::uint64_t mantissa = bits & 0x000FFFFFFFFFFFFFULL;
  // halve = 1 when 1.mantissa >= sqrt(2): then m = 1.mantissa / 2 and k one more.
  // Integer arithmetic only, no branch and no select, so the loop vectorises.
  const std::uint64_t halve = (mantissa + (0x0010000000000000ULL - kSqrt2Mantissa)) >> 52;
  const double m = std::bit_cast<double>(mantissa | ((1023 - halve) << 52));
  // k as a double: (2^52 + biased exponent) - 2^52 - 1023, exact, and without an
  // integer-to-double conversion, which has no SSE2 vector form.
  const double k = std::bit_cast<double>(kTwoPow52Bits | ((bits >> 52) + halve)) - 0x1.0p52 - 1023.0;
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double w = z * z;
  // R(z) ~ 2z/3 + 2z^2/5 + ..., fdlibm's minimax Lg1..Lg7, odd and even terms in
  // two independent chains.
  const double even = w * (kLg[1] + w * (kLg[3] + w * kLg[5]));
  const double odd = z * (kLg[0] + w * (kLg[2] + w * (kLg[4] + w * kLg[6])));
  const double r = odd + even;
  const double hfsq = 0.5 * f * f;
  return k * kLn2Hi - ((hfsq - (s * (hfsq + r) + k * kLn2Lo)) - f);
}

// out[i] = portable_log(x[i]) for i < n: one loop the compiler vectorises, run at
// the widest vector width this processor has (portable_log_kernels). Every width
// gives the same bits.
void portable_logs(const double* x, double* out, std::size_t n);

// The same loop compiled for one instruction set.
struct PortableLogKernel {
  const char* name;  // "baseline" (x86-64's SSE2, or the target's default), "avx2", "avx512"
  void (*logs)(const double* x, double* out, std::size_t n);
};
// The kernels this processor can run, narrowest first; portable_logs runs the last.
const std::vector<PortableLogKernel>& portable_log_kernels();

}  // namespace allocsim
