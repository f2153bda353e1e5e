// Bad scenarios are rejected with one line that names the JSON path and the reason.
#include <gtest/gtest.h>
#include <unistd.h>

#include "allocsim/json/json_reader.h"
#include "allocsim/scenario/scenario.h"
#include "allocsim/trace/trace_source.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

const std::string kValid = R"({"name": "ok", "seed": 1, "replications": 10,
  "trace": {"allocations": 10, "sizes": {"distribution": "constant", "size": 100}},
  "schemes": [{"scheme": "poisson", "rate": "$rate"}],
  "sweep": {"rate": [100, 200]}})";

// Replaces the first occurrence of `from` in the valid scenario.
std::string variant(const std::string& from, const std::string& to) {
  std::string text = kValid;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string scenario_error_of(const std::string& text) {
  try {
    parse_scenario(text, "s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(ScenarioValidation, ValidScenarioResolvesEverySweepPoint) {
  const Scenario s = parse_scenario(kValid, "s.json");
  EXPECT_EQ(s.points.size(), 2u);
  EXPECT_EQ(s.points[1].values[0], 200);
}

TEST(ScenarioValidation, EachBadInputNamesItsPath) {
  struct Case {
    std::string text;
    std::string expected;  // a substring of the one-line message
  };
  const std::vector<Case> cases = {
      {"{\"name\": ", "s.json: line 1, column"},
      {variant("\"seed\": 1", "\"seed\": 1, \"sed\": 2"), "s.json: $.sed: unknown key"},
      {variant("\"replications\": 10", "\"replications\": \"ten\""), "$.replications: expected a number"},
      {variant("\"replications\": 10", "\"replications\": 1"), "$.replications: must be between 2"},
      {variant("\"size\": 100", "\"size\": -100"), "$.trace.sizes.size"},
      {variant("[100, 200]", "[100, -200]"), "$.schemes[0].rate: must be > 0"},
      {variant("[100, 200]", "[100, 0]"), "at sweep point rate=0"},
      {variant("\"rate\": \"$rate\"", "\"rate\": \"$rat\""), "$.schemes[0].rate: \"$rat\" is not a sweep variable"},
      {variant("\"rate\": \"$rate\"", "\"rate\": 5, \"rte\": 3"), "$.schemes[0].rte: unknown key"},
      {variant("\"scheme\": \"poisson\"", "\"scheme\": \"posson\""), "$.schemes[0].scheme: unknown scheme \"posson\""},
      {variant("\"rate\": \"$rate\"", "\"rate\": 5"), "$.sweep.rate: not used"},
      {variant("\"allocations\": 10", "\"allocations\": 1e400"), "s.json"},
      {variant("\"name\": \"ok\"", "\"name\": \"../evil\""), "$.name"},
      {variant("\"seed\": 1", "\"seed\": 1, \"groups\": [\"stacks\"]"), "$.groups[0]: unknown group kind"},
      {variant("\"seed\": 1", "\"seed\": 1, \"windows\": [\"live\"]"), "$.windows[0]: unknown window"},
      {variant("\"seed\": 1", "\"seed\": 1, \"windows\": [{\"live_at\": -5}]"), "$.windows[0].live_at"},
      {variant("\"seed\": 1", "\"seed\": 1, \"windows\": [{\"live_at\": 5, \"at\": 1}]"),
       "$.windows[0].at: unknown key"},
      {variant("\"seed\": 1", "\"seed\": 1, \"windows\": [{\"live_at\": 5}, {\"live_at\": 5}]"),
       "$.windows[1]: window listed twice"},
      {variant("\"seed\": 1", "\"seed\": 1, \"expectations\": [{\"metric\": \"bias\"}]"),
       "$.expectations[0]: needs \"equals\""},
      {variant("\"seed\": 1", "\"seed\": 1, \"expectations\": [{\"metric\": \"bais\", \"max\": 1}]"),
       "$.expectations[0].metric: unknown metric"},
      {variant("\"seed\": 1",
               "\"seed\": 1, \"expectations\": [{\"where\": {\"sheme\": \"x\"}, \"metric\": \"bias\", \"max\": 1}]"),
       "$.expectations[0].where"},
      {variant("\"seed\": 1", "\"seed\": 1, \"estimators\": [\"bites\"]"), "$.estimators[0]"},
      {variant("{\"scheme\": \"poisson\", \"rate\": \"$rate\"}",
               "{\"scheme\": \"poisson\", \"rate\": \"$rate\"}, {\"scheme\": \"poisson\"}"),
       "used twice"},
  };
  for (const auto& c : cases) {
    const std::string message = scenario_error_of(c.text);
    EXPECT_NE(message.find(c.expected), std::string::npos) << "got: " << message << "\nwanted: " << c.expected;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "multi-line message: " << message;
    EXPECT_EQ(message.rfind("s.json", 0), 0u) << "message must start with the file: " << message;
  }
}

// Both recursive walks used to overflow the stack (SIGSEGV) at ~100 000 levels: the
// description of a wrongly typed value and the "$var" substitution over "trace".
TEST(ScenarioValidation, DeepNestingIsRefusedWithItsPosition) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const auto& text : {variant("\"seed\": 1", "\"seed\": " + deep),
                           variant("\"allocations\": 10", "\"allocations\": 10, \"x\": " + deep)}) {
    const std::string message = scenario_error_of(text);
    EXPECT_NE(message.find("JSON nested deeper than 64 levels"), std::string::npos) << message;
    EXPECT_EQ(message.rfind("s.json: line ", 0), 0u) << message;
  }
  // 64 levels in all are fine: the document is one, the value 63.
  const std::string allowed = std::string(63, '[') + std::string(63, ']');
  EXPECT_NE(scenario_error_of(variant("\"seed\": 1", "\"seed\": " + allowed)).find("$.seed: expected a number"),
            std::string::npos);
  const std::string one_more = std::string(64, '[') + std::string(64, ']');
  EXPECT_NE(scenario_error_of(variant("\"seed\": 1", "\"seed\": " + one_more)).find("line 1, column 87: JSON nested"),
            std::string::npos)
      << scenario_error_of(variant("\"seed\": 1", "\"seed\": " + one_more));
  // Brackets inside strings do not count.
  std::string in_string(1, '"');
  in_string.append(200, '[').append("\\\"\"");
  EXPECT_NE(scenario_error_of(variant("\"seed\": 1", "\"seed\": " + in_string)).find("$.seed: expected a number"),
            std::string::npos);
}

// A key with a line break ("a\nb" in JSON) is named quoted and escaped (printable()).
TEST(ScenarioValidation, KeysWithControlCharactersStayOnOneLine) {
  const std::string message = scenario_error_of(variant("\"seed\": 1", "\"seed\": 1, \"a\\nb\": 2"));
  EXPECT_NE(message.find("s.json: $[\"a\\nb\"]: unknown key"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  const std::string nested = scenario_error_of(variant("\"size\": 100", "\"size\": 100, \"\\u0007\": 1"));
  EXPECT_NE(nested.find("$.trace.sizes[\"\\x07\"]: unknown key"), std::string::npos) << nested;
}

// 40 000 x 40 000 sweep values: 1.6e9 points, refused before any is built.
TEST(ScenarioValidation, TooManySweepPointsAreCountedFirst) {
  std::string values = "[1";
  for (int i = 2; i <= 40000; ++i) values.append(",").append(std::to_string(i));
  values += "]";
  const std::string text =
      R"({"name": "big", "trace": {"allocations": "$n", "sizes": {"distribution": "constant", "size": "$size"}},
    "schemes": [{"scheme": "poisson"}], "sweep": {"size": )" +
      values + R"(, "n": )" + values + "}}";
  EXPECT_EQ(scenario_error_of(text),
            "s.json: $.sweep: 40000 x 40000 values make 1600000000 points, more than the 100000 allowed");
}

// 100 000 x 2^48 bytes is 2^64.6, past the 2^62 a trace may hold whatever is drawn
// (it wrapped the skip-ahead prefix sums once: heapprofd rel_bias -0.655): refused
// when the scenario is read, naming the file and the JSON path.
TEST(ScenarioValidation, SyntheticBytesPastTheLimitAreRefusedWhenRead) {
  const std::string limit =
      " bytes each add up to more than 2^62 = 4611686018427387904 bytes, the most a trace may hold";
  EXPECT_EQ(scenario_error_of(R"({"name": "t", "trace": {"allocations": 100000,
    "sizes": {"distribution": "constant", "size": 281474976710656}}, "schemes": [{"scheme": "heapprofd"}]})"),
            "s.json: $.trace.allocations: 100000 allocations of at least 281474976710656 requested" + limit);
  // The smallest size of each family bounds the total: a mixture's smallest
  // component, a bucket's lo, a pareto's scale.
  EXPECT_EQ(scenario_error_of(
                R"({"name": "t", "trace": {"allocations": 20000, "sizes": {"distribution": "mixture", "components": [
    {"weight": 1, "distribution": "uniform", "min": 281474976710000, "max": 281474976710656},
    {"weight": 1, "distribution": "pareto", "scale": 250000000000000, "shape": 2}]}}, "schemes": [{"scheme": "poisson"}]})"),
            "s.json: $.trace.allocations: 20000 allocations of at least 250000000000000 requested" + limit);
  // Sizes under the limit, rounded up past it.
  EXPECT_EQ(scenario_error_of(R"({"name": "t", "trace": {"allocations": 20000,
    "sizes": {"distribution": "constant", "size": 140737488355329}, "allocated": {"rounding": "power_of_two"}},
    "schemes": [{"scheme": "poisson"}]})"),
            "s.json: $.trace.allocations: 20000 allocations of at least 281474976710656 allocated" + limit);
  // 2^14 of them are exactly 2^62: allowed.
  const Scenario edge = parse_scenario(R"({"name": "t", "trace": {"allocations": 16384,
    "sizes": {"distribution": "constant", "size": 281474976710656}}, "schemes": [{"scheme": "heapprofd"}]})",
                                       "s.json");
  EXPECT_EQ(load_trace(edge.points[0].trace, 1).size(), 16384u);
}

