#pragma once
// Small traces built in the test.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "allocsim/json/json_reader.h"
#include "allocsim/trace/synthetic.h"
#include "allocsim/trace/trace.h"

namespace allocsim::testing {

// A trace of the given requested sizes; thread ids default to 0, stacks to 0,
// everything live at the end.
inline Trace make_trace(const std::vector<std::uint64_t>& sizes, const std::vector<std::uint32_t>& threads = {}) {
  Trace t;
  t.requested = sizes;
  const std::size_t n = sizes.size();
  t.thread = threads.empty() ? std::vector<std::uint32_t>(n, 0) : threads;
  t.stack.assign(n, 0);
  t.type.assign(n, 0);
  t.time.resize(n);
  for (std::size_t i = 0; i < n; ++i) t.time.mutable_data()[i] = i;
  t.free_time.assign(n, kNeverFreed);
  t.thread_count = 1;
  for (auto id : t.thread) t.thread_count = std::max(t.thread_count, id + 1);
  return t;
}

// The synthetic trace of a scenario's "trace" object, given as JSON text, drawn with `seed`.
inline Trace synthetic_trace(const std::string& json, std::uint64_t seed) {
  const nlohmann::json spec = nlohmann::json::parse(json);
  JsonObject object(spec, "$.trace");
  return generate_synthetic(parse_synthetic_spec(object), seed);
}

// Every column, count and name of two traces equal.
inline void expect_same_trace(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.thread, b.thread);
  EXPECT_EQ(a.requested, b.requested);
  EXPECT_EQ(a.allocated, b.allocated);
  EXPECT_EQ(a.stack, b.stack);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.free_time, b.free_time);
  EXPECT_EQ(a.thread_count, b.thread_count);
  EXPECT_EQ(a.stack_count, b.stack_count);
  EXPECT_EQ(a.type_count, b.type_count);
  EXPECT_EQ(a.stack_names, b.stack_names);
  EXPECT_EQ(a.type_names, b.type_names);
}

}  // namespace allocsim::testing
