#pragma once
// `allocsim profile --report FILE.html`: the profile's report as one self-contained
// page (report/html_writer.h, the style of the results directories' report.html):
// what the file is and the sampling model its numbers are read under, the top
// entries with their estimate and interval in bytes and objects, their rank
// stability, the detection limits, and a "how to read this" block. Nothing is
// fetched: the page opens the same from an e-mail attachment.
#include <string>

#include "allocsim/profile/heap_profile.h"
#include "allocsim/profile/profile_report.h"

namespace allocsim::profile {

std::string report_html(const HeapProfile& profile, const ProfileReport& report);

}  // namespace allocsim::profile
