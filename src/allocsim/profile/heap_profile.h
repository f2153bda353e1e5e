#pragma once
// A sampled heap profile as read from a real profiler's file: one entry per record
// (a stack, and the object size where the format keeps one), with the values the
// file holds, the samples behind them and the estimate the system's own tool shows.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/profile/sampling_model.h"

namespace allocsim::profile {

struct ProfileEntry {
  std::vector<std::string> frames;  // leaf first: function names or hex addresses
  // Size of each object in the record; with mixed_sizes, the record's average size
  // (its bytes over its objects), which the system's own scaling also uses.
  double object_size = 0;
  bool mixed_sizes = false;
  double samples = 0;                 // sampled objects behind the record
  bool samples_approximate = false;   // recovered from rounded, scaled values
  double estimate_objects = 0;        // as the system's own tool reports them
  double estimate_bytes = 0;
  std::vector<std::int64_t> values;   // the record's values as written (pprof order)
};

// Sample counts beyond this (2^52) are refused: not every whole number above it is
// a double, and no real profile holds that many.
inline constexpr double kMaxSamples = 4503599627370496.0;

struct HeapProfile {
  std::string path;
  std::string format;  // "pprof", "jemalloc heap_v2", "gperftools heap_v2"
  std::string window;  // "inuse" or "alloc"
  SamplingModel model;
  std::vector<std::string> value_names;  // names of ProfileEntry::values, with units
  std::vector<ProfileEntry> entries;     // records with at least one sample
  std::string samples_note;              // how the samples were recovered
};

}  // namespace allocsim::profile
