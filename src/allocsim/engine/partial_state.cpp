#include "allocsim/engine/partial_state.h"

#include <cstring>
#include <type_traits>

#include "allocsim/scenario/replication_limits.h"
#include "allocsim/util/error.h"
#include "allocsim/util/json_text.h"

namespace allocsim {
namespace {

constexpr char kMagic[] = "ALLOCSIM-PART\n";
constexpr std::size_t kMagicSize = sizeof(kMagic) - 1;
// Version 2 added the trace identities.
constexpr std::uint32_t kFormatVersion = 2;
constexpr std::uint32_t kByteOrder = 0x01020304;

// FNV-1a, 64 bits (Fowler, Noll, Vo: offset basis 14695981039346656037, prime 1099511628211).
std::uint64_t fnv1a(const char* data, std::size_t size, std::uint64_t hash = 14695981039346656037ULL) {
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(data[i]);
    hash *= 1099511628211ULL;
  }
  return hash;
}

class Writer {
 public:
  template <class T>
  void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void put(const std::string& text) {
    put<std::uint64_t>(text.size());
    bytes_ += text;
  }
  void put(const Moments& moments) {
    const Moments::State s = moments.state();
    put(s.n);
    put(s.mean);
    put(s.m2);
    put(s.m3);
    put(s.m4);
  }
  void raw(const char* data, std::size_t size) { bytes_.append(data, size); }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

class Reader {
 public:
  Reader(const std::string& bytes, std::size_t end, const std::string& where)
      : bytes_(bytes), end_(end), where_(where) {}

  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  std::string text() {
    const std::size_t size = count(1);
    std::string value = bytes_.substr(at_, size);
    at_ += size;
    return value;
  }
  Moments moments() {
    Moments::State s;
    s.n = get<std::uint64_t>();
    s.mean = get<double>();
    s.m2 = get<double>();
    s.m3 = get<double>();
    s.m4 = get<double>();
    return Moments::from_state(s);
  }
  // A count of items of `item_bytes` each, no more than the bytes left can hold.
  std::size_t count(std::size_t item_bytes) {
    const auto n = get<std::uint64_t>();
    if (n > (end_ - at_) / item_bytes) fail("a count of " + std::to_string(n) + " runs past the end of the file");
    return static_cast<std::size_t>(n);
  }
  void expect_raw(const char* data, std::size_t size, const std::string& what) {
    need(size);
    if (std::memcmp(bytes_.data() + at_, data, size) != 0) fail(what);
    at_ += size;
  }
  bool at_end() const { return at_ == end_; }
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(where_ + ": " + problem + " (at byte " + std::to_string(at_) + ")");
  }

 private:
  void need(std::size_t size) {
    if (end_ - at_ < size) fail("truncated");
  }
  const std::string& bytes_;
  std::size_t end_;
  std::size_t at_ = 0;
  const std::string& where_;
};

constexpr std::size_t kMomentsBytes = 8 + 4 * 8;

void put_block(Writer& out, const BlockResult& block) {
  out.put<std::uint64_t>(block.accumulators.size());
  for (const ErrorAccumulator& a : block.accumulators) {
    out.put(a.error);
    out.put(a.abs_relative_error);
    out.put(a.abs_relative_error_given_any);
  }
  out.put<std::uint64_t>(block.intervals.size());
  for (const IntervalAccumulator& a : block.intervals) {
    out.put(a.covered);
    out.put(a.miss_low);
    out.put(a.miss_high);
    out.put(a.width);
  }
  out.put<std::uint64_t>(block.profiles.size());
  for (const ProfileAccumulator& a : block.profiles) {
    out.put(a.distance);
    out.put(a.groups_seen);
  }
  out.put<std::uint64_t>(block.total_estimates.size());
  for (double x : block.total_estimates) out.put(x);
}

BlockResult get_block(Reader& in) {
  BlockResult block;
  block.accumulators.resize(in.count(3 * kMomentsBytes));
  for (ErrorAccumulator& a : block.accumulators) {
    a.error = in.moments();
    a.abs_relative_error = in.moments();
    a.abs_relative_error_given_any = in.moments();
  }
  block.intervals.resize(in.count(3 * 8 + kMomentsBytes));
  for (IntervalAccumulator& a : block.intervals) {
    a.covered = in.get<std::uint64_t>();
    a.miss_low = in.get<std::uint64_t>();
    a.miss_high = in.get<std::uint64_t>();
    a.width = in.moments();
  }
  block.profiles.resize(in.count(2 * kMomentsBytes));
  for (ProfileAccumulator& a : block.profiles) {
    a.distance = in.moments();
    a.groups_seen = in.moments();
  }
  block.total_estimates.resize(in.count(8));
  for (double& x : block.total_estimates) x = in.get<double>();
  return block;
}

}  // namespace

std::uint64_t scenario_hash(const Scenario& scenario) {
  Writer identity;
  identity.put(json_text(scenario.document));
  identity.put(scenario.source);
  identity.put(scenario.seed);
  identity.put(scenario.replications);
  identity.put(static_cast<std::uint8_t>(scenario.replay));
  return fnv1a(identity.bytes().data(), identity.bytes().size());
}

