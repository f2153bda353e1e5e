// `allocsim diff` end to end: --csv's rows (one per entry, units in the header), a
// known change called "changed", a jemalloc record of mixed sizes matched across two
// runs by its stack, each entry's byte change with its interval, the --pprof diff read
// by `go tool pprof` (totals NEW - BASE, filtered by verdict, the inputs' file:line
// rows) and read back (the inputs' locations, lines and mappings, shared across
// address randomisation), and --csv and --pprof refused with one line, exit 2 and
// nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "allocsim/profile/gzip.h"
#include "allocsim/profile/profile.pb.h"
#include "test_support.h"
#include "testing/build_paths.h"
#include "testing/scratch_directory.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

const std::string kGoProfile = allocsim::testing::source_dir() + "/traces/profiles/go-heap.pb.gz";
const std::string kCsvHeader =
    "stack,object_size_bytes,base_samples,new_samples,base_bytes,new_bytes,change_bytes,change_lower_bytes,"
    "change_upper_bytes,ratio,ratio_lower,"
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

// The profile.proto message of a gzip'd pprof file.
pprof::Profile read_pprof_message(const std::string& path) {
  pprof::Profile message;
  EXPECT_TRUE(message.ParseFromString(profile::gunzip(read(path), path, std::size_t{1} << 28))) << path;
  return message;
}

void write_pprof_message(const std::string& path, const pprof::Profile& message) {
  std::ofstream(path, std::ios::binary) << profile::gzip(message.SerializeAsString());
}

// Each location of `message` that a sample with a non-zero value of `value_index`
// names, as "ADDRESS FILE|FUNCTION SYSTEM_NAME FILE:LINE START_LINE|..." (the mapping's
// file, each line innermost first).
std::set<std::string> used_locations(const pprof::Profile& message, int value_index) {
  const auto text = [&](std::int64_t index) -> const std::string& {
    return message.string_table(static_cast<int>(index));
  };
  std::map<std::uint64_t, std::string> described;
  for (const auto& location : message.location()) {
    std::ostringstream d;
    d << location.address() << " ";
    for (const auto& mapping : message.mapping()) {
      if (mapping.id() == location.mapping_id()) d << text(mapping.filename());
    }
    for (const auto& line : location.line()) {
      for (const auto& function : message.function()) {
        if (function.id() != line.function_id()) continue;
        d << "|" << text(function.name()) << " " << text(function.system_name()) << " " << text(function.filename())
          << ":" << line.line() << " " << function.start_line();
      }
    }
    described[location.id()] = d.str();
  }
  std::set<std::string> used;
  for (const auto& sample : message.sample()) {
    if (sample.value(value_index) == 0) continue;
    for (const std::uint64_t id : sample.location_id()) used.insert(described.at(id));
  }
  return used;
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
  const auto report = nlohmann::json::parse(r.output);
  const auto entries = report.at("entries");
  EXPECT_EQ(report["changed"], 0);
  EXPECT_EQ(report["correction"], "holm");
  const std::vector<std::string> rows = lines_of(read(csv));
  ASSERT_EQ(rows.size(), entries.size() + 1) << read(csv);
  EXPECT_EQ(rows[0], kCsvHeader);
  // A profile against itself: equal counts, so every p-value is 1 and the ratio 1.
  ASSERT_GT(rows.size(), 1u);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_NE(rows[i].find(",0.95,1,1,no"), std::string::npos) << rows[i];
  }
  for (const auto& entry : entries) EXPECT_EQ(entry["verdict"], "no evidence");
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
    // The byte change's interval holds its estimate.
    EXPECT_LE(entry.at("change_lower_bytes").get<double>(), entry.at("change_bytes").get<double>()) << r.output;
    EXPECT_GE(entry.at("change_upper_bytes").get<double>(), entry.at("change_bytes").get<double>()) << r.output;
    if (entry.at("stack") == "0x1") {
      EXPECT_EQ(entry.at("verdict"), "changed") << r.output;
      EXPECT_GT(entry.at("change_lower_bytes").get<double>(), 0) << r.output;  // a rise, surely
    } else {
      EXPECT_EQ(entry.at("stack"), "0x2") << r.output;
      EXPECT_EQ(entry.at("verdict"), "no evidence") << r.output;
      EXPECT_LT(entry.at("change_lower_bytes").get<double>(), 0) << r.output;
      EXPECT_GT(entry.at("change_upper_bytes").get<double>(), 0) << r.output;
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
  const auto r = run_cli("diff --json --pprof " + file("diff.pb.gz") + " " + base + " " + next);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto entries = nlohmann::json::parse(r.output).at("entries");
  ASSERT_EQ(entries.size(), 1u) << r.output;
  EXPECT_EQ(entries[0].at("stack"), "libfake.so+0x2230") << r.output;
  EXPECT_EQ(entries[0].at("verdict"), "no evidence") << r.output;
  // In the pprof diff both samples share one location: NEW's address, in NEW's
  // mapping of the file (BASE's moved by the difference of the mappings' starts).
  const pprof::Profile diff = read_pprof_message(file("diff.pb.gz"));
  ASSERT_EQ(diff.sample_size(), 2);
  ASSERT_EQ(diff.location_size(), 1);
  ASSERT_EQ(diff.mapping_size(), 1);
  EXPECT_EQ(diff.location(0).address(), 0x7e5500001230u);
  EXPECT_EQ(diff.mapping(0).memory_start(), 0x7e5500000000u);
  EXPECT_EQ(diff.mapping(0).file_offset(), 0x1000u);
  EXPECT_EQ(diff.string_table(static_cast<int>(diff.mapping(0).filename())), "/nonexistent-allocsim-test/libfake.so");
}

