// Byte sizes with units (json/byte_size.h): what is accepted, what is rejected and
// with which message, and that a scheme given "4KiB" runs exactly as with 4096.
#include <gtest/gtest.h>

#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/report/results_writer.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/error.h"
#include "test_support.h"

namespace allocsim {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_byte_size(text, "--rate");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Printed amounts pick their unit after rounding: what would read "1024 KiB" is 1 MiB.
TEST(ByteSize, PrintedAmountsNeverReadAsAThousandAndTwentyFourOfAUnit) {
  EXPECT_EQ(bytes_approx(950), "950 B");
  EXPECT_EQ(bytes_approx(1023.6), "1 KiB");
  EXPECT_EQ(bytes_approx(1048575), "1 MiB");
  EXPECT_EQ(bytes_approx(1047000), "1022 KiB");
  EXPECT_EQ(bytes_approx(1.5 * 1048576), "1.5 MiB");
  EXPECT_EQ(bytes_approx(-1048575), "-1 MiB");
  EXPECT_EQ(bytes_exact(32768), "32 KiB");
  EXPECT_EQ(bytes_exact(14227), "14227 B");
}

TEST(ByteSize, PlainNumbersAndBinaryUnits) {
  EXPECT_EQ(parse_byte_size("4096", "x"), 4096.0);
  EXPECT_EQ(parse_byte_size("4k", "x"), 4096.0);
  EXPECT_EQ(parse_byte_size("4K", "x"), 4096.0);
  EXPECT_EQ(parse_byte_size("4Ki", "x"), 4096.0);
  EXPECT_EQ(parse_byte_size("4KiB", "x"), 4096.0);
  EXPECT_EQ(parse_byte_size("4 KiB", "x"), 4096.0);
  EXPECT_EQ(parse_byte_size("512KiB", "x"), 524288.0);
  EXPECT_EQ(parse_byte_size("2MiB", "x"), 2097152.0);
  EXPECT_EQ(parse_byte_size("1.5M", "x"), 1572864.0);
  EXPECT_EQ(parse_byte_size("1G", "x"), 1073741824.0);
  EXPECT_EQ(parse_byte_size("3TiB", "x"), 3298534883328.0);
  EXPECT_EQ(parse_byte_size("100B", "x"), 100.0);
  EXPECT_EQ(parse_byte_size("0.5", "x"), 0.5);
}

TEST(ByteSize, AmbiguousUnitsAreRejectedWithTheBinarySpelling) {
  EXPECT_EQ(error_of("4KB"),
            "--rate: ambiguous unit in \"4KB\" (1000 or 1024 bytes?): write \"4KiB\" or the plain number of bytes");
  EXPECT_NE(error_of("4kb").find("\"4KiB\""), std::string::npos);
  EXPECT_NE(error_of("2MB").find("\"2MiB\""), std::string::npos);
  EXPECT_NE(error_of("1GB").find("ambiguous"), std::string::npos);
  EXPECT_NE(error_of("1TB").find("ambiguous"), std::string::npos);
}

TEST(ByteSize, MalformedTextIsRejected) {
  for (const char* bad : {"", "k", "-4k", "+4", "4x", "4 k B", "1e3", "nan", "inf", "4..2k", "0x10", " 4k", "4  k"}) {
    const std::string error = error_of(bad);
    EXPECT_EQ(error.rfind("--rate: ", 0), 0u) << bad << ": " << error;
  }
  EXPECT_NE(error_of("99999999T").find("too large"), std::string::npos);
}

TEST(ByteSize, JsonValuesNameTheirPath) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"a": "64KiB", "b": 65536, "c": "1.5", "d": "0k", "e": "2MB"})");
  JsonObject object(doc, "$.schemes[0]");
  EXPECT_EQ(byte_count(object.at("a")), 65536u);
  EXPECT_EQ(byte_count(object.at("b")), 65536u);
  EXPECT_EQ(positive_byte_amount(object.at("c")), 1.5);
  try {
    byte_count(object.at("c"));
    ADD_FAILURE() << "1.5 bytes accepted as a count";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("$.schemes[0].c: must be a whole number", 0), 0u) << e.what();
  }
  EXPECT_THROW(positive_byte_count(object.at("d")), InputError);
  try {
    byte_count(object.at("e"));
    ADD_FAILURE() << "2MB accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("$.schemes[0].e: ambiguous unit", 0), 0u) << e.what();
  }
}

// The same scenario written with units and aliases gives byte-identical metrics.
TEST(ByteSize, UnitsAndAliasesRunExactlyAsPlainNumbers) {
  const auto csv = [](const std::string& schemes, const std::string& sizes) {
    const std::string text = R"({"name": "units", "seed": 5, "replications": 40,
      "trace": {"allocations": 2000, "sizes": )" +
                             sizes + R"(, "stacks": {"rule": "random", "count": 4}},
      "schemes": )" + schemes +
                             R"(, "groups": ["total", "stack"]})";
    const Scenario scenario = parse_scenario(text, "units");
    return metrics_csv(scenario, run_scenario(scenario, RunOptions{}));
  };
  const std::string plain = csv(
      R"([{"scheme": "jvm", "interval": 4096}, {"scheme": "dotnet-tick", "stride": 8192},
          {"scheme": "heapprofd", "rate": 32768}, {"scheme": "jemalloc", "rate": 1536}])",
      R"({"distribution": "uniform", "min": 16, "max": 65536})");
  const std::string units = csv(
      R"([{"scheme": "jvm", "rate": "4KiB"}, {"scheme": "dotnet-tick", "rate": "8k"},
          {"scheme": "heapprofd", "rate": "32KiB"}, {"scheme": "jemalloc", "rate": "1.5k"}])",
      R"({"distribution": "uniform", "min": "16B", "max": "64KiB"})");
  EXPECT_GT(plain.size(), 1000u);
  EXPECT_EQ(plain, units);
}

TEST(ByteSize, AliasAndNameTogetherAreRejected) {
  try {
    testing::create_scheme_from_text("jvm", R"({"rate": 4096, "interval": 4096})");
    ADD_FAILURE() << "both accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("interval: is another name for \"rate\""), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace allocsim
