#include "allocsim/sampler/systems/tcmalloc/tcmalloc_size_classes.h"

#include <algorithm>
#include <array>

namespace allocsim {
namespace {

// <bytes> column of kSizeClasses (class 0, the "no class" entry, omitted).
constexpr std::array<std::uint32_t, 85> kClasses = {
    8,      16,     32,     48,     64,     80,     96,     112,    128,    144,   160,   176,   192,   208,   224,
    240,    256,    272,    288,    304,    320,    336,    352,    368,    384,   400,   416,   448,   480,   512,
    576,    640,    704,    768,    896,    1024,   1152,   1280,   1408,   1536,  1792,  2048,  2304,  2688,  2816,
    3200,   3456,   3584,   4096,   4736,   5376,   6144,   6528,   6784,   7168,  8192,  9472,  10240, 12288, 13568,
    14336,  16384,  20480,  24576,  28672,  32768,  40960,  49152,  57344,  65536, 73728, 81920, 90112, 98304, 106496,
    122880, 131072, 139264, 155648, 163840, 180224, 204800, 221184, 237568, 262144};
static_assert(kClasses.back() == kTcmallocMaxSmallSize);

}  // namespace

std::uint64_t tcmalloc_allocated_size(std::uint64_t requested) {
  if (requested > kTcmallocMaxSmallSize) {
    return (requested + kTcmallocPageSize - 1) / kTcmallocPageSize * kTcmallocPageSize;
  }
  return *std::lower_bound(kClasses.begin(), kClasses.end(), requested);
}

}  // namespace allocsim
