#pragma once
// jemalloc's size classes on x86-64 (include/jemalloc/internal/sc.h, src/sc.c
// size_classes(); jemalloc/jemalloc 295e489): the usable size `usize` that
// sz_s2u() returns for a request, which is what jemalloc's profiler counts down.
//
// Parameters of the x86-64 build: LG_QUANTUM = 4 (16-byte quantum), SC_LG_TINY_MIN
// = 3 (one tiny class, 8), SC_LG_NGROUP = 2 (4 classes per doubling), LG_PAGE = 12.
//   tiny:      8
//   quantum:   16, 32, 48, 64                      (multiples of the quantum)
//   groups:    2^g + j * 2^(g-2), j = 1..4, g >= 6  (80, 96, 112, 128, 160, ...)
// Small (slab) classes end at 14 KiB; from 16 KiB = 2^(LG_PAGE + SC_LG_NGROUP) on the
// classes are large and their spacing 2^(g-2) is a multiple of the 4 KiB page. The
// largest class is 7 * 2^60 (SC_LARGE_MAXCLASS); malloc(0) is served as size 1.
#include <cstdint>

namespace allocsim {

inline constexpr unsigned kJemallocLgQuantum = 4;
inline constexpr unsigned kJemallocLgTinyMin = 3;
inline constexpr unsigned kJemallocLgGroup = 2;
inline constexpr unsigned kJemallocLgPage = 12;
inline constexpr std::uint64_t kJemallocLargeMaxClass = std::uint64_t{7} << 60;

// The usable size of a request. Requests above the largest class fail in jemalloc;
// the model keeps their requested size (no class, no overflow).
std::uint64_t jemalloc_usable_size(std::uint64_t requested);

}  // namespace allocsim
