#pragma once
// The results directory of `allocsim advise --out`: the report's files, as the
// advice layer wrote them (advice/advice_report.h), and their charts.
#include <string>

namespace allocsim {

struct AdviceFiles {
  std::string json;                    // advice.json
  std::string text;                    // advice.txt
  std::string frontier_csv;            // frontier.csv
  std::string probability_curves_csv;  // probability-curves.csv
};

// Writes the files into `dir` and draws charts/ from the CSV files: every chart's
// title begins with `subject` (the trace's file name); the probability curves are
// drawn at `curve_samples` expected samples; then report.html (advice_html.h), the
// charts inside it. The charts are drawn on up to `threads` threads, a gnuplot each.
void write_advice_files(const std::string& dir, const std::string& subject, const AdviceFiles& files,
                        double curve_samples, unsigned threads);

}  // namespace allocsim
