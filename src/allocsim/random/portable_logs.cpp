#include <vector>

#include "allocsim/random/portable_log.h"

// One loop of portable_log, compiled once per instruction set and chosen by the
// processor at run time: the build targets baseline x86-64, whose vectors hold two
// doubles, and the logarithm is most of a draw (docs/speed.md). The wider kernels
// change how many lanes one instruction computes, not what any lane computes: only
// +, -, *, / rounded to nearest and no fused multiply-add (-ffp-contract=off), so
// every kernel gives the scalar function's bits.

namespace allocsim {
namespace {

void logs_baseline(const double* x, double* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = portable_log(x[i]);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ALLOCSIM_X86_KERNELS 1

[[gnu::target("avx2")]] void logs_avx2(const double* x, double* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = portable_log(x[i]);
}

[[gnu::target("avx512f,avx512dq")]] void logs_avx512(const double* x, double* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = portable_log(x[i]);
}
#endif

std::vector<PortableLogKernel> kernels_of_this_processor() {
  std::vector<PortableLogKernel> kernels = {{"baseline", logs_baseline}};
#ifdef ALLOCSIM_X86_KERNELS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) kernels.push_back({"avx2", logs_avx2});
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"))
    kernels.push_back({"avx512", logs_avx512});
#endif
  return kernels;
}

}  // namespace

const std::vector<PortableLogKernel>& portable_log_kernels() {
  static const std::vector<PortableLogKernel> kernels = kernels_of_this_processor();
  return kernels;
}

void portable_logs(const double* x, double* out, std::size_t n) {
  static const auto widest = portable_log_kernels().back().logs;
  widest(x, out, n);
}

}  // namespace allocsim