// go-heap.pb.gz as another run of the same binary would write it: every value doubled,
// the executable mapped 64 KiB higher (its locations' addresses with it), and, with
// `other_line`, one more siteMedium record whose caller is line 39 (not 38).
pprof::Profile doubled_and_moved(bool other_line) {
  pprof::Profile message = read_pprof_message(kGoProfile);
  constexpr std::uint64_t kMoved = 0x10000;
  for (auto& sample : *message.mutable_sample()) {
    for (auto& value : *sample.mutable_value()) value *= 2;
  }
  for (auto& mapping : *message.mutable_mapping()) {
    mapping.set_memory_start(mapping.memory_start() + kMoved);
    mapping.set_memory_limit(mapping.memory_limit() + kMoved);
  }
  for (auto& location : *message.mutable_location()) location.set_address(location.address() + kMoved);
  if (other_line) {
    for (int s = 0, samples = message.sample_size(); s < samples; ++s) {
      const auto& labels = message.sample(s).label();
      if (labels.empty() || labels[0].num() != 4096) continue;
      pprof::Location caller = message.location(static_cast<int>(message.sample(s).location_id(1) - 1));
      caller.set_id(message.location_size() + 1);
      caller.set_address(caller.address() + 4);
      caller.mutable_line(0)->set_line(39);
      *message.add_location() = caller;
      pprof::Sample& copy = *message.add_sample() = message.sample(s);
      copy.set_location_id(1, caller.id());
      for (auto& value : *copy.mutable_value()) value /= 2;
    }
  }
  return message;
}

