#include "allocsim/profile/pprof_reader.h"

#include <cmath>
#include <cstdint>
#include <map>

#include "allocsim/profile/pprof_wire_scan.h"
#include "allocsim/profile/profile.pb.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim::profile {
namespace {

class StringTable {
 public:
  StringTable(const pprof::Profile& profile, const std::string& path) : profile_(profile), path_(path) {}
  const std::string& at(std::int64_t index, const char* field) const {
    if (index < 0 || index >= profile_.string_table_size()) {
      throw InputError(path_ + ": " + field + " names string " + std::to_string(index) + ", beyond the string table");
    }
    return profile_.string_table(static_cast<int>(index));
  }

 private:
  const pprof::Profile& profile_;
  const std::string& path_;
};

pprof::Profile parse_message(const std::string& data, const std::string& path) {
  check_pprof_wire(data, path);
  pprof::Profile profile;
  if (!profile.ParseFromString(data)) {
    throw InputError(path + ": not a pprof profile (the protobuf does not parse as a Profile)");
  }
  if (!profile.GetReflection()->GetUnknownFields(profile).empty() || profile.string_table_size() == 0 ||
      !profile.string_table(0).empty()) {
    throw InputError(path + ": not a pprof profile (a protobuf of another message: unknown "
                            "fields or no string table starting with \"\")");
  }
  return profile;
}

int sample_type_index(const pprof::Profile& profile, const StringTable& strings, const std::string& name) {
  for (int i = 0; i < profile.sample_type_size(); ++i) {
    if (strings.at(profile.sample_type(i).type(), "sample_type") == name) return i;
  }
  return -1;
}

// The first few sample types, each quoted, for an error message.
std::string sample_type_list(const pprof::Profile& profile, const StringTable& strings) {
  constexpr int kShown = 8;
  std::string list;
  for (int i = 0; i < profile.sample_type_size() && i < kShown; ++i) {
    const auto& type = profile.sample_type(i);
    if (!list.empty()) list += ", ";  // piecewise: GCC 12 LTO warns on "literal" + string
    list += printable(strings.at(type.type(), "sample_type") + "/" + strings.at(type.unit(), "sample_type"));
  }
  if (profile.sample_type_size() > kShown) list += ", ...";
  return list.empty() ? "none" : list;
}

// Function names of each location, innermost inlined call first; the address when
// the location has no line information.
std::map<std::uint64_t, std::vector<std::string>> location_frames(const pprof::Profile& profile,
                                                                  const StringTable& strings, const std::string& path) {
  std::map<std::uint64_t, std::string> functions;
  for (const auto& function : profile.function()) {
    functions[function.id()] = strings.at(function.name(), "function.name");
  }
  std::map<std::uint64_t, std::vector<std::string>> frames;
  for (const auto& location : profile.location()) {
    std::vector<std::string>& names = frames[location.id()];
    for (const auto& line : location.line()) {
      const auto function = functions.find(line.function_id());
      if (function == functions.end()) {
        throw InputError(path + ": location " + std::to_string(location.id()) + " names function " +
                         std::to_string(line.function_id()) + ", which is not defined");
      }
      names.push_back(function->second);
    }
    if (names.empty()) {
      char address[24];
      std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(location.address()));
      names.emplace_back(address);
    }
  }
  return frames;
}

std::int64_t size_label(const pprof::Sample& sample, const StringTable& strings) {
  for (const auto& label : sample.label()) {
    if (strings.at(label.key(), "label.key") == "bytes") return label.num();
  }
  return 0;
}

// pprof-nodejs adds process.memoryUsage().external, the bytes V8 holds outside its heap,
// as one object under a lone "(external)" frame (heap-profiler.ts convertProfile;
// Pyroscope's conversion names it ":(external):0"): a total, not a sampled allocation.
bool is_nodejs_external(const ProfileEntry& entry, double objects) {
  return objects == 1 && entry.frames.size() == 1 &&
         (entry.frames[0] == "(external)" || entry.frames[0] == ":(external):0");
}

// The window a profile shows by default: its default_sample_type's (Go's allocs
// profile names alloc_space, runtime/pprof writeHeapProto), else inuse when the
// profile has it, else alloc when only that is there.
std::string default_window(const pprof::Profile& profile, const StringTable& strings) {
  if (profile.default_sample_type() != 0) {
    const std::string& name = strings.at(profile.default_sample_type(), "default_sample_type");
    if (name.rfind("alloc_", 0) == 0) return "alloc";
    if (name.rfind("inuse_", 0) == 0) return "inuse";
  }
  if (sample_type_index(profile, strings, "inuse_space") < 0 &&
      sample_type_index(profile, strings, "alloc_space") >= 0) {
    return "alloc";
  }
  return "inuse";
}

}  // namespace

