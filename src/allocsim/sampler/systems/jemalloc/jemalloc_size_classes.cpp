#include "allocsim/sampler/systems/jemalloc/jemalloc_size_classes.h"

#include <bit>

namespace allocsim {

// Large classes start at 2^(LG_PAGE + LG_NGROUP), where the spacing reaches a page.
static_assert(kJemallocLgPage + kJemallocLgGroup == 14, "16 KiB large minimum class");

std::uint64_t jemalloc_usable_size(std::uint64_t requested) {
  constexpr std::uint64_t tiny = std::uint64_t{1} << kJemallocLgTinyMin;
  constexpr std::uint64_t quantum = std::uint64_t{1} << kJemallocLgQuantum;
  constexpr std::uint64_t quantum_classes_end = quantum << kJemallocLgGroup;  // 64
  if (requested <= tiny) return tiny;                                         // includes malloc(0)
  if (requested > kJemallocLargeMaxClass) return requested;
  if (requested <= quantum_classes_end) return (requested + quantum - 1) & ~(quantum - 1);
  // Group of 2^g < requested <= 2^(g+1): classes are multiples of 2^(g - LG_NGROUP).
  const unsigned g = static_cast<unsigned>(std::bit_width(requested - 1)) - 1;
  const std::uint64_t delta = std::uint64_t{1} << (g - kJemallocLgGroup);
  return (requested + delta - 1) & ~(delta - 1);
}

}  // namespace allocsim
