#include "allocsim/trace/format/heaptrack_json.h"

namespace allocsim {

nlohmann::ordered_json to_json(const HeaptrackStats& h, const HeaptrackOptions& options) {
  const bool raw = h.kind == HeaptrackKind::raw;
  return {{"kind", to_string(h.kind)},
          {"file_version", h.file_version},
          {"heaptrack_version", h.heaptrack_version},
          {"command", h.command},
          {"allocations", h.allocations},
          {"frees", h.frees},
          {"frees_exact", raw},   // raw files name the pointer a free releases
          {"end_checked", !raw},  // only interpreted files carry an end mark
          {"pairing", raw ? "pointer" : to_string(options.pairing)},
          {"ambiguous_frees", h.ambiguous_frees},
          {"unmatched_frees", h.unmatched_frees},
          {"threads_recorded", false},  // heaptrack records no thread ids
          {"clock", to_string(options.clock)},
          {"last_millisecond", h.last_millisecond},
          {"attached", h.attached}};
}

}  // namespace allocsim
