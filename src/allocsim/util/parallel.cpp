#include "allocsim/util/parallel.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace allocsim {
namespace {

using Work = std::function<void(std::size_t, unsigned)>;
constexpr auto kTickEvery = std::chrono::milliseconds(250);

// What a participant ends with: the item that threw, and its exception (none: null).
struct Failure {
  std::size_t item = SIZE_MAX;
  std::exception_ptr error;
};

// One parallel_for: its items go to `workers` participants, numbered 0..workers-1
// in the order they join.
struct Job {
  Job(std::size_t items, unsigned workers, const Work& work) : items(items), workers(workers), work(work) {}
  const std::size_t items;
  const unsigned workers;
  const Work& work;  // valid until every participant has finished
  std::atomic<std::size_t> next{0};
  std::atomic<unsigned> joined{0};
  std::atomic<bool> failed{false};
  // The exception of the lowest item that threw, which is the one a run on one thread
  // would throw: items are handed out in increasing order, and a participant stops
  // taking items after a failure but finishes the one it holds, so every item below
  // a failed one has run. Guarded, like `finished`, by the mutex of whoever runs the job.
  std::exception_ptr error;
  std::size_t error_item = SIZE_MAX;
  unsigned finished = 0;  // participants done

  // A participant is done, with its failure if any; `mutex` held.
  void finish(const Failure& failure) {
    if (failure.error && (!error || failure.item < error_item)) {
      error = failure.error;
      error_item = failure.item;
    }
    ++finished;
  }
};

// Waits until every participant of `job` has finished, calling tick (if any)
// about four times a second meanwhile; `lock` holds the mutex that guards the job.
// A tick that throws stops the job like a failed item (its exception is kept when
// no item failed) and is not called again: the participants still use the job.
void wait_for(Job& job, std::unique_lock<std::mutex>& lock, std::condition_variable& done,
              const std::function<void()>& tick) {
  bool ticking = static_cast<bool>(tick);
  while (!done.wait_for(lock, kTickEvery, [&] { return job.finished == job.workers; })) {
    if (!ticking) continue;
    lock.unlock();
    std::exception_ptr tick_error;
    try {
      tick();
    } catch (...) {
      tick_error = std::current_exception();
    }
    lock.lock();
    if (tick_error) {
      ticking = false;
      job.failed = true;
      if (!job.error) job.error = tick_error;
    }
  }
}

// Runs the items of `job` as participant `id`; returns the item that threw, if any.
Failure take_items(Job& job, unsigned id) {
  std::size_t item = 0;
  try {
    while (!job.failed && (item = job.next.fetch_add(1)) < job.items) job.work(item, id);
  } catch (...) {
    job.failed = true;
    return {item, std::current_exception()};
  }
  return {};
}

// Set on the pool's threads, and on the caller while its job runs.
thread_local bool on_pool_thread = false;

// Threads kept for the life of the process: a run of many short parallel steps (a
// sweep's waves: trace, indexes, truths, replications) starts its threads once
// instead of at every step. One job at a time; a call made while the pool is busy
// (another caller, or a job's own items) gets threads of its own.
//
// The pool is never destroyed: its threads wait on it until the process ends. A
// child forked from the process (Python's multiprocessing, say) has none of them,
// so it gets threads of its own too.
class WorkerPool {
 public:
  static WorkerPool& instance() {
    static WorkerPool* pool = new WorkerPool;
    return *pool;
  }

  // False, having run nothing, when the pool is busy.
  bool try_run(const std::shared_ptr<Job>& job, const std::function<void()>& tick) {
    if (on_pool_thread || getpid() != owner_) return false;
    std::unique_lock busy(busy_, std::try_to_lock);
    if (!busy) return false;
    on_pool_thread = true;  // a tick that called parallel_for would get threads of its own
    struct Leave {
      ~Leave() { on_pool_thread = false; }
    } leave;
    std::unique_lock lock(mutex_);
    while (threads_.size() < job->workers) threads_.emplace_back([this] { serve(); });
    job_ = job;
    ++generation_;
    wake_.notify_all();
    wait_for(*job, lock, done_, tick);
    job_.reset();
    return true;
  }

 private:
  void serve() {
    on_pool_thread = true;
    std::uint64_t seen = 0;
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen && job_; });
        seen = generation_;
        job = job_;
      }
      const unsigned id = job->joined.fetch_add(1);
      if (id >= job->workers) continue;
      const Failure failure = take_items(*job, id);
      {
        std::lock_guard lock(mutex_);
        job->finish(failure);
      }
      done_.notify_all();
    }
  }

  std::mutex busy_;   // held by the caller whose job runs
  std::mutex mutex_;  // guards everything below and each job's error and finished
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  std::shared_ptr<Job> job_;
  std::uint64_t generation_ = 0;
  const pid_t owner_ = getpid();
};

// The same job on threads started for it alone. When the system refuses a thread,
// the calling thread takes the first participant that did not start and the rest
// count as finished: the job runs on fewer threads rather than not at all.
void run_on_new_threads(Job& job, const std::function<void()>& tick) {
  std::mutex mutex;
  std::condition_variable done;
  std::vector<std::thread> threads;
  auto participate = [&](unsigned id) {
    const Failure failure = take_items(job, id);
    std::lock_guard lock(mutex);
    job.finish(failure);
    done.notify_all();
  };
  threads.reserve(job.workers);  // only starting a thread can fail below
  unsigned started = 0;
  try {
    for (; started < job.workers; ++started) threads.emplace_back(participate, started);
  } catch (const std::system_error&) {
    {
      std::lock_guard lock(mutex);
      job.finished += job.workers - started - 1;
    }
    participate(started);
  }
  {
    std::unique_lock lock(mutex);
    wait_for(job, lock, done, tick);
  }
  for (auto& thread : threads) thread.join();
}

}  // namespace

unsigned default_thread_count() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

void parallel_for(std::size_t items, unsigned threads, const Work& work, const std::function<void()>& tick) {
  // A worker without an item would only cost its wake-up; one worker and nothing
  // to tick runs on the calling thread.
  threads = static_cast<unsigned>(std::clamp<std::size_t>(items, 1, std::max(threads, 1u)));
  if (threads == 1 && !tick) {
    for (std::size_t item = 0; item < items; ++item) work(item, 0);
    return;
  }
  auto job = std::make_shared<Job>(items, threads, work);
  if (!WorkerPool::instance().try_run(job, tick)) run_on_new_threads(*job, tick);
  // The exception leaves the job before it is rethrown: a pool thread may still hold
  // the job and destroy it, and with it its reference to the exception, while the
  // caller reads the exception.
  const std::exception_ptr error = std::exchange(job->error, nullptr);
  if (error) std::rethrow_exception(error);
}

void run_tasks(std::span<const std::function<void()>> tasks, unsigned threads) {
  parallel_for(tasks.size(), threads, [&](std::size_t t, unsigned) { tasks[t](); }, {});
}

}  // namespace allocsim
