#pragma once
// Two runs of one scheme give the same observations: the same events with the same
// samples, offsets and weights, in whatever order each appends them (streaming in
// trace order, skip-ahead thread by thread).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "allocsim/sampler/scheme.h"

namespace allocsim::testing {

// Replays replications 0 .. replications - 1 (stream keys {11, 3, r}) on both runs.
inline void expect_same_observations(SchemeRun& a, SchemeRun& b, std::uint64_t replications) {
  const auto by_event = [](std::vector<Observation> v) {
    std::sort(v.begin(), v.end(), [](const Observation& x, const Observation& y) { return x.event < y.event; });
    return v;
  };
  for (std::uint64_t r = 0; r < replications; ++r) {
    std::vector<Observation> from_a, from_b;
    a.replay({11, 3, r}, from_a);
    b.replay({11, 3, r}, from_b);
    from_a = by_event(std::move(from_a));
    from_b = by_event(std::move(from_b));
    ASSERT_EQ(from_a.size(), from_b.size()) << "replication " << r;
    for (std::size_t o = 0; o < from_a.size(); ++o) {
      ASSERT_EQ(from_a[o].event, from_b[o].event) << "replication " << r << " observation " << o;
      ASSERT_EQ(from_a[o].samples, from_b[o].samples) << "event " << from_a[o].event;
      ASSERT_EQ(from_a[o].offset, from_b[o].offset) << "event " << from_a[o].event;
      ASSERT_EQ(from_a[o].weight, from_b[o].weight) << "event " << from_a[o].event;
    }
  }
}

}  // namespace allocsim::testing
