#pragma once
// `allocsim margins --report FILE.html`: the margins as one self-contained page
// (report/html_writer.h, the style of the other report.html pages): the answer first
// (assert each site within its band; the whole test's false-failure rate, and the
// engine's check where one ran), the bands per site with units, the sampling model,
// and a "how to read this" block. Every number is the one margins_json writes.
// Nothing is fetched: the page opens the same from an e-mail attachment.
#include <string>

#include "allocsim/profile/margins.h"
#include "allocsim/profile/margins_output.h"

namespace allocsim::profile {

std::string margins_html(const Margins& margins, const MarginsRun& run);

}  // namespace allocsim::profile
