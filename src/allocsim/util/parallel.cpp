#include "allocsim/util/parallel.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace allocsim {
namespace {

using Work = std::function<void(std::size_t, unsigned)>;
constexpr auto kTickEvery = std::chrono::milliseconds(250);

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
  std::exception_ptr error;  // the first one; guarded by the mutex of whoever runs the job
  unsigned finished = 0;     // participants done; guarded likewise

  // A participant is done, with its exception if any; `mutex` held.
  void finish(std::exception_ptr participant_error) {
    if (participant_error && !error) error = participant_error;
    ++finished;
  }
};

// Waits until every participant of `job` has finished, calling tick (if any)
// about four times a second meanwhile; `lock` holds the mutex that guards the job.
void wait_for(const Job& job, std::unique_lock<std::mutex>& lock, std::condition_variable& done,
              const std::function<void()>& tick) {
  while (!done.wait_for(lock, kTickEvery, [&] { return job.finished == job.workers; })) {
    if (!tick) continue;
    lock.unlock();
    tick();
    lock.lock();
  }
}

// Runs the items of `job` as participant `id`; returns the first exception.
std::exception_ptr take_items(Job& job, unsigned id) {
  try {
    for (std::size_t item; !job.failed && (item = job.next.fetch_add(1)) < job.items;) job.work(item, id);
  } catch (...) {
    job.failed = true;
    return std::current_exception();
  }
  return nullptr;
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
      std::exception_ptr error = take_items(*job, id);
      {
        std::lock_guard lock(mutex_);
        job->finish(error);
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

// The same job on threads started for it alone.
void run_on_new_threads(Job& job, const std::function<void()>& tick) {
  std::mutex mutex;
  std::condition_variable done;
  std::vector<std::thread> threads;
  for (unsigned id = 0; id < job.workers; ++id) {
    threads.emplace_back([&, id] {
      std::exception_ptr error = take_items(job, id);
      std::lock_guard lock(mutex);
      job.finish(error);
      done.notify_all();
    });
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
  if (job->error) std::rethrow_exception(job->error);
}

void run_tasks(std::span<const std::function<void()>> tasks, unsigned threads) {
  parallel_for(tasks.size(), threads, [&](std::size_t t, unsigned) { tasks[t](); }, {});
}

}  // namespace allocsim
