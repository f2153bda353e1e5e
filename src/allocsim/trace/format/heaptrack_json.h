#pragma once
// What a heaptrack file said about itself and how it was read, as JSON: the
// "heaptrack" object of `allocsim trace info --json` and of Python's
// Trace.info() / Trace.heaptrack, written here once for both.
#include <nlohmann/json.hpp>

#include "allocsim/trace/format/heaptrack_reader.h"

namespace allocsim {

// `options` are those the file was read with (pairing, clock).
nlohmann::ordered_json to_json(const HeaptrackStats& stats, const HeaptrackOptions& options);

}  // namespace allocsim
