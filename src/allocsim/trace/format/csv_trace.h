#pragma once
// A plain-text trace for allocations logged by other means: a header line naming
// the columns, then one event per line, in time order.
//
//   thread,op,size,stack,type,time,id[,allocated]
//   0,alloc,48,parse_row,0,0,0
//   ,free,48,,,5,0
//
// - op is "alloc" or "free". An alloc's id is its own; a free's id names the live
//   allocation it frees. An id may be used again once its allocation is freed (so
//   pointers work as ids).
// - On free lines only time and id are read; size, when given, must match the
//   allocation's. The freeing thread is not kept.
// - thread is a number; threads get dense ids in increasing order.
// - stack and type are numbers or names (RFC 4180 quoting for commas and quotes).
//   If every value of a column is a number they are ids, renumbered densely in
//   increasing order; otherwise each distinct name gets an id in order of first
//   appearance and is kept as the group's name.
// - time is a non-decreasing integer; allocated (optional) is the allocator's size.
// - Every line ends in a newline; a last line without one means the file was cut.
// The file may be zstd- or gzip-compressed.
#include <string>
#include <string_view>

#include "allocsim/trace/trace.h"

namespace allocsim {

// True if `line` is a header of this format (the test for detecting it).
bool is_csv_trace_header(std::string_view line);

std::string encode_csv_trace(const Trace& trace);
// Written atomically (temp file + rename).
void write_csv_trace(const Trace& trace, const std::string& path);
// InputError "<path>: line <n>: <reason>".
Trace read_csv_trace(const std::string& path);

}  // namespace allocsim
