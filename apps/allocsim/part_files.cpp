#include "part_files.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "allocsim/engine/experiment.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"

namespace allocsim::cli {
namespace {

std::string shard_text(Shard shard) { return std::to_string(shard.index) + "/" + std::to_string(shard.count); }

std::string hex(std::uint64_t hash) {
  char text[19];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

// A part's trace identities against those of the first part: the scenario is the
// same (its hash was compared), so the traces are the same in number and order.
void check_same_traces(const PartHeader& part, const std::string& name, const PartHeader& first,
                       const std::string& first_name) {
  if (part.traces.size() != first.traces.size()) {
    throw InputError(name + ": binds " + std::to_string(part.traces.size()) + " traces, but " + first_name + " binds " +
                     std::to_string(first.traces.size()));
  }
  for (std::size_t t = 0; t < part.traces.size(); ++t) {
    if (part.traces[t].hash != first.traces[t].hash) {
      throw InputError(name + ": ran on other bytes of trace \"" + part.traces[t].name + "\" (XXH64 " +
                       hex(part.traces[t].hash) + ") than " + first_name + " (" + hex(first.traces[t].hash) + ")");
    }
  }
}

// The traces as they are now, against those the parts ran on.
void check_traces_unchanged(const Scenario& scenario, const PartHeader& part, const std::string& name) {
  const std::vector<TraceIdentity> now = trace_identities(scenario);
  if (now.size() != part.traces.size()) {
    throw InputError(name + ": binds " + std::to_string(part.traces.size()) + " traces, but its scenario has " +
                     std::to_string(now.size()));
  }
  for (std::size_t t = 0; t < now.size(); ++t) {
    if (now[t].hash != part.traces[t].hash) {
      throw InputError(name + ": trace \"" + now[t].name + "\" changed since the shards ran (XXH64 " +
                       hex(now[t].hash) + " now, " + hex(part.traces[t].hash) + " when they ran)");
    }
  }
}

}  // namespace

std::string run_part(const Scenario& scenario, Shard shard, const RunOptions& run) {
  const std::vector<std::size_t> units = units_of_shard(plan_work_units(scenario), shard);
  PartialState part{part_header(scenario, shard), {units.begin(), units.end()}, run_units(scenario, units, run)};
  return encode_partial_state(part);
}

void run_shard(const Scenario& scenario, const ScenarioOptions& options) {
  const Shard shard = parse_shard(*options.shard, "--shard");
  write_file_atomically(options.out, run_part(scenario, shard, run_options(options)));
  if (!options.quiet) {
    std::fprintf(stderr, "%s: shard %s -> %s (`allocsim merge` joins the parts)\n", scenario.name.c_str(),
                 shard_text(shard).c_str(), options.out.c_str());
  }
}

CombinedParts combine_parts(std::vector<PartialState>&& parts, const std::vector<std::string>& names) {
  if (parts.empty()) throw InputError("merge: no part files given");
  const PartHeader& first = parts.front().header;
  // By shard index; a map, since a forged header may claim any shard count.
  std::map<std::uint64_t, const std::string*> holder;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const PartHeader& h = parts[i].header;
    const std::string& name = names[i];
    if (h.allocsim_version != ALLOCSIM_VERSION) {
      throw InputError(name + ": written by allocsim " + h.allocsim_version + ", this is allocsim " + ALLOCSIM_VERSION);
    }
    if (h.source != first.source || h.document != first.document) {
      throw InputError(name + ": a part of scenario " + h.source + ", not of " + first.source + " like " +
                       names.front());
    }
    if (h.seed != first.seed) {
      throw InputError(name + ": seed " + std::to_string(h.seed) + ", but " + names.front() + " has seed " +
                       std::to_string(first.seed));
    }
    if (h.scenario_hash != first.scenario_hash) {
      throw InputError(name + ": other replications or replay mode than " + names.front());
    }
    check_same_traces(h, name, first, names.front());
    if (h.shard.count != first.shard.count) {
      throw InputError(name + ": shard " + shard_text(h.shard) + ", but " + names.front() + " is of " +
                       std::to_string(first.shard.count) + " shards");
    }
    if (const auto [held, fresh] = holder.emplace(h.shard.index, &name); !fresh) {
      throw InputError(name + ": shard " + shard_text(h.shard) + " again (also " + *held->second + ")");
    }
  }
  // The indices are distinct and below the count: the first missing one is the
  // first k not in the map.
  std::uint64_t k = 0;
  while (k < first.shard.count && holder.count(k) != 0) ++k;
  if (k < first.shard.count) {
    throw InputError("merge: shard " + shard_text({k, first.shard.count}) + " is missing (" +
                     std::to_string(parts.size()) + " of " + std::to_string(first.shard.count) + " parts given)");
  }

  CombinedParts combined;
  try {
    combined.scenario = scenario_of(first);
  } catch (const InputError& e) {
    throw InputError(names.front() + ": its scenario: " + e.what());
  }
  if (scenario_hash(combined.scenario) != first.scenario_hash) {
    throw InputError(names.front() + ": the scenario it names does not hash to its header's hash");
  }
  check_traces_unchanged(combined.scenario, first, names.front());
  const std::vector<WorkUnit> plan = plan_work_units(combined.scenario);
  combined.units.resize(plan.size());
  combined.origins.resize(plan.size());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    PartialState& part = parts[i];
    const std::vector<std::size_t> expected = units_of_shard(plan, part.header.shard);
    if (part.header.scenario_units != plan.size() ||
        !std::equal(expected.begin(), expected.end(), part.units.begin(), part.units.end())) {
      throw InputError(names[i] + ": holds other work units than shard " + shard_text(part.header.shard) +
                       " of this scenario");
    }
    for (std::size_t j = 0; j < part.units.size(); ++j) {
      combined.units[part.units[j]] = std::move(part.results[j]);
      combined.origins[part.units[j]] = names[i];
    }
  }
  return combined;
}

}  // namespace allocsim::cli
