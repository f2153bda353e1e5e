#include "allocsim/sampler/systems/go/go_size_classes.h"

#include <algorithm>
#include <array>

namespace allocsim {
namespace {

// class_to_size[1..67] of Go 1.19's sizeclasses.go.
constexpr std::array<std::uint16_t, 67> kClassSizes = {
    8,    16,   24,    32,    48,    64,    80,    96,    112,   128,   144,   160,   176,   192,   208,   224,  240,
    256,  288,  320,   352,   384,   416,   448,   480,   512,   576,   640,   704,   768,   896,   1024,  1152, 1280,
    1408, 1536, 1792,  2048,  2304,  2688,  3072,  3200,  3456,  4096,  4864,  5376,  6144,  6528,  6784,  6912, 8192,
    9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768};

}  // namespace

std::uint64_t go_slot_size(std::uint64_t size) {
  if (size <= kGoMaxSmallSize) {
    return *std::lower_bound(kClassSizes.begin(), kClassSizes.end(), size);
  }
  return (size + kGoPageSize - 1) / kGoPageSize * kGoPageSize;
}

}  // namespace allocsim
