#pragma once
// Large arrays that skip-ahead replay reads at random (a jump of thousands of
// events per sample point) on transparent huge pages: one TLB entry covers 2 MiB
// instead of 4 KiB, which removes most page walks from the per-sample cost.
// Advisory only: where the kernel offers no huge pages nothing changes.
#include <cstddef>
#include <vector>

namespace allocsim {

// madvise(MADV_HUGEPAGE) on the 2 MiB-aligned part of [data, data + bytes).
void advise_huge_pages(const void* data, std::size_t bytes);

// v.resize(n), with the storage advised before it is first touched.
template <class T>
void resize_on_huge_pages(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), n * sizeof(T));
  v.resize(n);
}

}  // namespace allocsim
