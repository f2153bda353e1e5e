#include "allocsim/profile/pprof_diff.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/pprof_strings.h"
#include "allocsim/profile/profile.pb.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim::profile {
namespace {

// One input profile: its message, and what of it the diff already holds.
class Input {
 public:
  explicit Input(const HeapProfile& profile) : profile_(profile) {
    if (!message_.ParseFromString(profile.pprof_message)) {
      throw std::logic_error("pprof_diff: \"" + profile.path + "\" holds no readable pprof message");
    }
    for (int i = 0; i < message_.mapping_size(); ++i) mapping_at_.emplace(message_.mapping(i).id(), i);
    for (int i = 0; i < message_.location_size(); ++i) location_at_.emplace(message_.location(i).id(), i);
    for (int i = 0; i < message_.function_size(); ++i) function_at_.emplace(message_.function(i).id(), i);
  }

  const HeapProfile& profile() const { return profile_; }

  const pprof::Sample& sample_of(const ProfileEntry& record) const {
    if (record.source_sample >= static_cast<std::size_t>(message_.sample_size())) {
      throw std::logic_error("pprof_diff: a record of \"" + profile_.path + "\" has no sample in its message");
    }
    return message_.sample(static_cast<int>(record.source_sample));
  }

  const std::string& text(std::int64_t index, const char* field) const {
    if (index < 0 || index >= message_.string_table_size()) {
      throw InputError(printable_name(profile_.path) + ": " + field + " names string " + std::to_string(index) +
                       ", beyond the string table");
    }
    return message_.string_table(static_cast<int>(index));
  }

  const pprof::Mapping& mapping(std::uint64_t id) const { return message_.mapping(at(mapping_at_, id, "mapping")); }
  const pprof::Location& location(std::uint64_t id) const {
    return message_.location(at(location_at_, id, "location"));
  }
  const pprof::Function& function(std::uint64_t id) const {
    return message_.function(at(function_at_, id, "function"));
  }

  // The diff's ids of this input's locations and mappings (with the shift of its
  // addresses), once written.
  std::map<std::uint64_t, std::uint64_t> written_locations;
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> written_mappings;

 private:
  int at(const std::map<std::uint64_t, int>& index, std::uint64_t id, const char* what) const {
    const auto found = index.find(id);
    if (found == index.end()) {
      throw InputError(printable_name(profile_.path) + ": " + what + " " + std::to_string(id) +
                       " is named but not defined");
    }
    return found->second;
  }

  const HeapProfile& profile_;
  pprof::Profile message_;
  std::map<std::uint64_t, int> mapping_at_, location_at_, function_at_;
};

class DiffBuilder {
 public:
  DiffBuilder() : strings_(message_) {}

  void add_sample_type(const std::string& type, const std::string& unit) {
    auto* t = message_.add_sample_type();
    t->set_type(strings_(type));
    t->set_unit(strings_(unit));
  }

  // A sample per record of `input` behind `entry`, with the record's locations and
  // estimates (BASE's negated and labelled as base). Each value is round(S_k) -
  // round(S_(k-1)), S_k the sum of the first k records' estimates: within 1 of its
  // record's, and together the rounded sum exactly.
  void add_samples(Input& input, const std::vector<std::size_t>& records, const PprofDiffEntry& entry, bool is_base) {
    double objects = 0, bytes = 0;
    long long written_objects = 0, written_bytes = 0;
    for (const std::size_t r : records) {
      const ProfileEntry& record = input.profile().entries.at(r);
      objects += record.estimate_objects;
      bytes += record.estimate_bytes;
      const long long record_objects = std::llround(objects) - written_objects;
      const long long record_bytes = std::llround(bytes) - written_bytes;
      written_objects += record_objects;
      written_bytes += record_bytes;
      if (record_objects == 0 && record_bytes == 0) continue;
      auto* sample = message_.add_sample();
      for (const std::uint64_t id : input.sample_of(record).location_id()) {
        sample->add_location_id(location_of(input, id));
      }
      sample->add_value(is_base ? -record_objects : record_objects);
      sample->add_value(is_base ? -record_bytes : record_bytes);
      add_text(*sample, "change", entry.changed ? "changed" : "no evidence");
      if (is_base) add_text(*sample, "pprof::base", "true");
      add_number(*sample, "p_holm", std::llround(entry.p_holm * 1e6), "ppm");
      add_number(*sample, "change_lower", std::llround(std::floor(entry.change_lower)), "bytes");
      add_number(*sample, "change_upper", std::llround(std::ceil(entry.change_upper)), "bytes");
      add_number(*sample, "bytes", std::llround(entry.object_size), "bytes");
    }
  }

  std::string finish(const std::string& comment) {
    message_.add_comment(strings_(comment));
    return gzip(message_.SerializeAsString());
  }

