#pragma once
// The one replication loop: replications [a, b) of a stream, cut into blocks of a
// size fixed by the caller (kReplicationsPerBlock unless it says otherwise), run on
// worker threads and merged in block order. Block k covers replications a + size*k ..
// and is merged after block k - 1 whatever thread ran it, so the merged result is
// bit-identical for any thread count.
//
// A job's evaluator is what runs its blocks: one per (worker, job), made on first
// use by make(job), with `Block run_block(const StreamKey& first, std::uint64_t
// count)`. The job's result is a default-constructed `Merged` into which every
// block is folded by `merged.merge(block)`, in block order.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "allocsim/random/random_stream.h"
#include "allocsim/util/parallel.h"

namespace allocsim {

// Replications per work unit unless the caller chooses. Never derived from the
// thread count, because the merge order, and so the floating-point result,
// depends on it.
inline constexpr std::uint64_t kReplicationsPerBlock = 32;

// Replications [first.replication, end) of the stream (first.seed, first.stream),
// in blocks of `block` replications (the last may be shorter).
struct ReplicationRange {
  StreamKey first;
  std::uint64_t end = 0;
  std::uint64_t block = kReplicationsPerBlock;

  std::uint64_t count() const { return end > first.replication ? end - first.replication : 0; }
  std::uint64_t blocks() const { return (count() + block - 1) / block; }
  // The first key and the size of block k.
  StreamKey block_first(std::uint64_t k) const {
    StreamKey key = first;
    key.replication += k * block;
    return key;
  }
  std::uint64_t block_count(std::uint64_t k) const { return std::min(block, end - block_first(k).replication); }
};

// One block of one job: a work unit.
struct BlockId {
  std::size_t job = 0;
  std::uint64_t block = 0;
};

struct ReplicationOptions {
  unsigned threads = 1;
  // Called from the calling thread about four times a second with the number of
  // replications finished so far over all jobs; may be empty.
  std::function<void(std::uint64_t done)> progress;
  // Asked on the calling thread as often as `progress`; true stops the run: no
  // further block starts and run_replications throws RunCancelled. May be empty.
  std::function<bool()> cancelled;
};

// A run stopped because it was asked to (an interrupt, not an error).
class RunCancelled : public std::runtime_error {
 public:
  RunCancelled() : std::runtime_error("run cancelled") {}
};

namespace replication_detail {

// Folds blocks strictly in block order, whatever order they arrive in; early
// arrivals wait in `pending_`.
template <class Merged, class Block>
class OrderedMerge {
 public:
  void submit(std::uint64_t block, Block&& result) {
    std::lock_guard lock(mutex_);
    pending_.emplace(block, std::move(result));
    while (!pending_.empty() && pending_.begin()->first == next_) {
      merged_.merge(pending_.begin()->second);
      pending_.erase(pending_.begin());
      ++next_;
    }
  }
  Merged take() { return std::move(merged_); }

 private:
  std::mutex mutex_;
  std::uint64_t next_ = 0;
  std::map<std::uint64_t, Block> pending_;
  Merged merged_;
};

}  // namespace replication_detail

// Runs the blocks `units` (of `jobs`) in one pool of workers, handed out in the
// order listed, and gives each result to consume(unit index, block result) on the
// worker that ran it (consume must be thread-safe). make(j) returns a
// std::unique_ptr to an evaluator of job j, made once per (worker, job).
template <class MakeEvaluator, class Consume>
void run_blocks(const std::vector<ReplicationRange>& jobs, const std::vector<BlockId>& units, const MakeEvaluator& make,
                const Consume& consume, const ReplicationOptions& options) {
  using Evaluator = typename std::invoke_result_t<const MakeEvaluator&, std::size_t>::element_type;
  const unsigned threads = std::max(1u, options.threads);
  std::vector<std::vector<std::unique_ptr<Evaluator>>> evaluators(threads);
  for (auto& per_worker : evaluators) per_worker.resize(jobs.size());
  std::atomic<std::uint64_t> done{0};
  std::atomic<bool> cancelled{false};

  auto work = [&](std::size_t item, unsigned worker) {
    if (cancelled) throw RunCancelled();
    const BlockId& unit = units[item];
    const ReplicationRange& job = jobs[unit.job];
    auto& evaluator = evaluators[worker][unit.job];
    if (!evaluator) evaluator = make(unit.job);
    const std::uint64_t count = job.block_count(unit.block);
    consume(item, evaluator->run_block(job.block_first(unit.block), count));
    done += count;
  };
  auto tick = [&] {
    if (options.cancelled && options.cancelled()) cancelled = true;
    if (options.progress) options.progress(done.load());
  };
  parallel_for(units.size(), threads, work, tick);
}

// Every block of every job, in job order.
inline std::vector<BlockId> all_blocks(const std::vector<ReplicationRange>& jobs) {
  std::vector<BlockId> units;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    for (std::uint64_t k = 0; k < jobs[j].blocks(); ++k) units.push_back({j, k});
  }
  return units;
}

// Runs every job's blocks in one pool of workers (all blocks of job 0, then of
// job 1, ... are handed out in that order) and returns one merged result per job.
// make(j) returns a std::unique_ptr to job j's evaluator.
template <class Merged, class MakeEvaluator>
std::vector<Merged> run_replications(const std::vector<ReplicationRange>& jobs, const MakeEvaluator& make,
                                     const ReplicationOptions& options) {
  using Evaluator = typename std::invoke_result_t<const MakeEvaluator&, std::size_t>::element_type;
  using Block = decltype(std::declval<Evaluator&>().run_block(std::declval<const StreamKey&>(), std::uint64_t{}));
  const std::vector<BlockId> units = all_blocks(jobs);
  std::vector<replication_detail::OrderedMerge<Merged, Block>> merges(jobs.size());
  run_blocks(
      jobs, units, make,
      [&](std::size_t item, Block&& block) { merges[units[item].job].submit(units[item].block, std::move(block)); },
      options);
  std::vector<Merged> merged;
  merged.reserve(jobs.size());
  for (auto& m : merges) merged.push_back(m.take());
  return merged;
}

// One job: replications `range` of one evaluator kind.
template <class Merged, class MakeEvaluator>
Merged run_replications(const ReplicationRange& range, const MakeEvaluator& make, const ReplicationOptions& options) {
  return std::move(run_replications<Merged>(
                       std::vector<ReplicationRange>{range}, [&](std::size_t) { return make(); }, options)
                       .front());
}

}  // namespace allocsim
