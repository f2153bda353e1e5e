#pragma once
// A minimal work queue: items 0..n-1 are handed out in increasing order to
// `threads` workers, threads of a pool kept for the life of the process (started
// once, not at every call). Which worker runs which item varies from run to run;
// callers make results independent of that (counter-based streams, ordered merges).
#include <functional>
#include <span>

namespace allocsim {

// Runs work(item, worker) for every item on min(threads, items) workers. While
// they run, the calling thread calls tick(), if given, about four times a second
// (progress display); a single worker with no tick is the calling thread. The first
// exception thrown by a work item is rethrown after all workers stop.
void parallel_for(std::size_t items, unsigned threads,
                  const std::function<void(std::size_t item, unsigned worker)>& work,
                  const std::function<void()>& tick);

// Runs every task once, on up to `threads` threads (in order on the calling thread
// when threads <= 1); rethrows the first exception after all stop.
void run_tasks(std::span<const std::function<void()>> tasks, unsigned threads);

unsigned default_thread_count();

}  // namespace allocsim
