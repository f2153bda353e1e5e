#pragma once
// Keeping a read-only file mapping from growing this process's resident set while
// a whole file is scanned once (checksum, validation): the pages read are dropped
// from the process after use; they stay in the page cache for other processes.
#include <cstddef>

namespace allocsim {

// madvise(MADV_DONTNEED) on the whole pages inside [data, data + bytes). Only for
// read-only file mappings, whose pages come back from the file on the next read.
void drop_resident_pages(const void* data, std::size_t bytes);

}  // namespace allocsim
