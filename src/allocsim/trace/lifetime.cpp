#include "allocsim/trace/lifetime.h"

#include <cmath>
#include <string>
#include <string_view>

#include "allocsim/random/random_transforms.h"
#include "allocsim/trace/size_distribution.h"
#include "allocsim/trace/trace.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

// Lifetimes in ticks; kNeverFreed stands for "longer than any trace".
std::uint64_t draw(const ForeverLifetime&, RandomStream&) { return kNeverFreed; }

std::uint64_t draw(const ExponentialLifetime& lifetime, RandomStream& random) {
  const double ticks = std::floor(exponential_from_uniform(random.next_uniform(), lifetime.mean) + 0.5);
  return ticks < 0x1.0p64 ? static_cast<std::uint64_t>(ticks) : kNeverFreed;
}

std::uint64_t draw(const ConstantLifetime& lifetime, RandomStream&) { return lifetime.allocations; }

std::uint64_t draw(const UniformLifetime& lifetime, RandomStream& random) {
  return uniform_between(random, lifetime.min, lifetime.max);
}

// The lifetime of allocation k of the trace: drawn, or read off the sequence.
template <class Family>
std::uint64_t lifetime_of(const Family& family, std::uint64_t, RandomStream& random) {
  return draw(family, random);
}
std::uint64_t lifetime_of(const SequenceLifetime& lifetime, std::uint64_t k, RandomStream&) {
  return lifetime.ticks[k % lifetime.ticks.size()];
}

// "lifetimes": integers >= 0 or "forever".
SequenceLifetime parse_sequence_lifetime(const JsonValue& list) {
  SequenceLifetime sequence;
  for (const JsonValue& item : list.non_empty_array()) {
    if (item.is_string()) {
      if (item.string() != "forever") item.fail("must be an integer >= 0 or \"forever\"");
      sequence.ticks.push_back(kNeverFreed);
    } else {
      sequence.ticks.push_back(item.uint());
    }
  }
  return sequence;
}

}  // namespace

Lifetime parse_lifetime(JsonObject& object) {
  const JsonValue name_value = object.at("distribution");
  const std::string name = name_value.string();
  Lifetime lifetime;
  if (name == "forever") {
    lifetime = ForeverLifetime{};
  } else if (name == "exponential") {
    lifetime = ExponentialLifetime{object.at("mean").positive_number()};
  } else if (name == "constant") {
    lifetime = ConstantLifetime{object.at("allocations").uint()};
  } else if (name == "uniform") {
    UniformLifetime uniform{object.at("min").uint(), 0};
    const JsonValue max = object.at("max");
    uniform.max = max.uint();
    if (uniform.max < uniform.min) {
      max.fail("must be >= min (" + std::to_string(uniform.min) + "), got " + std::to_string(uniform.max));
    }
    lifetime = uniform;
  } else if (name == "sequence") {
    lifetime = parse_sequence_lifetime(object.at("lifetimes"));
  } else {
    name_value.fail("unknown distribution " + printable(name) +
                    " (known: forever, exponential, constant, uniform, sequence)");
  }
  object.finish();
  return lifetime;
}

void fill_free_times(const Lifetime& lifetime, std::span<const std::uint64_t> time, std::uint64_t end,
                     std::span<std::uint64_t> free_time, RandomStream& random, std::uint64_t first) {
  std::visit(
      [&](const auto& family) {
        for (std::size_t i = 0; i < time.size(); ++i) {
          const std::uint64_t ticks = lifetime_of(family, first + i, random);
          free_time[i] = ticks > end - time[i] ? kNeverFreed : time[i] + ticks;
        }
      },
      lifetime);
}

}  // namespace allocsim
