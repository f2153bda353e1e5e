#pragma once
// report.html of `allocsim advise --out`: the advice as one self-contained page, in
// the style of the other results directories' report.html (html_report.h): the
// targets, a table of each scheme's largest interval meeting them with its Monte
// Carlo check and its shipped default, a "how to read this" block, the charts of
// charts/ inline (their SVG inside the page), and advice.txt as printed. Every
// number is read from advice.json; nothing is fetched from anywhere.
#include <string>

namespace allocsim {

// The page of the results directory `dir` (its charts read from dir/charts/NAME.svg
// where drawn); `advice_json` and `advice_text` are advice.json's and advice.txt's text.
std::string advice_report_html(const std::string& dir, const std::string& subject, const std::string& advice_json,
                               const std::string& advice_text);

}  // namespace allocsim
