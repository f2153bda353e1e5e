#pragma once
// Writing HTML whose tags balance by construction: every element opened is closed
// by close() or by finish(), text is escaped on the way in, and only markup the
// caller vouches for (an inline SVG, inline_svg.h) goes in unescaped.
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace allocsim {

// &, <, >, " and ' as character references; everything else (UTF-8 included) as is.
std::string html_escape(std::string_view text);

using HtmlAttributes = std::initializer_list<std::pair<std::string_view, std::string_view>>;

class HtmlWriter {
 public:
  // Starts the document: <!DOCTYPE html>.
  HtmlWriter();

  // <tag name="value" ...>, to be closed by close(); values are escaped.
  void open(std::string_view tag, HtmlAttributes attributes = {});
  // Closes the innermost open element.
  void close();
  // An element with no content and no closing tag: <meta ...>.
  void empty(std::string_view tag, HtmlAttributes attributes = {});
  // <tag ...>text</tag>, the text escaped.
  void element(std::string_view tag, std::string_view text, HtmlAttributes attributes = {});
  // One term of a definition list: <dt>term</dt><dd>text</dd>, both escaped.
  void definition(std::string_view term, std::string_view text);
  // A table's figure: <td class="num">text</td>, which the report pages' style sheet
  // aligns right.
  void number_cell(std::string_view text);
  void text(std::string_view text);
  // Markup written as given.
  void raw(std::string_view markup);

  // Closes what is still open and returns the document.
  std::string finish();

 private:
  void start_tag(std::string_view tag, HtmlAttributes attributes);

  std::string out_;
  std::vector<std::string> open_;
};

// The head every allocsim report page shares (charset, viewport, `title`, the inline
// style sheet; nothing fetched), and <body> left open for the content.
void start_report_page(HtmlWriter& page, std::string_view title);

}  // namespace allocsim