// Uniform on [1, 2^48]: only the draws decide whether 50 000 of them pass 2^62 (their
// mean is 2^47, so they do, by 2^62.6), which is found when the trace is made.
TEST(ScenarioValidation, SyntheticBytesPastTheLimitForSomeDrawsAreRefusedWhenMade) {
  const Scenario s = parse_scenario(R"({"name": "t", "trace": {"allocations": 50000,
    "sizes": {"distribution": "uniform", "min": 1, "max": 281474976710656}}, "schemes": [{"scheme": "poisson"}]})",
                                    "s.json");
  try {
    load_trace(s.points[0].trace, 1);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "$.trace: the trace's requested sizes add up to more than 2^62 = "
                                     "4611686018427387904 bytes, the most a trace may hold");
  }
}

// allocations: 2e9 needs 2e9 x 44 bytes = 88 GB for the columns and index: refused
// on a machine with less memory, with both numbers.
TEST(ScenarioValidation, AllocationsBeyondMemoryAreRefused) {
  const double memory = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (memory >= 92e9) GTEST_SKIP() << "this machine has " << memory / 1e9 << " GB";
  const std::string message = scenario_error_of(variant("\"allocations\": 10", "\"allocations\": 2e9"));
  // 46 bytes per event: thread 2, requested, stack and type 4 each, time and
  // free_time 8 each, the sizes as drawn 8, the index's prefix sum 8.
  EXPECT_NE(
      message.find("s.json: $.trace.allocations: 2000000000 allocations need 92.0 GB for the trace and its index"),
      std::string::npos)
      << message;
  EXPECT_NE(message.find(" GB of memory of this machine"), std::string::npos) << message;
}

