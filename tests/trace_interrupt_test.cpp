// SIGINT or SIGTERM while `trace generate` or `trace convert` writes its output:
// the process dies of the signal, and neither the output nor its temporary file
// (OUT.tmp.<pid>) is left behind. The signal is sent at two points of the write:
// as soon as the temporary file exists, and once bytes have reached it. And while
// `profile --csv --pprof` computes and writes over earlier outputs: each output is
// the old file or the whole new one, never a part, and no temporary file is left.
// There the test makes a temporary file a FIFO, so the run waits at a known point
// whatever the machine's load.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

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
  const std::vector<std::string> arguments{
      "profile", scratch_.file("p.heap"),  "--replications", "2",
      "--csv",   scratch_.file("top.csv"), "--pprof",        scratch_.file("p.pb.gz")};
  // The whole new outputs, from a run left alone.
  ASSERT_EQ(testing::run_cli("profile " + scratch_.file("p.heap") + " --replications 2 --csv " +
                             scratch_.file("top.csv") + " --pprof " + scratch_.file("p.pb.gz"))
                .exit_code,
            0);
  const std::string new_csv = testing::read_bytes(scratch_.file("top.csv"));
  const std::string new_pprof = testing::read_bytes(scratch_.file("p.pb.gz"));
  const std::string pprof = scratch_.file("p.pb.gz");
  // Interrupted while computing, before any write. The CSV's temporary file is a FIFO
  // with no reader, so a run that has finished computing waits in its open().
  {
    testing::write_bytes(scratch_.file("top.csv"), "old csv\n");
    testing::write_bytes(pprof, "old pprof\n");
    const pid_t pid = testing::spawn_cli_stopped(arguments, GetParam());
    ASSERT_GT(pid, 0);
    const std::string csv_temporary = scratch_.file("top.csv") + ".tmp." + std::to_string(pid);
    ASSERT_EQ(::mkfifo(csv_temporary.c_str(), 0600), 0);
    ::kill(pid, SIGCONT);
    ::usleep(100'000);
    ::kill(pid, GetParam());
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == GetParam()) << status;
    EXPECT_EQ(testing::read_bytes(scratch_.file("top.csv")), "old csv\n");
    EXPECT_EQ(testing::read_bytes(pprof), "old pprof\n");
    fs::remove(csv_temporary);  // the test's own FIFO, if the signal came before the run opened it
    EXPECT_EQ(leftovers({"p.heap", "top.csv", "p.pb.gz"}), std::vector<std::string>{});
  }
  // Interrupted while the pprof's temporary file exists and holds bytes (the CSV,
  // written first, already whole). That file is a FIFO the test reads nothing from:
  // the run blocks once the pipe is full, so the signal always finds it writing.
  {
    testing::write_bytes(scratch_.file("top.csv"), "old csv\n");
    testing::write_bytes(pprof, "old pprof\n");
    const pid_t pid = testing::spawn_cli_stopped(arguments, GetParam());
    ASSERT_GT(pid, 0);
    const std::string pprof_temporary = pprof + ".tmp." + std::to_string(pid);
    ASSERT_EQ(::mkfifo(pprof_temporary.c_str(), 0600), 0);
    const int reader = ::open(pprof_temporary.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    // More than the pipe and a stdio buffer hold, so the write cannot finish.
    ASSERT_GT(new_pprof.size(), static_cast<std::size_t>(::fcntl(reader, F_GETPIPE_SZ)) + BUFSIZ);
    ::kill(pid, SIGCONT);
    pollfd readable{reader, POLLIN, 0};
    int status = 0;
    bool exited = false;
    while (::poll(&readable, 1, 100) == 0 && !exited) exited = waitpid(pid, &status, WNOHANG) == pid;
    ASSERT_FALSE(exited) << "the run ended before writing its pprof: " << status;
    ::kill(pid, GetParam());
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ::close(reader);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == GetParam()) << status;
    EXPECT_EQ(testing::read_bytes(scratch_.file("top.csv")), new_csv);
    EXPECT_EQ(testing::read_bytes(pprof), "old pprof\n");
    EXPECT_EQ(leftovers({"p.heap", "top.csv", "p.pb.gz"}), std::vector<std::string>{});
  }
}

INSTANTIATE_TEST_SUITE_P(Signals, TraceInterrupt, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(info.param == SIGINT ? "SIGINT" : "SIGTERM");
                         });

}  // namespace
}  // namespace allocsim
