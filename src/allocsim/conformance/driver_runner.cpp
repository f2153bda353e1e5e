#include "allocsim/conformance/driver_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <filesystem>
#include <fstream>
#include <thread>

#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/file_text.h"
#include "allocsim/util/output_path.h"

namespace fs = std::filesystem;

namespace allocsim {
namespace {

std::string quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string substitute(std::string text, const std::vector<std::pair<std::string, std::string>>& values) {
  for (const auto& [key, value] : values) {
    for (std::size_t at; (at = text.find(key)) != std::string::npos;) text.replace(at, key.size(), value);
  }
  return text;
}

// The last few lines of a file, for error messages.
std::string tail_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::string out;
  for (std::size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : " | ") + lines[i];
  return out.empty() ? "(no output)" : out;
}

// Runs a shell command; its exit status (128 + signal when killed).
int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  if (status == -1) return 127;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

// <build-dir>/conformance/<system>: allocsim replaces and removes files in it (the
// driver, its build log, each run's output), so it is a directory allocsim made and
// marked, or it is refused as a results directory would be (util/output_path.h). It
// appears with its marker in one rename, so a second process making it at the same
// moment finds it marked, never bare.
void claim_work_directory(const ConformanceSystem& system, const std::string& directory) {
  if (written_by_allocsim(directory)) return;
  check_results_directory(directory, {}, "--build-dir");
  create_output_directory(fs::path(directory).parent_path().string());
  const std::string staging = directory + ".tmp." + std::to_string(::getpid());
  create_output_directory(staging);
  write_file_atomically((fs::path(staging) / kResultsMarker).string(),
                        results_marker_text("conformance, the " + system.name + " driver's builds and runs"));
  std::error_code error;
  fs::rename(staging, directory, error);  // fails when another process's came first
  if (error) fs::remove_all(staging, error);
  if (!written_by_allocsim(directory)) {
    throw InputError(directory + ": exists and was not written by allocsim; remove it or choose another --build-dir");
  }
}

}  // namespace

std::string build_driver(const ConformanceSystem& system, const DriverPaths& paths) {
  claim_work_directory(system, paths.work_dir);
  const fs::path binary = fs::path(paths.work_dir) / system.binary;
  const fs::path temporary = binary.string() + ".tmp";
  // The stamp holds the build command: a binary built by another command is stale.
  const fs::path stamp = binary.string() + ".command";
  const std::string command = substitute(
      system.build,
      {{"{src}", quote(paths.source_dir)}, {"{out}", quote(temporary.string())}, {"{dir}", quote(paths.work_dir)}});
  std::error_code error;
  bool fresh = fs::exists(binary, error) && try_read_file_text(stamp) == command;
  for (const std::string& source : system.sources) {
    const fs::path file = fs::path(paths.source_dir) / source;
    if (!fs::exists(file, error)) throw InputError(file.string() + ": driver source not found (--source-dir?)");
    if (fresh && fs::last_write_time(file, error) > fs::last_write_time(binary, error)) fresh = false;
  }
  if (fresh) return binary.string();
  fs::remove_all(temporary, error);
  fs::remove(stamp, error);
  const std::string log = (fs::path(paths.work_dir) / "build.log").string();
  if (shell("(" + command + ") > " + quote(log) + " 2>&1") != 0) {
    throw InputError("building the " + system.name + " driver failed (needs " + system.packages +
                     "; scripts/install-deps.sh installs it): " + tail_of(log));
  }
  fs::remove_all(binary, error);
  fs::rename(temporary, binary, error);
  if (error) throw InputError(binary.string() + ": cannot install the built driver: " + error.message());
  std::ofstream(stamp, std::ios::binary) << command;
  return binary.string();
}

std::vector<std::string> run_drivers(const ConformanceSystem& system, const DriverPaths& paths,
                                     const std::string& binary, const std::string& plan_file, std::uint64_t rate,
                                     std::uint64_t runs, unsigned parallel) {
  std::vector<std::string> outputs(runs);
  std::vector<std::string> errors(runs);
  // Every run's directory exists before the threads start (a worker must not throw).
  auto work_of = [&](std::uint64_t r) { return fs::path(paths.work_dir) / "runs" / std::to_string(r); };
  for (std::uint64_t r = 0; r < runs; ++r) create_output_directory(work_of(r).string());
  std::atomic<std::uint64_t> next{0};
  auto worker = [&] {
    for (std::uint64_t r; (r = next++) < runs;) {
      const fs::path work = work_of(r);
      outputs[r] = (work / "out.csv").string();
      const std::string err = (work / "err.txt").string();
      const std::string command = substitute(system.run, {{"{bin}", quote(binary)},
                                                          {"{plan}", quote(plan_file)},
                                                          {"{work}", quote(work.string())},
                                                          {"{rate}", std::to_string(rate)},
                                                          {"{lg_rate}", std::to_string(std::countr_zero(rate))}});
      const int status =
          shell("cd " + quote(work.string()) + " && (" + command + ") > " + quote(outputs[r]) + " 2> " + quote(err));
      if (status != 0) {
        errors[r] = system.name + " driver run " + std::to_string(r) + " exited with status " + std::to_string(status) +
                    ": " + tail_of(err);
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, parallel); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  for (const std::string& e : errors) {
    if (!e.empty()) throw InputError(e);
  }
  return outputs;
}

}  // namespace allocsim
