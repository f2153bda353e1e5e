#include "allocsim/profile/pprof_writer.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/profile.pb.h"

namespace allocsim::profile {
namespace {

class ProfileBuilder {
 public:
  ProfileBuilder() { message_.add_string_table(""); }

  std::int64_t string(const std::string& text) {
    const auto [it, added] = strings_.emplace(text, message_.string_table_size());
    if (added) message_.add_string_table(text);
    return it->second;
  }

  void add_type(const std::string& name) {
    const std::size_t slash = name.find('/');
    auto* type = message_.add_sample_type();
    type->set_type(string(name.substr(0, slash)));
    type->set_unit(string(slash == std::string::npos ? "count" : name.substr(slash + 1)));
  }

  // One function and one location per distinct frame name.
  std::uint64_t location(const std::string& frame) {
    const auto found = locations_.find(frame);
    if (found != locations_.end()) return found->second;
    const std::uint64_t id = locations_.size() + 1;
    auto* function = message_.add_function();
    function->set_id(id);
    function->set_name(string(frame));
    function->set_system_name(function->name());
    auto* location = message_.add_location();
    location->set_id(id);
    location->add_line()->set_function_id(id);
    locations_.emplace(frame, id);
    return id;
  }

  pprof::Profile& message() { return message_; }

 private:
  pprof::Profile message_;
  std::map<std::string, std::int64_t> strings_;
  std::map<std::string, std::uint64_t> locations_;
};

// `value` as an int64, held within its range (NaN as 0): the interval bounds of a
// record of very many objects, or a rate of 2^63, pass 2^63 - 1, where a plain cast
// is undefined (and gave INT64_MIN, which the reader refuses).
std::int64_t saturated(double value) {
  constexpr double kTwo63 = 0x1p63;
  if (std::isnan(value)) return 0;
  if (value >= kTwo63) return std::numeric_limits<std::int64_t>::max();
  if (value < -kTwo63) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(value);
}

}  // namespace

std::string annotated_pprof(const HeapProfile& profile, const std::vector<EntryInterval>& intervals) {
  ProfileBuilder builder;
  for (const std::string& name : profile.value_names) builder.add_type(name);
  const std::string& w = profile.window;
  for (const std::string& name : {std::string("samples/count"), w + "_space_lower/bytes", w + "_space_upper/bytes",
                                  w + "_objects_lower/count", w + "_objects_upper/count"}) {
    builder.add_type(name);
  }
  pprof::Profile& message = builder.message();
  auto* period_type = message.mutable_period_type();
  period_type->set_type(builder.string("space"));
  period_type->set_unit(builder.string("bytes"));
  message.set_period(saturated(profile.model.rate));
  message.set_default_sample_type(builder.string(w + "_space"));
  message.add_comment(builder.string("annotated by allocsim profile: " + model_name(profile.model.kind)));
  for (std::size_t i = 0; i < profile.entries.size(); ++i) {
    const ProfileEntry& entry = profile.entries[i];
    auto* sample = message.add_sample();
    for (const std::string& frame : entry.frames) sample->add_location_id(builder.location(frame));
    for (const std::int64_t value : entry.values) sample->add_value(value);
    for (const double value : {entry.samples, std::floor(intervals[i].bytes_lower), std::ceil(intervals[i].bytes_upper),
                               std::floor(intervals[i].objects_lower), std::ceil(intervals[i].objects_upper)}) {
      sample->add_value(saturated(value));
    }
  }
  return gzip(message.SerializeAsString());
}

}  // namespace allocsim::profile
