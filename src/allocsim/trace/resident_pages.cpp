#include "allocsim/trace/resident_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace allocsim {

void drop_resident_pages(const void* data, std::size_t bytes) {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + page - 1) / page * page;
  const std::uintptr_t last = (begin + bytes) / page * page;
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace allocsim
