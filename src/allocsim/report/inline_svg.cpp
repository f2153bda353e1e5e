#include "allocsim/report/inline_svg.h"

#include <regex>

#include "allocsim/util/file_text.h"

namespace allocsim {
namespace {

// Every occurrence of `from` replaced by `to`.
std::string replaced(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

bool refers_outside(const std::string& svg) {
  static const std::regex outside(R"((href\s*=\s*['"][^#'"])|(url\(\s*[^#\s])|https?://|\bsrc\s*=)", std::regex::icase);
  return std::regex_search(svg, outside);
}

}  // namespace

std::optional<std::string> inline_svg(std::string_view svg, std::string_view id_prefix) {
  const std::size_t start = svg.find("<svg");
  const std::size_t end = svg.rfind("</svg>");
  if (start == std::string_view::npos || end == std::string_view::npos || end < start) return std::nullopt;
  std::string body(svg.substr(start, end + 6 - start));
  // The namespace declarations of the opening tag only.
  const std::size_t tag_end = body.find('>');
  static const std::regex xmlns(R"(\s+xmlns(:\w+)?\s*=\s*("[^"]*"|'[^']*'))");
  body = std::regex_replace(body.substr(0, tag_end), xmlns, "") + body.substr(tag_end);
  const std::string prefix(id_prefix);
  for (const char quote : {'\'', '"'}) {
    const std::string q(1, quote);
    body = replaced(std::move(body), " id=" + q, " id=" + q + prefix);
    body = replaced(std::move(body), "href=" + q + "#", "href=" + q + "#" + prefix);
  }
  body = replaced(std::move(body), "url(#", "url(#" + prefix);
  if (refers_outside(body)) return std::nullopt;
  return body;
}

std::optional<std::string> inline_svg_file(const std::filesystem::path& file, std::string_view id_prefix) {
  const std::optional<std::string> text = try_read_file_text(file);
  if (!text) return std::nullopt;
  return inline_svg(*text, id_prefix);
}

}  // namespace allocsim
