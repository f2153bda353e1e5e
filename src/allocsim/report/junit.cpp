#include "allocsim/report/junit.h"

#include <cmath>

#include "allocsim/format/csv.h"

namespace allocsim {
namespace {

// For attribute values. XML 1.0 allows no control character but tab, line feed
// and carriage return, not even as a reference (XML 1.0 section 2.2, "Char"): the
// others become U+FFFD. The three allowed ones are written as references, which
// attribute-value normalisation keeps (section 3.3.3).
std::string escape_xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\t': out += "&#9;"; break;
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      default: out += static_cast<unsigned char>(c) < 0x20 ? std::string("\xEF\xBF\xBD") : std::string(1, c);
    }
  }
  return out;
}

}  // namespace

std::string junit_xml(const std::vector<ScenarioOutcomes>& suites) {
  std::size_t tests = 0, failures = 0;
  for (const auto& s : suites) {
    for (const auto& o : s.outcomes) {
      ++tests;
      failures += o.passed ? 0 : 1;
    }
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"allocsim check\" tests=\"" +
                    std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\">\n";
  for (const auto& s : suites) {
    std::size_t suite_failures = 0;
    for (const auto& o : s.outcomes) suite_failures += o.passed ? 0 : 1;
    out += "  <testsuite name=\"" + escape_xml(s.scenario) + "\" tests=\"" + std::to_string(s.outcomes.size()) +
           "\" failures=\"" + std::to_string(suite_failures) + "\" time=\"" + format_number(s.wall_seconds) + "\">\n";
    for (const auto& o : s.outcomes) {
      out += "    <testcase classname=\"" + escape_xml(s.scenario) + "\" name=\"" + escape_xml(o.name + " " + o.row) +
             "\"";
      if (o.passed) {
        out += "/>\n";
      } else {
        out += ">\n      <failure message=\"" +
               escape_xml("value " + (std::isnan(o.value) ? std::string("none") : format_number(o.value)) +
                          " violates " + o.bound) +
               "\"/>\n    </testcase>\n";
      }
    }
    out += "  </testsuite>\n";
  }
  return out + "</testsuites>\n";
}

}  // namespace allocsim
