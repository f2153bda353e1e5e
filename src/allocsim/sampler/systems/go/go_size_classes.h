#pragma once
// The slot the Go 1.19 allocator hands out for a request (golang/go
// src/runtime/sizeclasses.go class_to_size, malloc.go mallocgc, mcache.go
// allocLarge): the smallest of the 67 size classes (8 B .. 32 KiB) that holds it,
// above 32 KiB the request rounded up to whole 8 KiB pages. The memory profiler
// counts and records this slot size, not the requested size.
#include <cstdint>

namespace allocsim {

inline constexpr std::uint64_t kGoMaxSmallSize = 32768;
inline constexpr std::uint64_t kGoPageSize = 8192;
inline constexpr std::uint64_t kGoTinySize = 16;  // maxTinySize: the tiny allocator's block

// Slot size of a request of `size` > 0 bytes.
std::uint64_t go_slot_size(std::uint64_t size);

}  // namespace allocsim
