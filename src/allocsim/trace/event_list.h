#pragma once
// The trace indices of one thread's events, in order: 32 bits each when every
// index of the trace fits (at most 2^32 events), 64 bits otherwise.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "allocsim/util/huge_pages.h"

namespace allocsim {

class EventList {
 public:
  // Whether a trace of n events needs 64-bit indices.
  static bool needs_wide(std::uint64_t n) { return n > (std::uint64_t{1} << 32); }

  // `count` indices, all 0 until set.
  EventList(std::size_t count, bool wide) : wide_(wide) {
    if (wide_) {
      resize_on_huge_pages(wide_indices_, count);
    } else {
      resize_on_huge_pages(narrow_indices_, count);
    }
  }

  std::size_t size() const { return wide_ ? wide_indices_.size() : narrow_indices_.size(); }
  std::uint64_t operator[](std::size_t k) const { return wide_ ? wide_indices_[k] : narrow_indices_[k]; }
  void set(std::size_t k, std::uint64_t index) {
    if (wide_) {
      wide_indices_[k] = index;
    } else {
      narrow_indices_[k] = static_cast<std::uint32_t>(index);
    }
  }
  // Requests the cache line of index k without waiting for it.
  void prefetch(std::size_t k) const {
    if (wide_) {
      __builtin_prefetch(wide_indices_.data() + k);
    } else {
      __builtin_prefetch(narrow_indices_.data() + k);
    }
  }
  std::size_t bytes() const {
    return wide_indices_.size() * sizeof(std::uint64_t) + narrow_indices_.size() * sizeof(std::uint32_t);
  }

 private:
  bool wide_;
  std::vector<std::uint32_t> narrow_indices_;  // when !wide_
  std::vector<std::uint64_t> wide_indices_;    // when wide_
};

}  // namespace allocsim