 private:
  // Identities as profile.Merge keys them (pprof_diff.h).
  using MappingKey = std::tuple<std::string, std::uint64_t, std::uint64_t>;  // build id or file, offset, size
  using FunctionKey = std::tuple<std::string, std::string, std::string, std::int64_t>;
  using LocationKey =
      std::tuple<std::uint64_t, std::uint64_t, std::vector<std::pair<std::uint64_t, std::int64_t>>, bool>;

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

  // The diff's mapping for `input`'s mapping `id`, and what to add to its addresses
  // (modulo 2^64) to place them as the diff's mapping is placed.
  std::pair<std::uint64_t, std::uint64_t> mapping_of(Input& input, std::uint64_t id) {
    if (const auto written = input.written_mappings.find(id); written != input.written_mappings.end()) {
      return written->second;
    }
    const pprof::Mapping& source = input.mapping(id);
    const std::string& build_id = input.text(source.build_id(), "mapping.build_id");
    const std::string& file = input.text(source.filename(), "mapping.filename");
    constexpr std::uint64_t kPage = 0x1000;  // sizes rounded up to it, as profile.Merge does
    const std::uint64_t size = (source.memory_limit() - source.memory_start() + kPage - 1) / kPage * kPage;
    const MappingKey key{build_id.empty() ? file : build_id, source.file_offset(), size};
    auto [at, added] = mappings_.try_emplace(key, message_.mapping_size() + 1);
    if (added) {
      auto* mapping = message_.add_mapping();
      *mapping = source;
      mapping->set_id(at->second);
      mapping->set_filename(strings_(file));
      mapping->set_build_id(strings_(build_id));
    }
    const pprof::Mapping& placed = message_.mapping(static_cast<int>(at->second - 1));
    return input.written_mappings[id] = {at->second, placed.memory_start() - source.memory_start()};
  }

  std::uint64_t function_of(Input& input, std::uint64_t id) {
    const pprof::Function& source = input.function(id);
    const FunctionKey key{input.text(source.name(), "function.name"),
                          input.text(source.system_name(), "function.system_name"),
                          input.text(source.filename(), "function.filename"), source.start_line()};
    auto [at, added] = functions_.try_emplace(key, message_.function_size() + 1);
    if (added) {
      auto* function = message_.add_function();
      function->set_id(at->second);
      function->set_name(strings_(std::get<0>(key)));
      function->set_system_name(strings_(std::get<1>(key)));
      function->set_filename(strings_(std::get<2>(key)));
      function->set_start_line(source.start_line());
    }
    return at->second;
  }

  std::uint64_t location_of(Input& input, std::uint64_t id) {
    if (const auto written = input.written_locations.find(id); written != input.written_locations.end()) {
      return written->second;
    }
    const pprof::Location& source = input.location(id);
    LocationKey key{0, source.address(), {}, source.is_folded()};
    if (source.mapping_id() != 0) {
      const auto [mapping, shift] = mapping_of(input, source.mapping_id());
      std::get<0>(key) = mapping;
      std::get<1>(key) += shift;
    }
    for (const auto& line : source.line()) {
      std::get<2>(key).emplace_back(function_of(input, line.function_id()), line.line());
    }
    auto [at, added] = locations_.try_emplace(key, message_.location_size() + 1);
    if (added) {
      auto* location = message_.add_location();
      location->set_id(at->second);
      location->set_mapping_id(std::get<0>(key));
      location->set_address(std::get<1>(key));
      location->set_is_folded(std::get<3>(key));
      for (const auto& [function, number] : std::get<2>(key)) {
        auto* line = location->add_line();
        line->set_function_id(function);
        line->set_line(number);
      }
    }
    return input.written_locations[id] = at->second;
  }

  pprof::Profile message_;
  PprofStrings strings_;
  std::map<MappingKey, std::uint64_t> mappings_;
  std::map<FunctionKey, std::uint64_t> functions_;
  std::map<LocationKey, std::uint64_t> locations_;
};

}  // namespace

std::string pprof_diff(const HeapProfile& base, const HeapProfile& next, const std::vector<PprofDiffEntry>& entries,
                       const std::string& comment) {
  Input base_input(base), new_input(next);
  DiffBuilder builder;
  builder.add_sample_type(next.window + "_objects", "count");
  builder.add_sample_type(next.window + "_space", "bytes");
  // NEW's first, so that its mappings are placed where NEW's run had them.
  for (const PprofDiffEntry& entry : entries) builder.add_samples(new_input, entry.new_records, entry, false);
  for (const PprofDiffEntry& entry : entries) builder.add_samples(base_input, entry.base_records, entry, true);
  return builder.finish(comment);
}

}  // namespace allocsim::profile
