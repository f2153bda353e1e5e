#include "allocsim/report/html_writer.h"

#include <stdexcept>

namespace allocsim {
namespace {

// Inline, so that the page needs no other file; system fonts only.
constexpr const char* kStyle = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1d2330;
       max-width: 1150px; margin: 0 auto; padding: 1.5em 2em 4em; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.1em; }
h2 { border-bottom: 2px solid #d8dde6; padding-bottom: 0.2em; margin-top: 2em; }
h3 { margin: 1.2em 0 0.4em; font-size: 1.1em; }
.sub { color: #5a6375; margin-top: 0; }
.card { border: 1px solid #d8dde6; border-left: 5px solid #3a6fd8; border-radius: 4px; padding: 0.4em 1em 0.8em;
        margin: 1em 0; background: #fafbfd; }
.headline { font-size: 1.05em; }
.big { font-weight: 600; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.92em; }
th, td { padding: 0.3em 0.7em; border-bottom: 1px solid #e3e7ee; text-align: left; vertical-align: top; }
th { background: #eef1f6; font-weight: 600; }
tr:nth-child(even) td { background: #f7f8fb; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.stack { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.85em; word-break: break-all; }
.pass { color: #1a7f37; font-weight: 600; } .fail { color: #c62828; font-weight: 600; }
.howto { background: #f4f6fa; border-radius: 4px; padding: 0.5em 1.2em; }
.howto dt { font-weight: 600; margin-top: 0.5em; } .howto dd { margin-left: 1.2em; }
figure { margin: 1em 0 2em; } figcaption { color: #5a6375; font-size: 0.9em; }
figure svg { width: 100%; height: auto; max-width: 1100px; border: 1px solid #e3e7ee; }
.wide { overflow-x: auto; } .wide td { white-space: nowrap; }
footer { margin-top: 3em; color: #5a6375; font-size: 0.85em; }
)";

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

HtmlWriter::HtmlWriter() : out_("<!DOCTYPE html>\n") {}

void HtmlWriter::start_tag(std::string_view tag, HtmlAttributes attributes) {
  out_ += '<';
  out_ += tag;
  for (const auto& [name, value] : attributes) {
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    out_ += html_escape(value);
    out_ += '"';
  }
  out_ += '>';
}

void HtmlWriter::open(std::string_view tag, HtmlAttributes attributes) {
  start_tag(tag, attributes);
  open_.emplace_back(tag);
}

void HtmlWriter::close() {
  if (open_.empty()) throw std::logic_error("HtmlWriter::close: no open element");
  out_ += "</" + open_.back() + ">";
  // A line break after block-level ends keeps the file readable as text.
  if (open_.back() != "span" && open_.back() != "a" && open_.back() != "code") out_ += '\n';
  open_.pop_back();
}

void HtmlWriter::empty(std::string_view tag, HtmlAttributes attributes) {
  start_tag(tag, attributes);
  out_ += '\n';
}

void HtmlWriter::element(std::string_view tag, std::string_view text, HtmlAttributes attributes) {
  open(tag, attributes);
  this->text(text);
  close();
}

void HtmlWriter::definition(std::string_view term, std::string_view text) {
  element("dt", term);
  element("dd", text);
}

void HtmlWriter::number_cell(std::string_view text) { element("td", text, {{"class", "num"}}); }

void HtmlWriter::text(std::string_view text) { out_ += html_escape(text); }

void HtmlWriter::raw(std::string_view markup) { out_ += markup; }

void start_report_page(HtmlWriter& page, std::string_view title) {
  page.open("html", {{"lang", "en"}});
  page.open("head");
  page.empty("meta", {{"charset", "utf-8"}});
  page.empty("meta", {{"name", "viewport"}, {"content", "width=device-width, initial-scale=1"}});
  page.element("title", title);
  page.open("style");
  page.raw(kStyle);
  page.close();
  page.close();
  page.open("body");
}

std::string HtmlWriter::finish() {
  while (!open_.empty()) close();
  return std::move(out_);
}

}  // namespace allocsim
