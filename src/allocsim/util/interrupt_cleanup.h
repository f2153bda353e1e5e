#pragma once
// Temporary files and directories removed when the process is interrupted (SIGINT,
// SIGTERM, SIGHUP). handle_interrupts() blocks those signals in the calling thread,
// so every thread started afterwards inherits the block, and waits for them on a
// thread of its own: there, outside any signal handler, it removes what is
// registered and then dies of the same signal with its default action.
#include <functional>
#include <string>

namespace allocsim {

// Call once, before any other thread is started. Later calls do nothing.
void handle_interrupts();

// Registers `path` for removal (recursively) on interrupt while the object lives.
class RemovedOnInterrupt {
 public:
  explicit RemovedOnInterrupt(std::string path);
  // The same, running `prepare` (e.g. creating the path's parent directory) while an
  // interrupt is held back, so an interrupt's clean-up cannot race with it: a
  // directory the clean-up removed is never created again behind it.
  RemovedOnInterrupt(std::string path, const std::function<void()>& prepare);
  ~RemovedOnInterrupt();
  RemovedOnInterrupt(const RemovedOnInterrupt&) = delete;
  RemovedOnInterrupt& operator=(const RemovedOnInterrupt&) = delete;

  // Runs `step` (a rename that makes the path permanent) with interrupts held back,
  // then forgets the path: an interrupt sees the path either still temporary and
  // removes it, or already renamed and leaves the result alone.
  void commit(const std::function<void()>& step);

 private:
  void forget_locked();
  std::string path_;
  bool registered_ = true;
};

}  // namespace allocsim
