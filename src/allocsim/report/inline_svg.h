#pragma once
// A gnuplot SVG file made fit to sit inside an HTML page: the XML prolog and the
// namespace declarations dropped (HTML's parser puts <svg> in its namespace), and
// every id with its references (href="#id", url(#id)) given a prefix, so that
// several charts on one page do not share ids.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace allocsim {

// The <svg> element of `svg`, ready to embed; nullopt when it is no SVG or refers
// to anything outside itself (an href or url() not to "#...", or any "http://",
// "https://" or "src=" left after the namespace declarations are dropped): a page
// must open without fetching a file.
std::optional<std::string> inline_svg(std::string_view svg, std::string_view id_prefix);
// The same for the SVG file `file`; nullopt also when it cannot be read.
std::optional<std::string> inline_svg_file(const std::filesystem::path& file, std::string_view id_prefix);

}  // namespace allocsim
