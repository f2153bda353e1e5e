#pragma once
// `allocsim flaky TEST.json --report FILE.html`: the test's false-failure rates as one
// self-contained page (report/html_writer.h, the style of the other report.html
// pages): the answer first (the whole test's rate, and the inverse answer: how large a
// workload or how small an interval brings it to the target), the assertions with
// their rates (and the engine's measure where --check ran), the sites with units, the
// model, and a "how to read this" block. Every number is the one flaky_json writes.
// Nothing is fetched.
#include <optional>
#include <string>

#include "allocsim/profile/flaky.h"

namespace allocsim::profile {

// `file` is the test description's path; `answer` is empty where the engine was needed.
std::string flaky_html(const std::string& file, const FlakyTest& test, const FlakyRates& rates,
                       const std::optional<FlakyCheck>& check, const std::optional<FlakyAnswer>& answer);

}  // namespace allocsim::profile
