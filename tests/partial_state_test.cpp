// Partial-state files (engine/partial_state.h) as input from other machines: every
// truncation and every changed byte of a real part is rejected, hostile counts are
// refused before anything is allocated for them, and a forged part whose checksum
// is right but whose unit states have another shape is an input error at merge
// time (merge_units), not an out-of-bounds read.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "allocsim/engine/experiment.h"
#include "allocsim/engine/partial_state.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

// One point, two schemes, stack groups, two windows and estimates: every part of
// a BlockResult is non-empty. Three replications per scheme: six units of one.
Scenario small_scenario() {
  return parse_scenario(R"({
    "name": "parts", "seed": 3, "replications": 3,
    "trace": {"allocations": 300, "sizes": {"distribution": "lognormal", "median": 40, "sigma": 1},
              "stacks": {"rule": "random", "count": 3},
              "lifetime": {"distribution": "exponential", "mean": 100}},
    "schemes": [{"scheme": "poisson", "rate": 512}, {"scheme": "jemalloc", "rate": 1024}],
    "groups": ["total", "stack"], "windows": ["allocated", "live_at_end"],
    "outputs": {"estimates": true}})",
                        "parts.json");
}

// The smallest useful part: one scheme, the total group, two replications.
Scenario tiny_scenario() {
  return parse_scenario(
      R"({"name": "tiny", "seed": 1, "replications": 2, "trace": {"allocations": 50, "sizes": {"distribution": "constant", "size": 24}},
    "schemes": [{"scheme": "poisson", "rate": 64}]})",
      "tiny.json");
}

// Every unit of `scenario`, as the one shard of one.
PartialState whole_part(const Scenario& scenario) {
  const std::vector<std::size_t> all = units_of_shard(plan_work_units(scenario), {0, 1});
  return {part_header(scenario, {0, 1}), {all.begin(), all.end()}, run_units(scenario, all, RunOptions{})};
}

