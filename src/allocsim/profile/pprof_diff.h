#pragma once
// The annotated pprof diff of `allocsim diff --pprof`: one profile holding NEW's
// entries as they are and BASE's with their values negated and the label
// "pprof::base" = "true", which is exactly what `go tool pprof -diff_base=BASE NEW`
// builds before it reports (google/pprof internal/driver/fetch.go: base.Scale(-1),
// then the two merged), so any pprof view of it shows NEW - BASE, and percentages
// are of BASE's total as under -diff_base. Sample types: <window>_objects/count and
// <window>_space/bytes (the estimates, rounded to integers). Every sample carries its
// entry's verdict and numbers as labels:
//   change        "changed" or "no evidence" (string): -tagfocus=change=changed keeps
//                 only the entries whose change is real at the diff's family-wise rate
//   p_holm        Holm-adjusted p-value in parts per million (numeric, unit "ppm")
//   change_lower, change_upper   the interval for NEW - BASE (numeric, unit "bytes")
//   bytes         the object size (numeric, unit "bytes"), as Go writes it
// Frames become one function each, named by the stable text both profiles share.
#include <string>
#include <vector>

namespace allocsim::profile {

struct PprofDiffEntry {
  std::vector<std::string> frames;  // leaf first
  double object_size = 0;           // bytes
  double base_objects = 0, base_bytes = 0;
  double new_objects = 0, new_bytes = 0;
  bool changed = false;
  double p_holm = 1;
  double change_lower = 0, change_upper = 0;  // bytes
};

// gzip'd profile.proto bytes; `window` names the sample types, `comment` is kept.
std::string pprof_diff(const std::vector<PprofDiffEntry>& entries, const std::string& window,
                       const std::string& comment);

}  // namespace allocsim::profile
