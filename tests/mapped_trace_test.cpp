// Traces larger than memory: a synthetic trace written piece by piece equals the
// one made in memory, and a mapped native trace replays exactly like an owned one.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "allocsim/json/json_reader.h"
#include "allocsim/report/results_writer.h"
#include "allocsim/trace/format/native_trace.h"
#include "allocsim/trace/synthetic_file.h"
#include "allocsim/util/error.h"
#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

using testing::ScratchDirectory;

SyntheticSpec parse_spec(const std::string& text) {
  const auto json = nlohmann::json::parse(text);
  JsonObject object(json, "$.trace");
  return parse_synthetic_spec(object, SyntheticTarget::file);
}

// Pieces of 1000 events that do not divide the trace, every group rule that needs
// a first pass (random with zipf, by_size, size_bucket), random threads, lifetimes
// and allocated sizes, and sizes past 2^32 that take the escape.
TEST(StreamedSynthetic, FileHoldsTheTraceMadeInMemory) {
  for (const char* groups : {R"("stacks": {"rule": "random", "count": 50, "zipf": 1.2}, "types": {"rule": "by_size"})",
                             R"("stacks": {"rule": "size_bucket"}, "types": {"rule": "round_robin", "count": 7})",
                             R"("stacks": {"rule": "round_robin", "count": 20000}, "types": {"rule": "constant"})"}) {
    const std::string text = std::string(R"({"allocations": 10007, "threads": 70000, "thread_assignment": "random",
        "sizes": {"distribution": "log_uniform", "min": 16, "max": 68719476736},
        "lifetime": {"distribution": "exponential", "mean": 300},
        "allocated": {"rounding": "align", "alignment": 16}, )") +
                             groups + "}";
    const SyntheticSpec spec = parse_spec(text);
    ScratchDirectory dir;
    const std::string path = dir.file("streamed.ast");
    const SyntheticFileSummary summary = write_synthetic_native(spec, 11, path, "$.trace", 1000);
    const Trace in_memory = generate_synthetic(spec, 11);
    const Trace from_file = read_native_trace(path);
    SCOPED_TRACE(groups);
    testing::expect_same_trace(from_file, in_memory);
    EXPECT_EQ(summary.events, 10007u);
    EXPECT_EQ(summary.stacks, in_memory.stack_count);
    EXPECT_GT(from_file.requested.wide().size(), 1000u) << "about 1/8 of log-uniform sizes in [2^4, 2^36] pass 2^32";
    EXPECT_GT(from_file.thread.wide().size(), 100u) << "about 6% of 70000 threads are 65535 or above";
  }
}

TEST(StreamedSynthetic, BytesPastTheLimitWriteNothing) {
  // The least each size can be passes the check made when the spec is read
  // (2 * 10^6 * 16 bytes); what is drawn does not: log-uniform sizes in [2^4, 2^48]
  // have mean (2^48 - 2^4) / ln 2^44 ~ 9.2e12 bytes, so 2 * 10^6 of them add up to
  // ~1.8e19 > 2^62 ~ 4.6e18 (the sum's standard deviation is ~1e17), found by the
  // writer while it streams, about a quarter of the way in.
  const SyntheticSpec spec = parse_spec(R"({"allocations": 2000000,
      "sizes": {"distribution": "log_uniform", "min": 16, "max": 281474976710656}})");
  ScratchDirectory dir;
  const std::string path = dir.file("huge.ast");
  try {
    write_synthetic_native(spec, 1, path, "spec.json: $", 4096);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "spec.json: $: the trace's requested sizes add up to more than 2^62 = "
                                     "4611686018427387904 bytes, the most a trace may hold");
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.file(""))) << "no file, no temporary file";
}

// The engine reads a mapped trace through the same columns: every scheme family,
// groups and windows give the bytes an owned trace gives.
TEST(MappedTrace, ReplaysExactlyLikeTheOwnedTrace) {
  // The spec fixes its seed, so the scenario's trace and the file are one trace.
  const std::string trace = R"({"allocations": 5000, "seed": 3, "threads": 5, "thread_assignment": "random",
      "sizes": {"distribution": "log_uniform", "min": 8, "max": 8589934592},
      "stacks": {"rule": "random", "count": 30}, "types": {"rule": "size_bucket"},
      "lifetime": {"distribution": "exponential", "mean": 2000},
      "allocated": {"rounding": "power_of_two"}})";
  const std::string rest = R"(, "replications": 20,
      "schemes": [{"scheme": "poisson", "rate": 65536}, {"scheme": "heapprofd", "rate": 65536},
                  {"scheme": "jemalloc", "rate": 65536}, {"scheme": "go", "rate": 65536},
                  {"scheme": "per-allocation", "rate": 100}],
      "groups": ["total", "stack", "type", "size_bucket"],
      "windows": ["allocated", "live_at_end", "live_at_peak"],
      "outputs": {"estimates": true}})";
  ScratchDirectory dir;
  const std::string path = dir.file("trace.ast");
  write_synthetic_native(parse_spec(trace), 5, path, "$.trace");
  auto results = [&](const std::string& trace_json) {
    const Scenario scenario =
        parse_scenario(R"({"name": "mapped", "seed": 5, "trace": )" + trace_json + rest, "mapped");
    const ScenarioResult result = run_scenario(scenario, RunOptions{});
    return metrics_csv(scenario, result) + estimates_csv(scenario, result);
  };
  const std::string owned = results(trace);
  EXPECT_GT(owned.size(), 5000u);
  EXPECT_EQ(results(R"({"kind": "file", "path": ")" + path + R"("})"), owned);
}

}  // namespace
}  // namespace allocsim
