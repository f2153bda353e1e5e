#include "allocsim/profile/pprof_writer.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/pprof_strings.h"
#include "allocsim/profile/profile.pb.h"

namespace allocsim::profile {
namespace {

// `value` as an int64, held within its range (NaN as 0): the interval bounds of a
// record of very many objects pass 2^63 - 1, where a plain cast is undefined.
std::int64_t saturated(double value) {
  constexpr double kTwo63 = 0x1p63;
  if (std::isnan(value)) return 0;
  if (value >= kTwo63) return std::numeric_limits<std::int64_t>::max();
  if (value < -kTwo63) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(value);
}

// The object size of a sample with no entry in the window: its "bytes" label, else
// its bytes over its objects in any window; 0 when it has neither.
double object_size(const pprof::Profile& message, const pprof::Sample& sample) {
  for (const auto& label : sample.label()) {
    if (label.key() < message.string_table_size() && message.string_table(static_cast<int>(label.key())) == "bytes" &&
        label.num() > 0) {
      return static_cast<double>(label.num());
    }
  }
  for (int t = 0; t + 1 < sample.value_size() && t + 1 < message.sample_type_size(); ++t) {
    const std::string& objects = message.string_table(static_cast<int>(message.sample_type(t).type()));
    const std::string& space = message.string_table(static_cast<int>(message.sample_type(t + 1).type()));
    if (objects.find("objects") != std::string::npos && space.find("space") != std::string::npos &&
        sample.value(t) > 0 && sample.value(t + 1) > 0) {
      return static_cast<double>(sample.value(t + 1)) / static_cast<double>(sample.value(t));
    }
  }
  return 0;
}

}  // namespace

std::string annotated_pprof(const HeapProfile& profile, const std::vector<EntryInterval>& intervals, double level) {
  pprof::Profile message;
  if (!message.ParseFromString(profile.pprof_message)) {
    throw std::logic_error("annotated_pprof: the profile holds no readable pprof message");
  }
  PprofStrings strings(message);
  const std::string& w = profile.window;
  for (const std::string& name : {std::string("samples/count"), w + "_space_lower/bytes", w + "_space_upper/bytes",
                                  w + "_objects_lower/count", w + "_objects_upper/count"}) {
    const std::size_t slash = name.find('/');
    auto* type = message.add_sample_type();
    type->set_type(strings(name.substr(0, slash)));
    type->set_unit(strings(name.substr(slash + 1)));
  }
  char level_text[32];
  std::snprintf(level_text, sizeof level_text, "%g", level);
  message.add_comment(strings("annotated by allocsim profile: " + model_description(profile.model) + "; " + w +
                              " window, intervals at level " + level_text));
  std::vector<const ProfileEntry*> entry_of(static_cast<std::size_t>(message.sample_size()), nullptr);
  std::vector<const EntryInterval*> interval_of(entry_of.size(), nullptr);
  for (std::size_t i = 0; i < profile.entries.size(); ++i) {
    entry_of.at(profile.entries[i].source_sample) = &profile.entries[i];
    interval_of[profile.entries[i].source_sample] = &intervals.at(i);
  }
  for (int s = 0; s < message.sample_size(); ++s) {
    auto* sample = message.mutable_sample(s);
    const auto at = static_cast<std::size_t>(s);
    double samples = 0;
    EntryInterval none;
    const EntryInterval* interval = interval_of[at];
    if (entry_of[at] != nullptr) {
      samples = entry_of[at]->samples;
    } else if (const double size = object_size(message, *sample); size > 0) {
      none = entry_interval(profile.model, 0, size, level, false);
      interval = &none;
    } else {
      interval = &none;  // nothing in any window: nothing to hide
    }
    for (const double value : {samples, std::floor(interval->bytes_lower), std::ceil(interval->bytes_upper),
                               std::floor(interval->objects_lower), std::ceil(interval->objects_upper)}) {
      sample->add_value(saturated(value));
    }
  }
  return gzip(message.SerializeAsString());
}

}  // namespace allocsim::profile
