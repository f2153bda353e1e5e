#include "allocsim/profile/pprof_diff.h"

#include <cmath>
#include <cstdint>
#include <map>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/pprof_strings.h"
#include "allocsim/profile/profile.pb.h"

namespace allocsim::profile {
namespace {

class DiffBuilder {
 public:
  DiffBuilder() : strings_(message_) {}

  void add_sample_type(const std::string& type, const std::string& unit) {
    auto* t = message_.add_sample_type();
    t->set_type(strings_(type));
    t->set_unit(strings_(unit));
  }

  // One sample of `entry` with the values given (BASE's negated, labelled as base).
  void add_sample(const PprofDiffEntry& entry, double objects, double bytes, bool is_base) {
    const auto rounded_objects = std::llround(objects);
    const auto rounded_bytes = std::llround(bytes);
    if (rounded_objects == 0 && rounded_bytes == 0) return;
    auto* sample = message_.add_sample();
    for (const std::string& frame : entry.frames) sample->add_location_id(location_of(frame));
    sample->add_value(is_base ? -rounded_objects : rounded_objects);
    sample->add_value(is_base ? -rounded_bytes : rounded_bytes);
    add_text(*sample, "change", entry.changed ? "changed" : "no evidence");
    if (is_base) add_text(*sample, "pprof::base", "true");
    add_number(*sample, "p_holm", std::llround(entry.p_holm * 1e6), "ppm");
    add_number(*sample, "change_lower", std::llround(std::floor(entry.change_lower)), "bytes");
    add_number(*sample, "change_upper", std::llround(std::ceil(entry.change_upper)), "bytes");
    add_number(*sample, "bytes", std::llround(entry.object_size), "bytes");
  }

  std::string finish(const std::string& comment) {
    message_.add_comment(strings_(comment));
    return gzip(message_.SerializeAsString());
  }

 private:
  void add_text(pprof::Sample& sample, const std::string& key, const std::string& text) {
    auto* label = sample.add_label();
    label->set_key(strings_(key));
    label->set_str(strings_(text));
  }

  void add_number(pprof::Sample& sample, const std::string& key, std::int64_t value, const std::string& unit) {
    auto* label = sample.add_label();
    label->set_key(strings_(key));
    label->set_num(value);
    label->set_num_unit(strings_(unit));
  }

  // The location of `frame`: one function and one location per distinct frame text.
  std::uint64_t location_of(const std::string& frame) {
    auto [at, added] = locations_.try_emplace(frame, locations_.size() + 1);
    if (added) {
      auto* function = message_.add_function();
      function->set_id(at->second);
      function->set_name(strings_(frame));
      function->set_system_name(strings_(frame));
      auto* location = message_.add_location();
      location->set_id(at->second);
      location->add_line()->set_function_id(at->second);
    }
    return at->second;
  }

  pprof::Profile message_;
  PprofStrings strings_;
  std::map<std::string, std::uint64_t> locations_;
};

}  // namespace

std::string pprof_diff(const std::vector<PprofDiffEntry>& entries, const std::string& window,
                       const std::string& comment) {
  DiffBuilder builder;
  builder.add_sample_type(window + "_objects", "count");
  builder.add_sample_type(window + "_space", "bytes");
  for (const PprofDiffEntry& entry : entries) {
    builder.add_sample(entry, entry.new_objects, entry.new_bytes, false);
    builder.add_sample(entry, entry.base_objects, entry.base_bytes, true);
  }
  return builder.finish(comment);
}

}  // namespace allocsim::profile
