// SIGINT or SIGTERM while `trace generate` or `trace convert` writes its output:
// the process dies of the signal, and neither the output nor its temporary file
// (OUT.tmp.<pid>) is left behind. The signal is sent at two points of the write:
// as soon as the temporary file exists, and once bytes have reached it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

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

INSTANTIATE_TEST_SUITE_P(Signals, TraceInterrupt, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(info.param == SIGINT ? "SIGINT" : "SIGTERM");
                         });

}  // namespace
}  // namespace allocsim
