// report.html (report/html_report.h): the HTML writer's escaping and balance, a
// gnuplot SVG made fit to embed, and the page `evaluate` and `run` write beside their
// CSV files: well-formed, self-contained (nothing fetched from anywhere), holding the
// verdict's numbers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "allocsim/report/html_writer.h"
#include "allocsim/report/inline_svg.h"
#include "allocsim/util/byte_units.h"
#include "test_support.h"
#include "testing/build_paths.h"
#include "trace_test_files.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

TEST(HtmlEscape, EscapesMarkupCharactersOnly) {
  EXPECT_EQ(html_escape(R"(<a href="x">&'</a>)"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(html_escape("± 3.1% of 1.4 MiB"), "± 3.1% of 1.4 MiB");
}

TEST(HtmlWriter, ClosesWhatItOpensAndEscapesTextAndAttributes) {
  HtmlWriter page;
  page.open("html");
  page.open("body", {{"class", "a\"b"}});
  page.element("p", "1 < 2");
  page.empty("meta", {{"charset", "utf-8"}});
  page.open("div");
  page.open("span");
  EXPECT_EQ(page.finish(), "<!DOCTYPE html>\n<html><body class=\"a&quot;b\"><p>1 &lt; 2</p>\n<meta charset=\"utf-8\">\n"
                           "<div><span></span></div>\n</body>\n</html>\n");
}

TEST(HtmlWriter, CloseWithNothingOpenIsAProgrammingError) {
  HtmlWriter page;
  EXPECT_THROW(page.close(), std::logic_error);
}

constexpr const char* kGnuplotSvg = R"svg(<?xml version="1.0" encoding="utf-8"  standalone="no"?>
<svg 
 viewBox="0 0 1100 700"
 xmlns="http://www.w3.org/2000/svg"
 xmlns:xlink="http://www.w3.org/1999/xlink"
>
<defs><path id='gpPt0' d='M-1,0 h2'/><use xlink:href='#gpPt0' id="gpPt1"/></defs>
<g id="gnuplot_plot_1" style="clip-path: url(#clip1)"><use xlink:href='#gpPt1'/></g>
</svg>
)svg";

TEST(InlineSvg, DropsPrologAndNamespacesAndPrefixesEveryIdAndReference) {
  const std::optional<std::string> svg = inline_svg(kGnuplotSvg, "c2-");
  ASSERT_TRUE(svg.has_value());
  EXPECT_EQ(svg->rfind("<svg", 0), 0u) << *svg;
  EXPECT_EQ(svg->find("xmlns"), std::string::npos) << *svg;
  EXPECT_EQ(svg->find("http"), std::string::npos) << *svg;
  EXPECT_NE(svg->find("id='c2-gpPt0'"), std::string::npos) << *svg;
  EXPECT_NE(svg->find("id=\"c2-gpPt1\""), std::string::npos) << *svg;
  EXPECT_NE(svg->find("xlink:href='#c2-gpPt0'"), std::string::npos) << *svg;
  EXPECT_NE(svg->find("xlink:href='#c2-gpPt1'"), std::string::npos) << *svg;
  EXPECT_NE(svg->find("url(#c2-clip1)"), std::string::npos) << *svg;
  EXPECT_EQ(svg->substr(svg->size() - 6), "</svg>");
}

TEST(InlineSvg, RefusesAnSvgThatReachesOutside) {
  // gnuplot's "mouse" option loads a script file; an image may name a file or a URL.
  EXPECT_FALSE(inline_svg("<svg><script xlink:href='gnuplot_svg.js'/></svg>", "c1-"));
  EXPECT_FALSE(inline_svg("<svg><image href=\"https://example.org/a.png\"/></svg>", "c1-"));
  EXPECT_FALSE(inline_svg("<svg><g style=\"fill: url(pattern.svg#p)\"/></svg>", "c1-"));
  EXPECT_FALSE(inline_svg("<svg><img src=\"a.png\"/></svg>", "c1-"));
  EXPECT_FALSE(inline_svg("not an svg", "c1-"));
}

// Tags of `html` that do not balance, as "expected X, got Y" (empty: balanced). The
// contents of <style> are skipped; void elements and "/>" open nothing.
std::vector<std::string> unbalanced_tags(const std::string& html) {
  static const std::set<std::string> kVoid = {"meta", "br", "img", "hr", "input", "link", "col", "source", "wbr"};
  static const std::regex tag(R"(<(/?)([a-zA-Z][a-zA-Z0-9:-]*)[^>]*?(/?)>)");
  std::vector<std::string> problems;
  std::vector<std::string> open;
  std::string text = html;
  for (std::size_t at = 0; (at = text.find("<style>", at)) != std::string::npos; at += 7) {
    text.erase(at + 7, text.find("</style>", at) - (at + 7));
  }
  for (auto it = std::sregex_iterator(text.begin(), text.end(), tag); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[2];
    if ((*it)[1].length() > 0) {
      if (open.empty() || open.back() != name) {
        problems.push_back("</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">"));
      } else {
        open.pop_back();
      }
    } else if ((*it)[3].length() == 0 && !kVoid.count(name)) {
      open.push_back(name);
    }
  }
  for (const std::string& name : open) problems.push_back("<" + name + "> never closed");
  return problems;
}

TEST(HtmlTagChecker, FindsWhatDoesNotBalance) {
  EXPECT_TRUE(unbalanced_tags("<html><body><p>a<br>b</p><svg><path d='x'/></svg></body></html>").empty());
  EXPECT_EQ(unbalanced_tags("<div><p></div>").size(), 3u);  // </div> closes <p>; <div>, <p> never closed
}

// Every number with its unit in the text verdict: "1.4 MiB", "-0.012%", "95%".
std::vector<std::string> verdict_numbers(const std::string& verdict) {
  static const std::regex number(R"(-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?( B| KiB| MiB| GiB|%))");
  std::vector<std::string> numbers;
  for (auto it = std::sregex_iterator(verdict.begin(), verdict.end(), number); it != std::sregex_iterator(); ++it) {
    numbers.push_back(it->str());
  }
  return numbers;
}

void expect_self_contained(const std::string& html) {
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(\bsrc\s*=)", std::regex::icase)));
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(<(script|link|iframe|object|embed|img)\b)", std::regex::icase)));
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(url\(\s*[^#\s])"))) << "only url(#id) inside the page";
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(href\s*=\s*['"][^#'"])"))) << "only links inside the page";
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(@import|@font-face)")));
}

const std::string kTrace = allocsim::testing::source_dir() + "/traces/bc.raw.zst";

TEST(HtmlReportCli, EvaluateWritesASelfContainedPageWithTheVerdictsNumbers) {
  const testing::ScratchDirectory dir;
  const auto r = run_cli("evaluate " + kTrace + " --scheme heapprofd --scheme jemalloc --rate 4KiB --rate 64KiB" +
                         " --replications 64 --threads 2 --quiet --out " + dir.file("out") + " --save-scenario " +
                         dir.file("s.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string results = dir.file("out") + "/evaluate-bc";
  ASSERT_TRUE(fs::exists(results + "/report.html"));
  const std::string html = testing::read_bytes(results + "/report.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  const std::vector<std::string> problems = unbalanced_tags(html);
  EXPECT_TRUE(problems.empty()) << problems.front();
  expect_self_contained(html);

  // The verdict comes first, and holds every number the text verdict prints.
  EXPECT_LT(html.find("<h2>Verdict</h2>"), html.find("<h2>How to read this</h2>"));
  EXPECT_LT(html.find("<h2>How to read this</h2>"), html.find("<h2>Comparison</h2>"));
  const std::vector<std::string> numbers = verdict_numbers(r.output);
  ASSERT_GT(numbers.size(), 40u) << r.output;  // 4 entries, each with its whole heap and 5 stacks
  for (const std::string& number : numbers) EXPECT_NE(html.find(number), std::string::npos) << number;
  // Each scheme at each rate, with its estimate table.
  for (const char* title : {"heapprofd, rate 4 KiB, allocated", "heapprofd, rate 64 KiB, allocated",
                            "jemalloc, rate 4 KiB, allocated", "jemalloc, rate 64 KiB, allocated"}) {
    EXPECT_NE(html.find(title), std::string::npos) << title;
  }
  EXPECT_NE(html.find("<th class=\"num\">[lower, upper]</th>"), std::string::npos);
  EXPECT_NE(html.find("<th class=\"num\">MC SE</th>"), std::string::npos);
  // The charts are in the page, not beside it.
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  // Nothing else was left beside it (its temporary file renamed into place).
  for (const auto& entry : fs::directory_iterator(results)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  }

  // `run` of the same scenario writes the same kind of page into its own directory.
  const auto run = run_cli("run --quiet --threads 2 --no-charts --out " + dir.file("run") + " " + dir.file("s.json"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string page = testing::read_bytes(dir.file("run") + "/evaluate-bc/report.html");
  EXPECT_TRUE(unbalanced_tags(page).empty());
  expect_self_contained(page);
  for (const std::string& number : numbers) EXPECT_NE(page.find(number), std::string::npos) << number;
  EXPECT_EQ(page.find("<svg"), std::string::npos) << "--no-charts: no chart drawn, none embedded";
}

// Column `name` of every row of a CSV without quoted commas in the columns read.
std::vector<double> csv_column(const std::string& csv, const std::string& name) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  for (std::size_t end; (end = csv.find('\n', at)) != std::string::npos; at = end + 1) {
    lines.push_back(csv.substr(at, end - at));
  }
  const auto fields = [](const std::string& line) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
      out.push_back(line.substr(start, comma - start));
    }
    out.push_back(line.substr(start));
    return out;
  };
  const std::vector<std::string> header = fields(lines.at(0));
  const std::size_t column = std::find(header.begin(), header.end(), name) - header.begin();
  std::vector<double> values;
  for (std::size_t i = 1; i < lines.size(); ++i) values.push_back(std::stod(fields(lines[i]).at(column)));
  return values;
}

TEST(HtmlReportCli, ProfileReportPageHoldsTheModelAndTheTopEntriesIntervalsWithUnits) {
  const testing::ScratchDirectory dir;
  const std::string profile = allocsim::testing::source_dir() + "/traces/profiles/go-heap.pb.gz";
  const auto r = run_cli("profile " + profile + " --threads 2 --csv " + dir.file("top.csv") + " --report " +
                         dir.file("profile.html"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string html = testing::read_bytes(dir.file("profile.html"));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  const std::vector<std::string> problems = unbalanced_tags(html);
  EXPECT_TRUE(problems.empty()) << problems.front();
  expect_self_contained(html);
  // The model first, then the entries, then how to read them.
  EXPECT_LT(html.find("<h2>The model</h2>"), html.find("<h2>Top 6 entries</h2>"));
  EXPECT_LT(html.find("<h2>Top 6 entries</h2>"), html.find("<h2>How to read this</h2>"));
  EXPECT_NE(html.find("rate 64 KiB"), std::string::npos);
  EXPECT_NE(html.find("binomial, p = 1 - exp(-s/T) per allocation"), std::string::npos);
  EXPECT_EQ(html.find("e+0"), std::string::npos) << "bytes with units, not 2.09715e+07";
  // Every top entry's estimate and interval, as the CSV holds them, in bytes with units.
  const std::string csv = testing::read_bytes(dir.file("top.csv"));
  const std::vector<double> bytes = csv_column(csv, "estimate_bytes");
  const std::vector<double> lower = csv_column(csv, "bytes_lower");
  const std::vector<double> upper = csv_column(csv, "bytes_upper");
  ASSERT_EQ(bytes.size(), 6u);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    EXPECT_NE(html.find(">" + bytes_approx(bytes[i]) + "<"), std::string::npos) << bytes[i];
    const std::string interval = "[" + bytes_approx(lower[i]) + ", " + bytes_approx(upper[i]) + "]";
    EXPECT_NE(html.find(interval), std::string::npos) << interval;
  }
  EXPECT_NE(html.find("[5.98 MiB, 8.64 MiB]"), std::string::npos);  // siteMedium: 112 samples of 4 KiB
  EXPECT_NE(html.find("main.siteMedium"), std::string::npos);

  // The page is one more output: it may not be the --csv file (nor the input).
  const auto same = run_cli("profile " + profile + " --csv " + dir.file("x") + " --report " + dir.file("x"), true);
  EXPECT_EQ(same.exit_code, 2) << same.output;
  EXPECT_NE(same.output.find("--report"), std::string::npos) << same.output;
  EXPECT_FALSE(fs::exists(dir.file("x")));
}

TEST(HtmlReportCli, AdviseResultsDirectoryHoldsAPageWithTheAdviceTableAndItsChartsInline) {
  const testing::ScratchDirectory dir;
  const auto r = run_cli("advise " + kTrace + " --replications 50 --threads 2 --json --out " + dir.file("advice"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string html = testing::read_bytes(dir.file("advice") + "/report.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  const std::vector<std::string> problems = unbalanced_tags(html);
  EXPECT_TRUE(problems.empty()) << problems.front();
  expect_self_contained(html);
  EXPECT_LT(html.find("<h2>Advice</h2>"), html.find("<h2>How to read this</h2>"));
  EXPECT_LT(html.find("<h2>How to read this</h2>"), html.find("<h2>Charts</h2>"));
  // One row per advised scheme, its interval as the JSON holds it, in bytes with units.
  const nlohmann::json advice = nlohmann::json::parse(r.output);
  ASSERT_GE(advice["recommendations"].size(), 4u);
  for (const auto& rec : advice["recommendations"]) {
    const std::string scheme = rec["scheme"];
    EXPECT_NE(html.find("<td>" + scheme + "</td>"), std::string::npos) << scheme;
    if (rec.contains("closed_form") && rec["unit"] == "bytes") {
      const std::string interval = bytes_exact(rec["closed_form"]["interval"].get<double>());
      EXPECT_NE(html.find("<td>" + interval), std::string::npos) << scheme << " " << interval;
    }
  }
  EXPECT_NE(html.find("4 KiB: "), std::string::npos) << "heapprofd's shipped default";
  // The four charts, inside the page, each with ids of its own.
  std::size_t svgs = 0;
  for (std::size_t at = 0; (at = html.find("<svg", at)) != std::string::npos; ++at) ++svgs;
  EXPECT_EQ(svgs, 4u);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  // advice.txt as printed, for every note the table leaves out.
  EXPECT_NE(html.find(html_escape(testing::read_bytes(dir.file("advice") + "/advice.txt"))), std::string::npos);
}

std::string printf_text(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// The names under `dir`, sorted: what a command wrote there.
std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void expect_well_formed_page(const std::string& html) {
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  const std::vector<std::string> problems = unbalanced_tags(html);
  EXPECT_TRUE(problems.empty()) << problems.front();
  expect_self_contained(html);
  EXPECT_NE(html.find("<h2>How to read this</h2>"), std::string::npos);
}

TEST(HtmlReportCli, MarginsReportPageHoldsTheJsonsBandsAndRatesAnswerFirst) {
  const testing::ScratchDirectory dir;
  fs::create_directories(dir.file("work"));
  // Run inside an empty directory with relative outputs: the two files are all it writes.
  const auto r = run_cli("margins " + allocsim::testing::source_dir() +
                             "/traces/profiles/sites.json --scheme go --rate 64KiB --false-failure 0.05 "
                             "--check 1000 --threads 2 --out m.json --report m.html",
                         true, dir.file("work"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(entries(dir.file("work")), (std::vector<std::string>{"m.html", "m.json"}));
  const std::string html = testing::read_bytes(dir.file("work/m.html"));
  expect_well_formed_page(html);
  // The answer first, then the bands, the model, how to read them.
  EXPECT_LT(html.find("<h2>The answer</h2>"), html.find("<h2>Bands per site</h2>"));
  EXPECT_LT(html.find("<h2>Bands per site</h2>"), html.find("<h2>The model</h2>"));
  EXPECT_LT(html.find("<h2>The model</h2>"), html.find("<h2>How to read this</h2>"));
  EXPECT_EQ(html.find("e+0"), std::string::npos) << "bytes with units, not 2.09715e+07";
  EXPECT_NE(html.find("rate 64 KiB"), std::string::npos);
  // The numbers of the JSON, as the page prints them.
  const nlohmann::json json = nlohmann::json::parse(testing::read_bytes(dir.file("work/m.json")));
  EXPECT_NE(html.find("<span class=\"big\">" + printf_text("%.3g", json["whole_false_failure"]) + "</span>"),
            std::string::npos);
  const double failed =
      json["check"]["whole_false_failure"].get<double>() * json["check"]["replications"].get<double>();
  EXPECT_NE(html.find("the whole test failed " + printf_text("%.0f", failed) + " times"), std::string::npos);
  EXPECT_NE(html.find("class=\"pass\">passed<"), std::string::npos);
  ASSERT_EQ(json["sites"].size(), 4u);
  for (const auto& site : json["sites"]) {
    const std::string name = site["name"];
    EXPECT_NE(html.find("<td>" + name + "</td>"), std::string::npos) << name;
    for (const char* end : {"lower", "upper"}) {
      const double bytes = site[end];
      EXPECT_NE(html.find(">" + bytes_approx(bytes) + "<br>"), std::string::npos) << name << " " << end;
      EXPECT_NE(html.find("<span class=\"sub\">" + printf_text("%.0f", bytes) + " B</span>"), std::string::npos)
          << name << " " << end;
    }
    EXPECT_NE(html.find(">" + printf_text("%.3g", site["false_failure"]) + "<"), std::string::npos) << name;
    EXPECT_NE(html.find(">" + printf_text("%.4f", site["power"]) + "<"), std::string::npos) << name;
  }
  EXPECT_NE(html.find(">576 KiB<br>"), std::string::npos) << "site small's lower end, 590111 B";

  // The page is one more output: it may not be the JSON file.
  const auto same = run_cli("margins " + allocsim::testing::source_dir() +
                                "/traces/profiles/sites.json --scheme go --rate 64KiB --out x --report x",
                            true, dir.file("work"));
  EXPECT_EQ(same.exit_code, 2) << same.output;
  EXPECT_NE(same.output.find("--report"), std::string::npos) << same.output;
  EXPECT_FALSE(fs::exists(dir.file("work/x")));
}

TEST(HtmlReportCli, FlakyReportPageHoldsTheWholeTestsRateTheInverseAnswerAndEachAssertion) {
  const testing::ScratchDirectory dir;
  fs::create_directories(dir.file("work"));
  const auto r = run_cli("flaky " + allocsim::testing::source_dir() +
                             "/traces/profiles/flaky-gperftools.json --out f.json --report f.html",
                         true, dir.file("work"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(entries(dir.file("work")), (std::vector<std::string>{"f.html", "f.json"}));
  const std::string html = testing::read_bytes(dir.file("work/f.html"));
  expect_well_formed_page(html);
  EXPECT_LT(html.find("<h2>The answer</h2>"), html.find("<h2>Assertions</h2>"));
  EXPECT_LT(html.find("<h2>Assertions</h2>"), html.find("<h2>How to read this</h2>"));
  const nlohmann::json json = nlohmann::json::parse(testing::read_bytes(dir.file("work/f.json")));
  const double whole = json["whole_false_failure"];
  EXPECT_NEAR(whole, 0.02391, 5e-5);  // tests/flaky_test.cpp: the binomial tails of gperftools' sampling_test
  EXPECT_NE(html.find("<span class=\"big\">" + printf_text("%.4g", whole) + "</span>"), std::string::npos);
  EXPECT_NE(html.find("one run in " + printf_text("%.3g", 1 / whole)), std::string::npos);
  for (const auto& assertion : json["assertions"]) {
    EXPECT_NE(html.find("<td>" + html_escape(assertion["assertion"].get<std::string>()) + "</td>"), std::string::npos);
    EXPECT_NE(html.find(">" + printf_text("%.4g", assertion["false_failure"]) + "<"), std::string::npos);
  }
  // The inverse answer: the multiplier and the interval, the interval in bytes.
  EXPECT_NE(html.find("run big &gt;= " + printf_text("%.0f", json["inverse"]["allocations"]["big"]) + " times (" +
                      printf_text("%.4g", json["inverse"]["multiplier"]) + "x its 8000 allocations;"),
            std::string::npos);
  EXPECT_NE(html.find("at most " + bytes_exact(json["inverse"]["rate_bytes"].get<double>()) + " (from 512 KiB)"),
            std::string::npos);
  EXPECT_NE(html.find("92603 B"), std::string::npos);
}

}  // namespace
}  // namespace allocsim