TEST(ScenarioValidation, SweepKeepsTheAuthorsOrder) {
  const std::string text =
      R"({"name": "o", "trace": {"allocations": "$n", "sizes": {"distribution": "constant", "size": "$size"}},
    "schemes": [{"scheme": "poisson"}], "sweep": {"size": [1, 2, 3], "n": [10, 20]}})";
  const Scenario s = parse_scenario(text, "o.json");
  ASSERT_EQ(s.sweep.size(), 2u);
  EXPECT_EQ(s.sweep[0].name, "size");
  EXPECT_EQ(s.points.size(), 6u);
  // Last variable fastest.
  EXPECT_EQ(s.points[0].values[1], 10);
  EXPECT_EQ(s.points[1].values[1], 20);
  EXPECT_EQ(s.points[1].values[0], 1);
}

}  // namespace
}  // namespace allocsim

namespace allocsim {
namespace {

// JSON built in C++ holds small numbers as signed integers; they are fine when >= 0.
TEST(JsonReader, SignedNonNegativeIntegersAreUnsigned) {
  const nlohmann::json doc = {{"a", 100}, {"b", -1}};
  JsonObject object(doc, "$");
  EXPECT_EQ(object.at("a").uint(), 100u);
  try {
    object.at("b").uint();
    FAIL() << "accepted -1";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "$.b: must be >= 0, got -1");
  }
}

}  // namespace
}  // namespace allocsim