TEST_F(DiffCli, PprofDiffKeepsTheInputsLocationsLinesAndMappings) {
  write_pprof_message(file("new.pb.gz"), doubled_and_moved(true));
  const auto r = run_cli("diff --json --pprof " + file("diff.pb.gz") + " " + kGoProfile + " " + file("new.pb.gz"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const pprof::Profile diff = read_pprof_message(file("diff.pb.gz"));
  const pprof::Profile next = read_pprof_message(file("new.pb.gz"));
  // inuse_space: value 3 of the inputs, 1 of the diff. Every location the diff's
  // samples name is one of NEW's, address, mapping file, functions and lines as
  // NEW's run wrote them; BASE's add none (they are NEW's 64 KiB lower), so each
  // frame is one location.
  EXPECT_EQ(used_locations(diff, 1), used_locations(next, 3));
  EXPECT_EQ(static_cast<std::size_t>(diff.location_size()), used_locations(next, 3).size());
  ASSERT_EQ(diff.mapping_size(), 1);
  EXPECT_EQ(diff.mapping(0).memory_start(), next.mapping(0).memory_start());
  EXPECT_EQ(diff.string_table(static_cast<int>(diff.mapping(0).filename())),
            next.string_table(static_cast<int>(next.mapping(0).filename())));
  EXPECT_TRUE(diff.mapping(0).has_functions());
  // siteMedium's two NEW records (callers at lines 38 and 39) are one entry of the
  // diff, and two samples of the pprof, their values NEW's own: 2 x 7571797 and 7571797.
  const auto entries = nlohmann::json::parse(r.output).at("entries");
  const auto medium = std::find_if(entries.begin(), entries.end(), [](const auto& e) {
    return e.at("stack") == "main.allocate;main.siteMedium;main.main;runtime.main";
  });
  ASSERT_NE(medium, entries.end()) << r.output;
  EXPECT_EQ(medium->at("new_bytes").get<double>(), 3 * 7571797.0) << r.output;
  std::multiset<long long> medium_values;
  for (const auto& sample : diff.sample()) {
    for (const auto& label : sample.label()) {
      if (diff.string_table(static_cast<int>(label.key())) == "bytes" && label.num() == 4096) {
        medium_values.insert(sample.value(1));
      }
    }
  }
  EXPECT_EQ(medium_values, (std::multiset<long long>{-7571797, 7571797, 2 * 7571797}));
}

// The total `go tool pprof -top` shows for `sample_index` (-unit=B: bytes unscaled) of
// the profile `file` in `directory`, under `filter` (pprof flags); "" when absent.
std::string go_pprof_total(const std::string& directory, const std::string& file, const std::string& sample_index,
                           const std::string& filter = "") {
  const auto go = testing::run_shell("cd " + directory + " && HOME=" + directory +
                                     " go tool pprof -top -nodefraction=0 -unit=B -sample_index=" + sample_index + " " +
                                     filter + " " + file + " 2>&1");
  std::smatch match;
  if (go.exit_code != 0 || !std::regex_search(go.output, match, std::regex("accounting for (-?[0-9]+)B?,"))) {
    return "";
  }
  return match[1];
}

TEST_F(DiffCli, PprofDiffTotalsAreNewMinusBaseInGoToolPprof) {
  if (testing::run_shell("command -v go >/dev/null").exit_code != 0) GTEST_SKIP() << "go is not installed";
  const std::string base = write("base.heap", jemalloc_dump({{"0x1", "10: 640"}, {"0x2", "237: 1869930"}}));
  const std::string next = write("new.heap", jemalloc_dump({{"0x1", "100: 6400"}, {"0x2", "240: 1848000"}}));
  const auto r = run_cli("diff --json --pprof " + file("diff.pb.gz") + " " + base + " " + next);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The profile's values are each side's estimates rounded, BASE's negated: pprof's
  // totals are those sums, exactly.
  long long all_bytes = 0, changed_bytes = 0;
  const nlohmann::json diff = nlohmann::json::parse(r.output);
  for (const auto& e : diff.at("entries")) {
    const long long change =
        std::llround(e.at("new_bytes").get<double>()) - std::llround(e.at("base_bytes").get<double>());
    all_bytes += change;
    if (e.at("verdict") == "changed") changed_bytes += change;
  }
  EXPECT_EQ(go_pprof_total(dir_.string(), "diff.pb.gz", "inuse_space"), std::to_string(all_bytes));
  EXPECT_EQ(go_pprof_total(dir_.string(), "diff.pb.gz", "inuse_space", "-tagfocus=change=changed"),
            std::to_string(changed_bytes));
  EXPECT_NE(changed_bytes, all_bytes);  // the filter drops the unchanged entry
  // Objects: 0x1 is 10 then 100 samples of 64 B at T = 65536, each sample 1/p objects,
  // p = 1 - exp(-64/65536): round(100/p) - round(10/p).
  const double p = 1.0 - std::exp(-64.0 / 65536.0);
  EXPECT_EQ(go_pprof_total(dir_.string(), "diff.pb.gz", "inuse_objects", "-tagfocus=change=changed"),
            std::to_string(std::llround(100 / p) - std::llround(10 / p)));
}

// The rows of `go tool pprof -lines -top` (each file:line with its flat and cum
// bytes) on the profile `file` in `directory`.
std::vector<std::string> go_pprof_line_rows(const std::string& directory, const std::string& file) {
  const auto go = testing::run_shell("cd " + directory + " && HOME=" + directory +
                                     " go tool pprof -lines -top -nodefraction=0 -unit=B -sample_index=inuse_space " +
                                     file + " 2>&1");
  const std::vector<std::string> lines = lines_of(go.output);
  const auto header = std::find_if(lines.begin(), lines.end(),
                                   [](const std::string& line) { return line.find("flat%") != std::string::npos; });
  return header == lines.end() ? std::vector<std::string>{} : std::vector<std::string>(header + 1, lines.end());
}

TEST_F(DiffCli, PprofDiffShowsTheInputsFileLinesInGoToolPprof) {
  if (testing::run_shell("command -v go >/dev/null").exit_code != 0) GTEST_SKIP() << "go is not installed";
  // NEW: twice BASE, in a run that mapped the binary elsewhere. NEW - BASE is BASE, so
  // pprof's -lines rows of the diff are BASE's own, file:line, flat and cum, and its
  // total is the inputs' totals' difference.
  write_pprof_message(file("new.pb.gz"), doubled_and_moved(false));
  const auto r = run_cli("diff --pprof " + file("diff.pb.gz") + " " + kGoProfile + " " + file("new.pb.gz"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> rows = go_pprof_line_rows(dir_.string(), "diff.pb.gz");
  EXPECT_GE(rows.size(), 10u);
  EXPECT_EQ(rows, go_pprof_line_rows(dir_.string(), kGoProfile));
  EXPECT_NE(rows.front().find("main.go:23"), std::string::npos) << rows.front();
  const std::string base_total = go_pprof_total(dir_.string(), kGoProfile, "inuse_space");
  const std::string new_total = go_pprof_total(dir_.string(), "new.pb.gz", "inuse_space");
  ASSERT_FALSE(base_total.empty());
  EXPECT_EQ(go_pprof_total(dir_.string(), "diff.pb.gz", "inuse_space"),
            std::to_string(std::stoll(new_total) - std::stoll(base_total)));
}

TEST_F(DiffCli, PprofRefusedWithOneLineAndNothingWritten) {
  const std::string base = write("base.heap", jemalloc_dump({{"0x1", "10: 640"}}));
  const std::string before = read(base);
  for (const std::string& arguments :
       {"--pprof " + base, "--pprof " + file("missing/out.pb.gz"), "--pprof " + dir_.string(),
        "--csv " + file("same") + " --pprof " + file("same")}) {
    const auto r = run_cli("diff " + arguments + " " + base + " " + base, true);
    EXPECT_EQ(r.exit_code, 2) << arguments << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_NE(r.output.find("--pprof"), std::string::npos) << r.output;
  }
  EXPECT_EQ(read(base), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(DiffCli, LongFrameNamesKeepEveryTableRowOnItsOwnLine) {
  // main.allocate renamed to 600 characters: a row longer than the table's line
  // buffer, which still ends, stack whole, where the next begins.
  pprof::Profile renamed = read_pprof_message(kGoProfile);
  const std::string long_name(600, 'f');
  for (auto& text : *renamed.mutable_string_table()) {
    if (text == "main.allocate") text = long_name;
  }
  write_pprof_message(file("long.pb.gz"), renamed);
  const auto r = run_cli("diff " + file("long.pb.gz") + " " + file("long.pb.gz"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> rows = lines_of(r.output);
  ASSERT_EQ(rows.size(), 4u + 6u) << r.output;  // BASE, NEW, summary, header; 6 entries
  const std::string stack = long_name + " < main.siteLarge < main.main < ...";
  ASSERT_GT(rows[4].size(), stack.size()) << r.output;
  EXPECT_EQ(rows[4].substr(rows[4].size() - stack.size()), stack);
}

TEST_F(DiffCli, APprofNamingAStringItDoesNotHoldIsRefusedWithNothingWritten) {
  // allocsim reads the counts of a profile whose mapping names string 1000000 of a
  // shorter table; the diff's --pprof, which would copy the name, refuses it before
  // anything (--csv too) is written.
  pprof::Profile broken = read_pprof_message(kGoProfile);
  broken.mutable_mapping(0)->set_filename(1000000);
  write_pprof_message(file("broken.pb.gz"), broken);
  const auto r = run_cli(
      "diff --csv " + file("out.csv") + " --pprof " + file("out.pb.gz") + " " + kGoProfile + " " + file("broken.pb.gz"),
      true);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  EXPECT_NE(r.output.find("broken.pb.gz: mapping.filename names string 1000000"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(file("out.csv")));
  EXPECT_FALSE(fs::exists(file("out.pb.gz")));
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
