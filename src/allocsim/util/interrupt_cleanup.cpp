#include "allocsim/util/interrupt_cleanup.h"

#include <pthread.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

namespace allocsim {
namespace {

std::mutex& registry_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<std::string>& registry() {
  static std::vector<std::string> paths;
  return paths;
}

sigset_t interrupt_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

[[noreturn]] void wait_for_interrupt() {
  const sigset_t set = interrupt_signals();
  int signal = 0;
  while (sigwait(&set, &signal) != 0) {
  }
  registry_mutex().lock();  // held until the process ends: nothing is committed any more
  // The other threads still run: one writing into a registered directory would make
  // remove_all fail on a directory that is no longer empty. A rename first takes the
  // directory out of their reach (their paths no longer lead into it).
  for (const std::string& path : registry()) {
    const std::string doomed = path + ".interrupted";
    std::error_code renamed, ignored;
    std::filesystem::rename(path, doomed, renamed);
    std::filesystem::remove_all(renamed ? path : doomed, ignored);
  }
  std::signal(signal, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal);
  pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  std::raise(signal);
  std::_Exit(128 + signal);  // not reached: the default action of these signals ends the process
}

}  // namespace

void handle_interrupts() {
  static std::once_flag once;
  std::call_once(once, [] {
    const sigset_t set = interrupt_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(wait_for_interrupt).detach();
  });
}

RemovedOnInterrupt::RemovedOnInterrupt(std::string path) : RemovedOnInterrupt(std::move(path), [] {}) {}

RemovedOnInterrupt::RemovedOnInterrupt(std::string path, const std::function<void()>& prepare)
    : path_(std::move(path)) {
  const std::lock_guard lock(registry_mutex());
  prepare();
  registry().push_back(path_);
}

RemovedOnInterrupt::~RemovedOnInterrupt() {
  const std::lock_guard lock(registry_mutex());
  forget_locked();
}

void RemovedOnInterrupt::commit(const std::function<void()>& step) {
  const std::lock_guard lock(registry_mutex());
  step();
  forget_locked();
}

void RemovedOnInterrupt::forget_locked() {
  if (!registered_) return;
  registered_ = false;
  auto& paths = registry();
  paths.erase(std::find(paths.begin(), paths.end(), path_));
}

}  // namespace allocsim
