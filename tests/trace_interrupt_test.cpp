// SIGINT or SIGTERM while `trace generate` or `trace convert` writes its output:
// the process dies of the signal, and neither the output nor its temporary file
// (OUT.tmp.<pid>) is left behind. The signal is sent at two points of the write:
// as soon as the temporary file exists, and once bytes have reached it. And while
// `profile --csv --pprof` reads and computes over earlier outputs, and while an
// output's temporary file holds bytes: each output is the old file or the whole new
// one, never a part, and no temporary file is left. There the run waits at a known
// point whatever the machine's load (its input a FIFO left unfinished; a child
// process that writes and then waits).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "allocsim/trace/format/atomic_output.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "test_support.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;

enum class Point { temporary_exists, bytes_written };

// Runs the CLI with `arguments`, sends `signal` once its temporary file for `output`
// reaches `point`, and returns its wait status. Fails the test if the process ended
// before that.
int interrupted_status(const std::vector<std::string>& arguments, const std::string& output, int signal, Point point) {
  const pid_t pid = testing::spawn_cli(arguments, signal);
  EXPECT_GT(pid, 0);
  if (pid <= 0) return -1;
  const std::string temporary = output + ".tmp." + std::to_string(pid);
  bool reached = false;
  int status = 0;
  while (!reached && waitpid(pid, &status, WNOHANG) == 0) {
    std::error_code ec;
    const auto size = fs::file_size(temporary, ec);
    reached = !ec && (point == Point::temporary_exists || size > 0);
  }
  EXPECT_TRUE(reached) << "the command ended before the signal could be sent";
  if (!reached) return status;
  ::kill(pid, signal);
  EXPECT_EQ(waitpid(pid, &status, 0), pid);
  return status;
}

class TraceInterrupt : public ::testing::TestWithParam<int> {
 protected:
  // Every entry of the scratch directory but `inputs`.
  std::vector<std::string> leftovers(const std::vector<std::string>& inputs) const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(scratch_.file(""))) {
      const std::string name = entry.path().filename().string();
      if (std::find(inputs.begin(), inputs.end(), name) == inputs.end()) names.push_back(name);
    }
    return names;
  }
  void write_spec() const {
    // A million events: 30 MB native, 70 MB as CSV, written long enough to be interrupted.
    testing::write_bytes(scratch_.file("spec.json"), R"({"allocations": 1000000, "threads": 4,
      "sizes": {"distribution": "lognormal", "median": 64, "sigma": 1.5},
      "stacks": {"rule": "random", "count": 1000}, "lifetime": {"distribution": "exponential", "mean": 1000}})");
  }

  testing::ScratchDirectory scratch_;
};

TEST_P(TraceInterrupt, GenerateLeavesNoTemporaryFile) {
  write_spec();
  const std::string output = scratch_.file("out.ast");
  for (const Point point : {Point::temporary_exists, Point::bytes_written}) {
    const int status =
        interrupted_status({"trace", "generate", scratch_.file("spec.json"), "-o", output}, output, GetParam(), point);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == GetParam()) << status;
    EXPECT_EQ(leftovers({"spec.json"}), std::vector<std::string>{});
  }
}

TEST_P(TraceInterrupt, ConvertLeavesNoTemporaryFile) {
  write_spec();
  const std::string input = scratch_.file("in.ast");
  ASSERT_EQ(testing::run_cli("trace generate " + scratch_.file("spec.json") + " -o " + input).exit_code, 0);
  const std::string output = scratch_.file("out.csv");
  for (const Point point : {Point::temporary_exists, Point::bytes_written}) {
    const int status = interrupted_status({"trace", "convert", input, output}, output, GetParam(), point);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == GetParam()) << status;
    EXPECT_EQ(leftovers({"spec.json", "in.ast"}), std::vector<std::string>{});
  }
}

