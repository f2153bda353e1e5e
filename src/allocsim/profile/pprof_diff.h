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
//
// Frames are the inputs' own: a sample has the locations of the record it comes from
// (HeapProfile::pprof_message, ProfileEntry::source_sample: NEW's record for NEW's
// sample, BASE's for BASE's), with their lines (function name and system name, file,
// start line, line number, inlined calls innermost first) and mapping (file, build
// id, offset, the has_* flags); a text profile's as symbols.h left them, a name where
// one was resolved, else the address in its mapping. The two are merged as
// google/pprof's profile.Merge merges profiles (profile/merge.go):
//   mappings one per (build id, else file; file offset; size rounded up to 4 KiB),
//     each where the first profile holding it had it, NEW before BASE;
//   a location in a mapping that the other run placed elsewhere (address
//     randomisation moves each mapping whole) moved by the difference of the two
//     starts, so that its address is the one NEW's run had for the same place in the
//     file (FILE+0xOFFSET, stable_stack.h). pprof's views merge frames by function
//     and line (a frame without a name by its mapping), but -addresses shows each
//     address: the runs' raw addresses would show one frame there twice, as +X and
//     -X. Moved into NEW's places rather than made relative to each mapping, they
//     leave NEW's mappings where its run had them, so pprof symbolizes them from the
//     files as it would NEW itself. An address in no mapping stays as written;
//   locations one per (mapping, address, lines), functions one per (name, system
//     name, file, start line),
// so both profiles' samples share every frame they have in common, in every view.
// An entry made of several records of one profile (stacks whose stable text is one:
// the same functions at other lines) is a sample per record, values rounded so that
// they add up to the entry's rounded total.
#include <cstddef>
#include <string>
#include <vector>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

struct PprofDiffEntry {
  std::vector<std::size_t> base_records, new_records;  // indexes into each profile's entries
  double object_size = 0;                              // bytes
  bool changed = false;
  double p_holm = 1;
  double change_lower = 0, change_upper = 0;  // bytes
};

// gzip'd profile.proto bytes, sample types of NEW's window; `comment` is kept.
// InputError naming the file when an input's message names a string, mapping or
// function it does not hold.
std::string pprof_diff(const HeapProfile& base, const HeapProfile& next, const std::vector<PprofDiffEntry>& entries,
                       const std::string& comment);

}  // namespace allocsim::profile
