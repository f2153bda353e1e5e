// `allocsim diff` end to end: --csv's rows (one per entry, units in the header), a
// known change called "changed", a jemalloc record of mixed sizes matched across two
// runs by its stack, and --csv refused with one line, exit 2 and nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"
#include "testing/build_paths.h"
#include "testing/scratch_directory.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

const std::string kGoProfile = allocsim::testing::source_dir() + "/traces/profiles/go-heap.pb.gz";
const std::string kCsvHeader =
    "stack,object_size_bytes,base_samples,new_samples,base_bytes,new_bytes,change_bytes,ratio,ratio_lower,"
    "ratio_upper,ratio_level,p_value,p_holm,changed";

class DiffCli : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name)) << text;
    return file(name);
  }
  testing::ScratchDirectory scratch_;
  const fs::path dir_ = scratch_.path();
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A jemalloc 5.3 heap_v2 dump at lg_prof_sample 16 (raw counts) of `records`, each
// "@ STACK" and its "t*: samples: bytes" line, then the memory map `maps`.
std::string jemalloc_dump(const std::vector<std::pair<std::string, std::string>>& records,
                          const std::string& maps = "") {
  std::string text = "heap_v2/65536\n  t*: 0: 0 [0: 0]\n";
  for (const auto& [stack, counts] : records) text += "@ " + stack + "\n  t*: " + counts + " [0: 0]\n";
  return text + "\nMAPPED_LIBRARIES:\n" + maps;
}

TEST_F(DiffCli, CsvHasOneRowPerEntryWithUnitsInTheHeader) {
  const std::string csv = file("same.csv");
  const auto r = run_cli("diff --json --csv " + csv + " " + kGoProfile + " " + kGoProfile);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto entries = nlohmann::json::parse(r.output).at("entries");
  const std::vector<std::string> rows = lines_of(read(csv));
  ASSERT_EQ(rows.size(), entries.size() + 1) << read(csv);
  EXPECT_EQ(rows[0], kCsvHeader);
  // A profile against itself: equal counts, so every p-value is 1 and the ratio 1.
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_NE(rows[i].find(",0.95,1,1,no"), std::string::npos) << rows[i];
  }
  EXPECT_NE(read(csv).find("main.allocate;main.siteLarge;main.main;runtime.main,1048576,20,20,"), std::string::npos)
      << read(csv);
}

TEST_F(DiffCli, AKnownChangeIsChangedAndAMixedSizeRecordMatchesByItsStack) {
  // 0x1: 10 then 100 samples of 64 B, equal exposures: K1 | N = 110 ~ Binomial(110, 1/2)
  // under "no change", P(K1 <= 10) < 1e-18. 0x2: a mixed record whose average size
  // moves between runs (7890 B, then 7700 B) with nearly equal samples: one entry.
  const std::string base = write("base.heap", jemalloc_dump({{"0x1", "10: 640"}, {"0x2", "237: 1869930"}}));
  const std::string next = write("new.heap", jemalloc_dump({{"0x1", "100: 6400"}, {"0x2", "240: 1848000"}}));
  const auto r = run_cli("diff --json " + base + " " + next);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto entries = nlohmann::json::parse(r.output).at("entries");
  ASSERT_EQ(entries.size(), 2u) << r.output;
  for (const auto& entry : entries) {
    if (entry.at("stack") == "0x1") {
      EXPECT_EQ(entry.at("verdict"), "changed") << r.output;
    } else {
      EXPECT_EQ(entry.at("stack"), "0x2") << r.output;
      EXPECT_EQ(entry.at("verdict"), "no evidence") << r.output;
      // Its size: both runs' sampled bytes over their samples.
      EXPECT_NEAR(entry.at("object_size").get<double>(), (1869930.0 + 1848000.0) / 477.0, 1e-9) << r.output;
    }
  }
}

TEST_F(DiffCli, AddressesInAMappedFileMatchAcrossAddressRandomisation) {
  // One library mapped at two bases, as in two runs: the frame 0x1230 bytes past the
  // mapping's start at file offset 0x1000 is libfake.so+0x2230 in both.
  const auto map_at = [](const std::string& start, const std::string& limit) {
    return start + "-" + limit + " r-xp 00001000 fe:00 12345 /nonexistent-allocsim-test/libfake.so\n";
  };
  const std::string base =
      write("base.heap", jemalloc_dump({{"0x7f0000001230", "5: 320"}}, map_at("7f0000000000", "7f0000010000")));
  const std::string next =
      write("new.heap", jemalloc_dump({{"0x7e5500001230", "6: 384"}}, map_at("7e5500000000", "7e5500010000")));
  const auto r = run_cli("diff --json " + base + " " + next);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto entries = nlohmann::json::parse(r.output).at("entries");
  ASSERT_EQ(entries.size(), 1u) << r.output;
  EXPECT_EQ(entries[0].at("stack"), "libfake.so+0x2230") << r.output;
  EXPECT_EQ(entries[0].at("verdict"), "no evidence") << r.output;
}

TEST_F(DiffCli, CsvRefusedWithOneLineAndNothingWritten) {
  const std::string base = write("base.heap", jemalloc_dump({{"0x1", "10: 640"}}));
  const std::string before = read(base);
  const std::string missing_parent = file("missing/out.csv");
  for (const std::string& csv : {base, missing_parent}) {
    const auto r = run_cli("diff --csv " + csv + " " + base + " " + kGoProfile, true);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_NE(r.output.find("--csv"), std::string::npos) << r.output;
  }
  EXPECT_EQ(read(base), before);
  EXPECT_FALSE(fs::exists(dir_ / "missing"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace allocsim
