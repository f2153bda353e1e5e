// parallel_for on the kept pool: every item once, worker ids below the thread
// count, exceptions rethrown, and calls that meet the pool busy (nested, from two
// threads at once) run on threads of their own.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
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

// The message of the exception rethrown by parallel_for.
std::string rethrown(std::size_t items, unsigned threads, const std::function<void(std::size_t, unsigned)>& work,
                     const std::function<void()>& tick) {
  try {
    parallel_for(items, threads, work, tick);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "nothing thrown";
}

// Two items throw, the higher one first (the lower one waits 50 ms before it
// throws): the lower one's exception is rethrown, as on one thread, on the pool
// and on threads of a nested call's own.
TEST(ParallelFor, RethrowsTheLowestFailedItemWhicheverThrewFirst) {
  auto work = [](std::size_t item, unsigned) {
    if (item == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      throw std::runtime_error("item 2");
    }
    if (item == 5) throw std::runtime_error("item 5");
  };
  for (const unsigned threads : {1u, 3u}) EXPECT_EQ(rethrown(100, threads, work, {}), "item 2") << threads;
  std::string nested;
  parallel_for(
      1, 2, [&](std::size_t, unsigned) { nested = rethrown(100, 3, work, {}); }, [] {});
  EXPECT_EQ(nested, "item 2");
}

// A tick that throws stops the job (no item starts after it) and its exception is
// rethrown once the workers are done; the pool stays usable.
TEST(ParallelFor, ATickThatThrowsStopsTheJob) {
  std::atomic<std::size_t> ran{0};
  const std::string message = rethrown(
      100000, 2,
      [&](std::size_t, unsigned) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ++ran;
      },
      [] { throw std::runtime_error("tick"); });
  EXPECT_EQ(message, "tick");
  EXPECT_LT(ran.load(), 100000u);  // 100 s of items; the first tick comes at 0.25 s
  expect_each_item_once(100, 3, true);
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
