#include "allocsim/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace allocsim {

unsigned default_thread_count() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

void parallel_for(std::size_t items, unsigned threads,
                  const std::function<void(std::size_t, unsigned)>& work,
                  const std::function<void()>& tick) {
  // A worker without an item would only cost its start; one worker and nothing
  // to tick runs on the calling thread.
  threads = static_cast<unsigned>(std::clamp<std::size_t>(items, 1, std::max(threads, 1u)));
  if (threads == 1 && !tick) {
    for (std::size_t item = 0; item < items; ++item) work(item, 0);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable finished;
  unsigned running = threads;

  auto worker = [&](unsigned id) {
    try {
      for (std::size_t item; !failed && (item = next.fetch_add(1)) < items;) work(item, id);
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
    std::lock_guard lock(mutex);
    --running;
    finished.notify_all();
  };

  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker, t);
  {
    std::unique_lock lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(250), [&] { return running == 0; })) {
      lock.unlock();
      if (tick) tick();
      lock.lock();
    }
  }
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

void run_tasks(std::span<const std::function<void()>> tasks, unsigned threads) {
  parallel_for(tasks.size(), threads, [&](std::size_t t, unsigned) { tasks[t](); }, {});
}

}  // namespace allocsim