// A jemalloc heap_v2 profile of `stacks` stacks: enough entries that computing and
// writing the annotated pprof (about 36 bytes an entry) takes a while.
std::string many_stacks_profile(int stacks) {
  std::string text = "heap_v2/524288\n";
  for (int k = 1; k <= stacks; ++k) {
    const int objects = 1 + k % 5;
    text += "@ 0x" + std::to_string(k) + " 0x" + std::to_string(7 * k + 1) + "\n  t*: " + std::to_string(objects) +
            ": " + std::to_string(objects * (1000 + k % 9000)) + " [0: 0]\n";
  }
  return text + "\nMAPPED_LIBRARIES:\n";
}

TEST_P(TraceInterrupt, ProfileOutputsAreTheOldFilesOrTheWholeNewOnes) {
  testing::write_bytes(scratch_.file("p.heap"), many_stacks_profile(10000));
  const std::string csv = scratch_.file("top.csv"), pprof = scratch_.file("p.pb.gz");
  // The whole new outputs, from a run left alone.
  ASSERT_EQ(
      testing::run_cli("profile " + scratch_.file("p.heap") + " --replications 2 --csv " + csv + " --pprof " + pprof)
          .exit_code,
      0);
  EXPECT_FALSE(testing::read_bytes(csv).empty());
  // Interrupted before any write: the profile comes through a FIFO the test keeps open
  // and leaves unfinished, so once the run has taken every byte given it waits in its
  // read, past its checks of the outputs and before it writes anything.
  testing::write_bytes(csv, "old csv\n");
  testing::write_bytes(pprof, "old pprof\n");
  const std::string fifo = scratch_.file("p.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int writer = ::open(fifo.c_str(), O_RDWR);  // a reader and a writer: opens at once
  ASSERT_GE(writer, 0);
  const std::string start = many_stacks_profile(10000).substr(0, 4096);
  ASSERT_EQ(::write(writer, start.data(), start.size()), static_cast<ssize_t>(start.size()));
  const pid_t pid =
      testing::spawn_cli({"profile", fifo, "--replications", "2", "--csv", csv, "--pprof", pprof}, GetParam());
  ASSERT_GT(pid, 0);
  int unread = static_cast<int>(start.size()), status = 0;
  bool exited = false;
  while (unread > 0 && !exited) {
    ::usleep(1000);
    ::ioctl(writer, FIONREAD, &unread);
    exited = waitpid(pid, &status, WNOHANG) == pid;
  }
  ASSERT_FALSE(exited) << "the run ended before reading its profile: " << status;
  ::kill(pid, GetParam());
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ::close(writer);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == GetParam()) << status;
  EXPECT_EQ(testing::read_bytes(csv), "old csv\n");
  EXPECT_EQ(testing::read_bytes(pprof), "old pprof\n");
  fs::remove(fifo);
  EXPECT_EQ(leftovers({"p.heap", "top.csv", "p.pb.gz"}), std::vector<std::string>{});
}

// Interrupted while an output's temporary file holds bytes: a child process writes
// through AtomicOutput (what `trace` and the profile writers use), says so through a
// pipe, and waits; the signal then finds the write unfinished at a known point. The
// old output stays and the temporary file is removed.
TEST_P(TraceInterrupt, AnUnfinishedOutputLeavesTheOldFileAndNoTemporary) {
  const std::string output = scratch_.file("out.bin");
  testing::write_bytes(output, "old\n");
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {  // the child: never returns into the test
    std::signal(GetParam(), SIG_DFL);
    handle_interrupts();
    AtomicOutput out(output);
    out.write(std::string(1 << 20, 'x'));  // past stdio's buffer: bytes reach the file
    const char written = 1;
    if (::write(ready[1], &written, 1) != 1) std::_Exit(3);
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char written = 0;
  ASSERT_EQ(::read(ready[0], &written, 1), 1) << "the child ended before writing";
  ::close(ready[0]);
  EXPECT_GT(fs::file_size(output + ".tmp." + std::to_string(pid)), 0u);
  ::kill(pid, GetParam());
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == GetParam()) << status;
  EXPECT_EQ(testing::read_bytes(output), "old\n");
  EXPECT_EQ(leftovers({"out.bin"}), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Signals, TraceInterrupt, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(info.param == SIGINT ? "SIGINT" : "SIGTERM");
                         });

}  // namespace
}  // namespace allocsim