HeapProfile read_pprof(const std::string& data, const std::string& path, const std::string& asked_window) {
  const pprof::Profile message = parse_message(data, path);
  const StringTable strings(message, path);
  const std::string window = asked_window.empty() ? default_window(message, strings) : asked_window;
  int objects_index = sample_type_index(message, strings, window + "_objects");
  int bytes_index = sample_type_index(message, strings, window + "_space");
  // Node.js (V8's SamplingHeapProfiler through pprof-nodejs) writes objects/space, or
  // inuse_objects/inuse_space as @datadog/pprof 5.x and Pyroscope name them, never a
  // "bytes" label: what is live, scaled by V8's ScaleSample, rounded half up.
  const bool v8_types = objects_index < 0 && window == "inuse" && sample_type_index(message, strings, "objects") >= 0 &&
                        sample_type_index(message, strings, "space") >= 0;
  if (v8_types) {
    objects_index = sample_type_index(message, strings, "objects");
    bytes_index = sample_type_index(message, strings, "space");
  }
  if (objects_index < 0 || bytes_index < 0) {
    throw InputError(path + ": not a Go heap profile with " + window + "_objects and " + window +
                     "_space (its sample types: " + sample_type_list(message, strings) + "); " + kReadableFormats);
  }
  if (message.period() <= 0) {
    throw InputError(path + ": sampling rate (period) is " + std::to_string(message.period()) + ", not a rate >= 1");
  }
  bool any_size_label = false;
  for (const auto& sample : message.sample()) any_size_label = any_size_label || size_label(sample, strings) > 0;
  const bool v8 = v8_types || (!any_size_label && message.sample_size() > 0 &&
                               sample_type_index(message, strings, "alloc_objects") < 0);
  HeapProfile profile;
  profile.path = path;
  profile.pprof_message = data;
  profile.format = v8 ? "v8 pprof" : "pprof";
  profile.window = window;
  profile.model = model_for_profile_format(profile.format, static_cast<double>(message.period()));
  profile.samples_note = v8 ? "samples are the written values unscaled by V8's ScaleSample (rounded half up), "
                              "exact for a record of one size"
                            : "samples are the written values unscaled by Go's 1/(1-exp(-s/R)), exact with the "
                              "record's \"bytes\" label";
  const double rate = static_cast<double>(message.period());
  const auto frames = location_frames(message, strings, path);
  std::size_t frame_count = 0;
  for (int s = 0; s < message.sample_size(); ++s) {
    const pprof::Sample& sample = message.sample(s);
    const std::string where = path + ": sample " + std::to_string(s);
    if (sample.value_size() != message.sample_type_size()) {
      throw InputError(where + " has " + std::to_string(sample.value_size()) + " values for " +
                       std::to_string(message.sample_type_size()) + " sample types");
    }
    const auto objects = static_cast<double>(sample.value(objects_index));
    const auto bytes = static_cast<double>(sample.value(bytes_index));
    if (objects < 0 || bytes < 0) {
      throw InputError(where + " has negative values (" + window + "_objects " +
                       std::to_string(sample.value(objects_index)) + ", " + window + "_space " +
                       std::to_string(sample.value(bytes_index)) +
                       "): a delta profile (one dump less another, as Parca and Datadog store them), not the "
                       "counts of a heap profile; " +
                       kReadableFormats);
    }
    if ((objects == 0) != (bytes == 0) || objects > kMaxSamples) {
      throw InputError(where + " has impossible values (" + window + "_objects " +
                       std::to_string(sample.value(objects_index)) + ", " + window + "_space " +
                       std::to_string(sample.value(bytes_index)) + ")");
    }
    if (objects == 0) continue;
    check_profile_size(profile.entries.size() + 1, frame_count, path);
    ProfileEntry entry;
    for (const std::uint64_t id : sample.location_id()) {
      const auto location = frames.find(id);
      if (location == frames.end()) {
        throw InputError(where + " names location " + std::to_string(id) + ", which is not defined");
      }
      frame_count += location->second.size();
      check_profile_size(0, frame_count, path);
      entry.frames.insert(entry.frames.end(), location->second.begin(), location->second.end());
    }
    if (v8 && is_nodejs_external(entry, objects)) {
      profile.note = "left out pprof-nodejs's \"(external)\" record of " + std::to_string(sample.value(bytes_index)) +
                     " bytes: process.memoryUsage().external, V8's memory outside its heap, a total rather than "
                     "sampled allocations";
      continue;
    }
    const std::int64_t label = size_label(sample, strings);
    entry.object_size = label > 0 ? static_cast<double>(label) : bytes / objects;
    entry.samples_approximate = label <= 0;
    // scaleHeapSample: written = floor(k f); rate 1 means every allocation, f = 1.
    const double scale = rate <= 1 ? 1.0 : 1.0 / -std::expm1(-entry.object_size / rate);
    const double unscaled = objects / scale;
    if (v8) {
      // V8's ScaleSample writes floor(k f + 0.5) per (node, size): written/f lies within
      // 0.5/f <= 0.5 of k, so k is its nearest whole number when the record holds one
      // size (its space a whole multiple of its objects); else the sizes are mixed.
      entry.mixed_sizes = std::fmod(bytes, objects) != 0;
      entry.samples_approximate = entry.mixed_sizes;
      entry.samples = std::fmax(1.0, std::round(unscaled));
    } else {
      entry.samples = std::fmax(1.0, std::ceil(unscaled - 1e-9 * unscaled));
    }
    entry.estimate_objects = objects;
    entry.estimate_bytes = bytes;
    entry.source_sample = static_cast<std::size_t>(s);
    check_estimate(entry, where);
    profile.entries.push_back(std::move(entry));
  }
  return profile;
}

}  // namespace allocsim::profile
