#include "allocsim/profile/legacy_pprof.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

#include "allocsim/profile/pprof_strings.h"
#include "allocsim/profile/profile.pb.h"

namespace allocsim::profile {
namespace {

// A value >= 0 as an int64, truncated as Go's int64() does, held at 2^63 - 1.
std::int64_t held(double value) {
  constexpr double kTwo63 = 0x1p63;
  return value >= kTwo63 ? INT64_MAX : static_cast<std::int64_t>(value);
}

// scaleHeapSample: the pair (objects, bytes) over the chance an object of their
// average size is sampled.
std::pair<std::int64_t, std::int64_t> scaled(std::uint64_t objects, std::uint64_t bytes, double rate) {
  if (objects == 0 || bytes == 0) return {0, 0};
  const auto count = static_cast<double>(objects), size = static_cast<double>(bytes);
  const double scale = rate <= 1 ? 1.0 : 1.0 / -std::expm1(-(size / count) / rate);
  return {held(count * scale), held(size * scale)};
}

}  // namespace

std::string legacy_pprof(const std::vector<LegacyRecord>& records, double rate,
                         const std::vector<MappedRange>& mappings, const std::string& window) {
  pprof::Profile message;
  PprofStrings strings(message);
  for (const char* name : {"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"}) {
    auto* type = message.add_sample_type();
    type->set_type(strings(name));
    type->set_unit(strings(std::string(name).find("space") != std::string::npos ? "bytes" : "count"));
  }
  message.mutable_period_type()->set_type(strings("space"));
  message.mutable_period_type()->set_unit(strings("bytes"));
  message.set_period(rate <= 1 ? 1 : held(rate));
  message.set_default_sample_type(strings(window + "_space"));
  for (std::size_t m = 0; m < mappings.size(); ++m) {
    auto* mapping = message.add_mapping();
    mapping->set_id(m + 1);
    mapping->set_memory_start(mappings[m].start);
    mapping->set_memory_limit(mappings[m].limit);
    mapping->set_file_offset(mappings[m].offset);
    mapping->set_filename(strings(mappings[m].file));
  }
  std::map<std::uint64_t, std::uint64_t> location_of;  // address -> location id
  const std::int64_t bytes_key = strings("bytes");
  for (const LegacyRecord& record : records) {
    auto* sample = message.add_sample();
    for (std::size_t i = 0; i < record.frames.size(); ++i) {
      const std::uint64_t address = hex_value(record.frames[i]) - (i > 0 ? 1 : 0);
      auto [it, added] = location_of.emplace(address, location_of.size() + 1);
      if (added) {
        auto* location = message.add_location();
        location->set_id(it->second);
        location->set_address(address);
        for (std::size_t m = 0; m < mappings.size(); ++m) {
          if (address >= mappings[m].start && address < mappings[m].limit) {
            location->set_mapping_id(m + 1);
            break;
          }
        }
      }
      sample->add_location_id(it->second);
    }
    const auto [alloc_objects, alloc_bytes] = scaled(record.alloc_objects, record.alloc_bytes, rate);
    const auto [inuse_objects, inuse_bytes] = scaled(record.inuse_objects, record.inuse_bytes, rate);
    for (const std::int64_t value : {alloc_objects, alloc_bytes, inuse_objects, inuse_bytes}) sample->add_value(value);
    // The average object size, in use if any are, else allocated (parseHeapSample
    // takes the last pair it reads, the in-use one, when it has objects).
    const std::uint64_t objects = record.inuse_objects > 0 ? record.inuse_objects : record.alloc_objects;
    const std::uint64_t bytes = record.inuse_objects > 0 ? record.inuse_bytes : record.alloc_bytes;
    if (objects > 0) {
      auto* label = sample->add_label();
      label->set_key(bytes_key);
      label->set_num(static_cast<std::int64_t>(bytes / objects));
    }
  }
  return message.SerializeAsString();
}

}  // namespace allocsim::profile
