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
// (progress display); a single worker with no tick is the calling thread. After a
// work item throws, no further item starts; once all workers stop, the exception of
// the lowest item that threw is rethrown (the one a single thread would meet first),
// or else one a tick threw.
void parallel_for(std::size_t items, unsigned threads,
                  const std::function<void(std::size_t item, unsigned worker)>& work,
                  const std::function<void()>& tick);

// Runs every task once, on up to `threads` threads (in order on the calling thread
// when threads <= 1); rethrows as parallel_for does.
void run_tasks(std::span<const std::function<void()>> tasks, unsigned threads);

unsigned default_thread_count();

}  // namespace allocsim