// The error decoding `bytes` gives, or "" when it decodes.
std::string part_error_of(const std::string& bytes) {
  try {
    decode_partial_state(bytes, "part.bin");
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

class PartialStateFile : public ::testing::Test {
 protected:
  void SetUp() override {
    part_ = whole_part(scenario_);
    bytes_ = encode_partial_state(part_);
    tiny_ = encode_partial_state(whole_part(tiny_scenario()));
  }

  // Offset of the part's unit count: after the magic, format version and byte
  // order, the version text, hash, seed, replications, replay mode, source and
  // document texts, shard K and N, the scenario's unit count and the trace
  // identities (partial_state.h).
  std::size_t trace_count_offset() const {
    const PartHeader& h = part_.header;
    return 14 + 4 + 4 + (8 + h.allocsim_version.size()) + 3 * 8 + 1 + (8 + h.source.size()) + (8 + h.document.size()) +
           3 * 8;
  }
  std::size_t unit_count_offset() const {
    std::size_t offset = trace_count_offset() + 8;
    for (const TraceIdentity& trace : part_.header.traces) offset += 8 + trace.name.size() + 8;
    return offset;
  }
  // `bytes_` with the 8 bytes at `offset` set to `value` and the checksum made right.
  std::string forged(std::size_t offset, std::uint64_t value) const {
    std::string bytes = bytes_;
    std::memcpy(bytes.data() + offset, &value, sizeof value);
    seal_partial_state(bytes);
    return bytes;
  }

  const Scenario scenario_ = small_scenario();
  PartialState part_;
  std::string bytes_;
  std::string tiny_;  // for the tests that decode it once per byte
};

TEST_F(PartialStateFile, RoundTripKeepsEveryBit) {
  const PartialState decoded = decode_partial_state(bytes_, "part.bin");
  EXPECT_EQ(decoded.header.shard.index, 0u);
  EXPECT_EQ(decoded.header.shard.count, 1u);
  EXPECT_EQ(decoded.header.allocsim_version, ALLOCSIM_VERSION);
  EXPECT_EQ(decoded.units.size(), 6u);
  EXPECT_EQ(encode_partial_state(decoded), bytes_);
  // The offset the forging tests write at holds the unit count.
  std::uint64_t units = 0;
  std::memcpy(&units, bytes_.data() + unit_count_offset(), sizeof units);
  EXPECT_EQ(units, 6u);
}

TEST_F(PartialStateFile, EveryTruncationIsRejected) {
  EXPECT_EQ(part_error_of(tiny_), "");
  for (std::size_t size = 0; size < tiny_.size(); ++size) {
    const std::string message = part_error_of(tiny_.substr(0, size));
    ASSERT_EQ(message.rfind("part.bin: ", 0), 0u) << size << " bytes: " << message;
  }
}

// FNV-1a folds each byte in by a xor and a multiplication by an odd number, both
// invertible modulo 2^64, so two inputs of one length that differ in one byte
// always hash differently: every single changed byte is caught, by the magic, the
// version or byte-order checks, or the checksum.
TEST_F(PartialStateFile, EveryChangedByteIsRejected) {
  for (std::size_t at = 0; at < tiny_.size(); ++at) {
    for (unsigned char flip : {0x01, 0x80}) {
      std::string corrupt = tiny_;
      corrupt[at] = static_cast<char>(corrupt[at] ^ flip);
      const std::string message = part_error_of(corrupt);
      ASSERT_EQ(message.rfind("part.bin: ", 0), 0u) << "byte " << at << " ^ " << int{flip} << ": " << message;
    }
  }
}

// Version 1 parts bound no traces: refused with what to do, not merged unbound.
TEST_F(PartialStateFile, PartsOfTheFormatBeforeTraceIdentitiesAreRefused) {
  std::string old = bytes_;
  const std::uint32_t version = 1;
  std::memcpy(old.data() + 14, &version, sizeof version);
  seal_partial_state(old);
  EXPECT_EQ(part_error_of(old), "part.bin: partial-state format version 1, but this allocsim reads only version 2: "
                                "run the shards again with this allocsim (at byte 18)");
}

// The part names each distinct trace once: the scenario's one synthetic trace.
TEST_F(PartialStateFile, TheHeaderBindsTheScenarioTraces) {
  const PartialState decoded = decode_partial_state(bytes_, "part.bin");
  ASSERT_EQ(decoded.header.traces.size(), 1u);
  EXPECT_EQ(decoded.header.traces[0].name, "synthetic trace of sweep point 0");
  EXPECT_EQ(decoded.header.traces[0].hash, trace_identities(scenario_)[0].hash);
  Scenario reseeded = scenario_;
  reseeded.seed += 1;
  EXPECT_NE(trace_identities(reseeded)[0].hash, decoded.header.traces[0].hash);
}

TEST_F(PartialStateFile, TrailingBytesAndOtherFilesAreRejected) {
  EXPECT_NE(part_error_of(bytes_ + "x").find("part.bin: "), std::string::npos);
  EXPECT_NE(part_error_of("not a part file at all, just text").find("not an allocsim partial-state file"),
            std::string::npos);
}

// Counts past the bytes left are refused before anything is allocated for them
// (a 2^62-element vector would be a bad_alloc, not an input error).
TEST_F(PartialStateFile, HostileCountsAreRejectedBeforeAllocating) {
  const std::size_t units_at = unit_count_offset();
  const std::size_t first_block_at = units_at + 8 + 8;  // the unit count, then unit 0's index
  for (std::uint64_t count : {std::uint64_t{1} << 62, ~std::uint64_t{0}, std::uint64_t{1} << 20}) {
    EXPECT_NE(part_error_of(forged(units_at, count)).find("runs past the end of the file"), std::string::npos) << count;
    EXPECT_NE(part_error_of(forged(trace_count_offset(), count)).find("runs past the end of the file"),
              std::string::npos)
        << count;
    EXPECT_NE(part_error_of(forged(first_block_at, count)).find("runs past the end of the file"), std::string::npos)
        << count;
    EXPECT_NE(part_error_of(forged(14 + 4 + 4, count)).find("runs past the end of the file"), std::string::npos)
        << count;  // the version text's length
  }
}

// The header's replications replace the scenario's, unchecked by its JSON: out of
// range they were planned as ~2^59 work units (found by the fuzz target: a hang).
TEST_F(PartialStateFile, ReplicationsOutOfRangeAreRejected) {
  const std::size_t replications_at = 14 + 4 + 4 + 8 + part_.header.allocsim_version.size() + 2 * 8;
  EXPECT_EQ(decode_partial_state(forged(replications_at, 7), "part.bin").header.replications, 7u);
  for (std::uint64_t replications : {std::uint64_t{0}, std::uint64_t{1}, kMaxReplications + 1, ~std::uint64_t{253}}) {
    EXPECT_NE(part_error_of(forged(replications_at, replications)).find("part.bin: replications"), std::string::npos)
        << replications;
  }
}

// A part whose checksum is right but whose unit states are not shaped like the
// scheme's on the scenario. Before merge_units checked shapes, these were read
// out of bounds (append_rows indexes the accumulators by group slot and the
// estimates by replication).
TEST_F(PartialStateFile, ForgedShapesAreRejectedAtMerge) {
  const std::vector<std::string> origins(part_.units.size(), "part.bin");
  const auto merge_error = [&](auto&& forge) -> std::string {
    std::vector<BlockResult> units = part_.results;
    forge(units);
    try {
      merge_units(scenario_, units, RunOptions{}, origins);
      return "";
    } catch (const InputError& e) {
      return e.what();
    }
  };
  EXPECT_EQ(merge_error([](std::vector<BlockResult>&) {}), "");
  const std::vector<std::string> messages = {
      merge_error([](std::vector<BlockResult>& u) { u[0].accumulators.pop_back(); }),
      merge_error([](std::vector<BlockResult>& u) { u[4].accumulators.clear(); }),
      merge_error([](std::vector<BlockResult>& u) { u[2].intervals.emplace_back(); }),
      merge_error([](std::vector<BlockResult>& u) { u[5].profiles.pop_back(); }),
      merge_error([](std::vector<BlockResult>& u) { u[1].total_estimates.pop_back(); }),
      // Every unit of one scheme cut alike: the shapes agree with each other, not
      // with the scheme.
      merge_error([](std::vector<BlockResult>& u) {
        for (std::size_t i = 0; i < 3; ++i) u[i].accumulators.resize(2);
      }),
  };
  for (const std::string& message : messages) {
    EXPECT_EQ(message.rfind("part.bin: ", 0), 0u) << message;
    EXPECT_NE(message.find("not shaped like that scheme's"), std::string::npos) << message;
  }
  EXPECT_NE(messages[1].find("scheme jemalloc, block 1"), std::string::npos) << messages[1];
}

}  // namespace
}  // namespace allocsim