PartHeader part_header(const Scenario& scenario, Shard shard) {
  return {ALLOCSIM_VERSION,
          scenario_hash(scenario),
          scenario.seed,
          scenario.replications,
          scenario.replay,
          scenario.source,
          json_text(scenario.document),
          shard,
          plan_work_units(scenario).size(),
          trace_identities(scenario)};
}

std::string encode_partial_state(const PartialState& state) {
  Writer out;
  const PartHeader& h = state.header;
  out.raw(kMagic, kMagicSize);
  out.put(kFormatVersion);
  out.put(kByteOrder);
  out.put(h.allocsim_version);
  out.put(h.scenario_hash);
  out.put(h.seed);
  out.put(h.replications);
  out.put(static_cast<std::uint8_t>(h.replay));
  out.put(h.source);
  out.put(h.document);
  out.put(h.shard.index);
  out.put(h.shard.count);
  out.put(h.scenario_units);
  out.put<std::uint64_t>(h.traces.size());
  for (const TraceIdentity& trace : h.traces) {
    out.put(trace.name);
    out.put(trace.hash);
  }
  out.put<std::uint64_t>(state.units.size());
  for (std::size_t i = 0; i < state.units.size(); ++i) {
    out.put(state.units[i]);
    put_block(out, state.results[i]);
  }
  out.put(fnv1a(out.bytes().data(), out.bytes().size()));
  return std::move(out.bytes());
}

PartialState decode_partial_state(const std::string& bytes, const std::string& where) {
  Reader whole(bytes, bytes.size(), where);
  whole.expect_raw(kMagic, kMagicSize, "not an allocsim partial-state file");
  if (const auto version = whole.get<std::uint32_t>(); version != kFormatVersion) {
    whole.fail("partial-state format version " + std::to_string(version) + ", but this allocsim reads only version " +
               std::to_string(kFormatVersion) + ": run the shards again with this allocsim");
  }
  if (whole.get<std::uint32_t>() != kByteOrder) whole.fail("written on a machine of another byte order");
  if (bytes.size() < kMagicSize + 8 + 8) whole.fail("truncated");
  const std::size_t body = bytes.size() - 8;
  std::uint64_t checksum;
  std::memcpy(&checksum, bytes.data() + body, sizeof checksum);
  if (checksum != fnv1a(bytes.data(), body)) {
    throw InputError(where + ": checksum mismatch: the file is truncated or corrupt");
  }
  Reader in(bytes, body, where);
  in.expect_raw(kMagic, kMagicSize, "not an allocsim partial-state file");
  in.get<std::uint64_t>();  // format version and byte order, checked above
  PartialState state;
  PartHeader& h = state.header;
  h.allocsim_version = in.text();
  h.scenario_hash = in.get<std::uint64_t>();
  h.seed = in.get<std::uint64_t>();
  h.replications = in.get<std::uint64_t>();
  if (h.replications < kMinReplications || h.replications > kMaxReplications) {
    in.fail("replications " + std::to_string(h.replications) + " not between " + std::to_string(kMinReplications) +
            " and " + std::to_string(kMaxReplications));
  }
  const auto replay = in.get<std::uint8_t>();
  if (replay > static_cast<std::uint8_t>(ReplayMode::streaming)) in.fail("unknown replay mode");
  h.replay = static_cast<ReplayMode>(replay);
  h.source = in.text();
  h.document = in.text();
  h.shard.index = in.get<std::uint64_t>();
  h.shard.count = in.get<std::uint64_t>();
  if (h.shard.count == 0 || h.shard.index >= h.shard.count) in.fail("shard index out of range");
  h.scenario_units = in.get<std::uint64_t>();
  h.traces.resize(in.count(8 + 8));  // each a name's length and a hash at least
  for (TraceIdentity& trace : h.traces) {
    trace.name = in.text();
    trace.hash = in.get<std::uint64_t>();
  }
  const std::size_t units = in.count(8);
  for (std::size_t i = 0; i < units; ++i) {
    const auto unit = in.get<std::uint64_t>();
    if (unit >= h.scenario_units || (!state.units.empty() && unit <= state.units.back())) {
      in.fail("unit indices out of order or range");
    }
    state.units.push_back(unit);
    state.results.push_back(get_block(in));
  }
  if (!in.at_end()) in.fail("trailing bytes");
  return state;
}

void seal_partial_state(std::string& bytes) {
  if (bytes.size() < 8) return;
  const std::uint64_t checksum = fnv1a(bytes.data(), bytes.size() - 8);
  std::memcpy(bytes.data() + bytes.size() - 8, &checksum, sizeof checksum);
}

Scenario scenario_of(const PartHeader& header) {
  Scenario scenario = parse_scenario(header.document, header.source);
  scenario.seed = header.seed;
  scenario.replications = header.replications;
  scenario.replay = header.replay;
  return scenario;
}

}  // namespace allocsim
