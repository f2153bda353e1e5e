#include "allocsim/report/html_writer.h"

#include <stdexcept>

namespace allocsim {

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

void HtmlWriter::text(std::string_view text) { out_ += html_escape(text); }

void HtmlWriter::raw(std::string_view markup) { out_ += markup; }

std::string HtmlWriter::finish() {
  while (!open_.empty()) close();
  return std::move(out_);
}

}  // namespace allocsim
