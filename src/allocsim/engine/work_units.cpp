#include "allocsim/engine/work_units.h"

#include <algorithm>
#include <charconv>

#include "allocsim/engine/replications.h"
#include "allocsim/engine/unit_cost.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {

std::uint64_t replications_per_unit(const Scenario& scenario) {
  std::uint64_t total = 0;
  for (const SweepPoint& point : scenario.points) total += point.schemes.size() * scenario.replications;
  return std::clamp<std::uint64_t>(total / kMinimumUnits, 1, kReplicationsPerBlock);
}

std::vector<WorkUnit> plan_work_units(const Scenario& scenario) {
  const std::uint64_t R = scenario.replications, block = replications_per_unit(scenario);
  std::vector<WorkUnit> units;
  for (std::size_t p = 0; p < scenario.points.size(); ++p) {
    const TraceEstimate trace = estimate_trace(scenario.points[p].trace, scenario.groups);
    for (std::size_t s = 0; s < scenario.points[p].schemes.size(); ++s) {
      const double per_replication = replication_cost(scenario, trace, scenario.points[p].schemes[s]);
      for (std::uint64_t first = 0, k = 0; first < R; first += block, ++k) {
        const std::uint64_t count = std::min(block, R - first);
        units.push_back({p, s, k, count, per_replication * static_cast<double>(count)});
      }
    }
  }
  return units;
}

Shard parse_shard(const std::string& text, const std::string& where) {
  const std::size_t slash = text.find('/');
  Shard shard;
  auto number = [&](std::size_t from, std::size_t to, std::uint64_t& value) {
    const char* begin = text.data() + from;
    const char* end = text.data() + to;
    const auto [stop, error] = std::from_chars(begin, end, value);
    return begin != end && error == std::errc() && stop == end;
  };
  if (slash == std::string::npos || !number(0, slash, shard.index) || !number(slash + 1, text.size(), shard.count) ||
      shard.count == 0 || shard.index >= shard.count) {
    throw InputError(where + ": expected K/N with 0 <= K < N (shard K of N), got " + printable(text));
  }
  return shard;
}

std::vector<std::size_t> units_of_shard(const std::vector<WorkUnit>& units, Shard shard) {
  double total = 0;
  for (const WorkUnit& unit : units) total += unit.cost;
  // Unit u goes to the shard holding the middle of its cost interval along the
  // cumulative cost: floor(N * (before + cost / 2) / total).
  std::vector<std::size_t> mine;
  double before = 0;
  const double N = static_cast<double>(shard.count);
  for (std::size_t u = 0; u < units.size(); ++u) {
    const double middle = total > 0 ? (before + units[u].cost / 2) / total : 0.0;
    const auto owner = std::min<std::uint64_t>(static_cast<std::uint64_t>(N * middle), shard.count - 1);
    if (owner == shard.index) mine.push_back(u);
    before += units[u].cost;
  }
  return mine;
}

}  // namespace allocsim
