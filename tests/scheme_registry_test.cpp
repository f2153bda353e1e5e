// create_scheme: one way from a name and a JSON object to a scheme, with errors that
// name where the parameters came from.
#include <gtest/gtest.h>

#include <string>

#include "allocsim/sampler/registry.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

std::string error_of(const std::string& name, const std::string& params) {
  try {
    create_scheme(name, nlohmann::json::parse(params), "$.where");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

// With no parameters a scheme takes its defaults; one with a required parameter (no
// default) names the missing key.
TEST(SchemeRegistry, CreatesEachRegisteredSchemeWithItsDefaults) {
  int created = 0;
  for (const auto& descriptor : scheme_registry()) {
    std::string required;
    for (const auto& p : descriptor.parameters) {
      if (p.default_value.is_null()) required = p.name;
    }
    if (!required.empty()) {
      EXPECT_EQ(error_of(descriptor.name, "{}"), "$.where: missing required key \"" + required + "\"");
      continue;
    }
    const auto scheme = create_scheme(descriptor.name, nlohmann::json::object(), "$.where");
    ASSERT_NE(scheme, nullptr) << descriptor.name;
    EXPECT_FALSE(scheme->estimators().empty()) << descriptor.name;
    ++created;
  }
  EXPECT_GE(created, 15);
}

TEST(SchemeRegistry, UnknownSchemeNamesThePathAndTheKnownSchemes) {
  const std::string error = error_of("no-such-scheme", "{}");
  EXPECT_EQ(error.rfind("$.where: unknown scheme \"no-such-scheme\" (known: ", 0), 0u) << error;
  EXPECT_NE(error.find("heapprofd"), std::string::npos) << error;
}

TEST(SchemeRegistry, UnknownParameterIsRejected) {
  const std::string error = error_of("poisson", R"({"rate": 100, "rat": 5})");
  EXPECT_EQ(error.rfind("$.where.rat: unknown key", 0), 0u) << error;
}

TEST(SchemeRegistry, BadParameterValueNamesItsPath) {
  const std::string error = error_of("poisson", R"({"rate": -1})");
  EXPECT_EQ(error.rfind("$.where.rate: ", 0), 0u) << error;
}

}  // namespace
}  // namespace allocsim
