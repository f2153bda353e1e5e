#pragma once
// The margins as a CI test reads them (JSON, schema "allocsim-margins/1", described in
// docs/margins.md) and as a person reads them (a table).
#include <optional>
#include <string>

#include "allocsim/profile/margins.h"
#include "allocsim/profile/margins_check.h"

namespace allocsim::profile {

struct MarginsRun {
  std::string workload;  // the file the sites came from
  std::uint64_t seed = 0;
  std::optional<MarginCheck> check;  // the engine's check, when asked for
};

std::string margins_json(const Margins& margins, const MarginsRun& run);
std::string margins_table(const Margins& margins, const MarginsRun& run);

}  // namespace allocsim::profile
