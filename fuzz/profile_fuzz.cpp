// libFuzzer target: the three heap profile readers (gzip'd pprof, jemalloc and
// gperftools text), and for a profile that reads, the report and the annotated
// pprof, which must read back: allocsim never writes a profile it refuses.
#include <cstdlib>

#include "allocsim/profile/pprof_writer.h"
#include "allocsim/profile/profile_report.h"
#include "allocsim/profile/read_profile.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace allocsim;
  if (size == 0) return 0;
  // The first byte picks the options, the rest is the file.
  profile::ReadOptions options;
  options.window = (data[0] & 1) != 0 ? "alloc" : "inuse";
  options.jemalloc_unbias = (data[0] & 2) != 0;
  options.symbolize = false;  // a process per input, on whatever files the input names
  const std::string& path = fuzz::write_input(data + 1, size - 1);
  return fuzz::expect_clean_rejection([&] {
    const profile::HeapProfile heap = profile::read_profile(path, options);
    profile::ReportOptions report_options;
    report_options.top = 3;
    report_options.replications = 2;
    profile::build_report(heap, report_options);
    const std::string annotated =
        profile::annotated_pprof(heap, profile::all_entry_intervals(heap, report_options.level), report_options.level);
    try {
      profile::parse_profile(annotated, "annotated", options);
    } catch (const InputError&) {
      std::abort();
    }
  });
}
