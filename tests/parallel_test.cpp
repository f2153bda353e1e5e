// parallel_for on the kept pool: every item once, worker ids below the thread
// count, exceptions rethrown, and calls that meet the pool busy (nested, from two
// threads at once) run on threads of their own.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "allocsim/util/parallel.h"

namespace allocsim {
namespace {

// Runs `items` items on `threads` workers; fails unless each ran once on a worker
// numbered below the thread count.
void expect_each_item_once(std::size_t items, unsigned threads, bool with_tick) {
  std::vector<std::atomic<int>> runs(items);
  std::atomic<bool> bad_worker{false};
  std::atomic<int> ticks{0};
  parallel_for(
      items, threads,
      [&](std::size_t item, unsigned worker) {
        if (worker >= threads) bad_worker = true;
        ++runs[item];
      },
      with_tick ? std::function<void()>([&] { ++ticks; }) : std::function<void()>());
  for (std::size_t i = 0; i < items; ++i) ASSERT_EQ(runs[i].load(), 1) << "item " << i;
  EXPECT_FALSE(bad_worker);
}

TEST(ParallelFor, EveryItemOnceOnWorkersBelowTheThreadCount) {
  expect_each_item_once(1000, 4, true);
  expect_each_item_once(1000, 3, false);
  expect_each_item_once(2, 8, false);  // fewer items than threads
  expect_each_item_once(1, 1, false);  // on the calling thread
  expect_each_item_once(0, 4, true);
}

// Thousands of short calls in a row: a lost wake-up would hang here.
TEST(ParallelFor, ManyShortCallsInARow) {
  std::atomic<std::size_t> total{0};
  for (int call = 0; call < 3000; ++call) {
    parallel_for(1 + call % 5, 1 + call % 4, [&](std::size_t, unsigned) { ++total; }, {});
  }
  std::size_t expected = 0;
  for (int call = 0; call < 3000; ++call) expected += 1 + call % 5;
  EXPECT_EQ(total.load(), expected);
}

TEST(ParallelFor, RethrowsTheFirstExceptionAndStaysUsable) {
  EXPECT_THROW(parallel_for(100, 3,
                            [](std::size_t item, unsigned) {
                              if (item == 7) throw std::runtime_error("item 7");
                            },
                            {}),
               std::runtime_error);
  expect_each_item_once(100, 3, false);
}

TEST(ParallelFor, NestedCallsAndConcurrentCallersComplete) {
  std::atomic<std::size_t> inner{0};
  parallel_for(4, 2, [&](std::size_t, unsigned) { parallel_for(10, 2, [&](std::size_t, unsigned) { ++inner; }, {}); },
               {});
  EXPECT_EQ(inner.load(), 40u);
  std::atomic<std::size_t> done{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 3; ++c) {
    callers.emplace_back([&] {
      for (int call = 0; call < 200; ++call) parallel_for(8, 2, [&](std::size_t, unsigned) { ++done; }, {});
    });
  }
  for (auto& caller : callers) caller.join();
  EXPECT_EQ(done.load(), 3u * 200 * 8);
}

}  // namespace
}  // namespace allocsim
