#pragma once
// A test's own directory. mkdtemp makes it new, so it never takes over a path that
// existed (a fixed name, or one reused by a concurrent run of the same test, could),
// and the destructor removes only what it made. Tests that write files write here.
#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

namespace allocsim::testing {

class ScratchDirectory {
 public:
  ScratchDirectory() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string owner = info != nullptr ? info->test_suite_name() : "test";
    // A parameterized suite's name holds '/' ("Signals/TraceInterrupt").
    std::replace_if(owner.begin(), owner.end(), [](unsigned char c) { return !std::isalnum(c); }, '-');
    std::string pattern = (std::filesystem::temp_directory_path() / ("allocsim-" + owner + "-XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace allocsim::testing
