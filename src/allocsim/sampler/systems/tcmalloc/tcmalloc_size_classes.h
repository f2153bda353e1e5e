#pragma once
// tcmalloc's size classes for its default x86-64 build: 8 KiB tcmalloc pages
// (TCMALLOC_PAGE_SHIFT 13) and 16-byte operator-new alignment, the second
// TCMALLOC_PAGE_SHIFT == 13 table of tcmalloc/size_classes.cc (google/tcmalloc
// 078e62e): 85 classes from 8 to 262144 bytes (kMaxSize). A request is served by the
// smallest class >= its size (malloc(0) by the 8-byte class); larger requests get
// whole 8 KiB pages. This is the size `a` of tcmalloc's byte estimate W a / (r + 1).
#include <cstdint>

namespace allocsim {

inline constexpr std::uint64_t kTcmallocPageSize = 8192;
inline constexpr std::uint64_t kTcmallocMaxSmallSize = 262144;

std::uint64_t tcmalloc_allocated_size(std::uint64_t requested);

}  // namespace allocsim
