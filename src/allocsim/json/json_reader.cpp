#include "allocsim/json/json_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "allocsim/util/did_you_mean.h"
#include "allocsim/util/error.h"
#include "allocsim/util/file_text.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

// A value for an error message: a string as printable() shows it, anything else as
// JSON; past 40 bytes cut at a character boundary, so the message stays valid UTF-8.
std::string describe(const nlohmann::json& v) {
  std::string text = v.is_string() ? printable(v.get_ref<const std::string&>()) : json_text(v);
  if (text.size() <= 40) return text;
  std::size_t end = 37;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;
  return text.substr(0, end) + "...";
}

}  // namespace

std::string key_path(const std::string& path, std::string_view key) {
  const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  return plain ? path + "." + std::string(key) : path + "[" + printable(key) + "]";
}

void JsonValue::fail(const std::string& reason) const { throw InputError(path_ + ": " + reason); }

double JsonValue::number() const {
  if (!value_->is_number()) fail("expected a number, got " + describe(*value_));
  const double v = value_->get<double>();
  if (!std::isfinite(v)) fail("expected a finite number, got " + describe(*value_));
  return v;
}

double JsonValue::positive_number() const {
  const double v = number();
  if (!(v > 0)) fail("must be > 0, got " + describe(*value_));
  return v;
}

double JsonValue::non_negative_number() const {
  const double v = number();
  if (v < 0) fail("must be >= 0, got " + describe(*value_));
  return v;
}

double JsonValue::probability() const {
  const double v = number();
  if (v < 0 || v > 1) fail("must be in [0, 1], got " + describe(*value_));
  return v;
}

std::uint64_t JsonValue::uint() const {
  if (value_->is_number_unsigned()) return value_->get<std::uint64_t>();
  if (value_->is_number_integer()) {
    const std::int64_t v = value_->get<std::int64_t>();
    if (v < 0) fail("must be >= 0, got " + describe(*value_));
    return static_cast<std::uint64_t>(v);
  }
  const double v = number();
  if (v < 0) fail("must be >= 0, got " + describe(*value_));
  if (v != std::floor(v) || v >= 0x1.0p64) fail("expected an integer, got " + describe(*value_));
  return static_cast<std::uint64_t>(v);
}

std::uint64_t JsonValue::positive_uint() const {
  const std::uint64_t v = uint();
  if (v == 0) fail("must be >= 1, got 0");
  return v;
}

std::string JsonValue::string() const {
  if (!value_->is_string()) fail("expected a string, got " + describe(*value_));
  return value_->get<std::string>();
}

bool JsonValue::boolean() const {
  if (!value_->is_boolean()) fail("expected true or false, got " + describe(*value_));
  return value_->get<bool>();
}

JsonObject JsonValue::object() const {
  if (!value_->is_object()) fail("expected an object, got " + describe(*value_));
  return JsonObject(*value_, path_);
}

std::vector<JsonValue> JsonValue::array() const {
  if (!value_->is_array()) fail("expected an array, got " + describe(*value_));
  std::vector<JsonValue> out;
  out.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i) {
    out.emplace_back((*value_)[i], path_ + "[" + std::to_string(i) + "]");
  }
  return out;
}

std::vector<JsonValue> JsonValue::non_empty_array() const {
  auto out = array();
  if (out.empty()) fail("must not be empty");
  return out;
}

JsonObject::JsonObject(const nlohmann::json& value, std::string path) : value_(&value), path_(std::move(path)) {
  if (!value.is_object()) fail("expected an object, got " + describe(value));
}

void JsonObject::fail(const std::string& reason) const { throw InputError(path_ + ": " + reason); }

bool JsonObject::has(std::string_view key) const { return value_->find(std::string(key)) != value_->end(); }

JsonValue JsonObject::at(std::string_view key) {
  auto found = maybe(key);
  if (!found) fail("missing required key \"" + std::string(key) + "\"");
  return *found;
}

std::optional<JsonValue> JsonObject::maybe(std::string_view key) {
  asked_.emplace(key);
  auto it = value_->find(std::string(key));
  if (it == value_->end()) return std::nullopt;
  read_.emplace(key);
  return JsonValue(*it, key_path(path_, key));
}

void JsonObject::ignore(std::string_view key) {
  asked_.emplace(key);
  read_.emplace(key);
}

void JsonObject::finish() const {
  for (const auto& [key, value] : value_->items()) {
    if (read_.count(key) != 0) continue;
    std::string known;
    for (const auto& k : asked_) known += (known.empty() ? "" : ", ") + k;
    throw InputError(key_path(path_, key) + ": unknown key" +
                     did_you_mean(key, std::vector<std::string>(asked_.begin(), asked_.end())) +
                     (known.empty() ? std::string() : " (known keys: " + known + ")"));
  }
}

namespace {

std::string line_and_column(const std::string& text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Counts the brackets outside strings; throws at the first one past kMaxJsonDepth.
void require_shallow(const std::string& text, const std::string& where) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if ((c == '[' || c == '{') && ++depth > kMaxJsonDepth) {
      throw InputError(where + ": " + line_and_column(text, i) + ": JSON nested deeper than " +
                       std::to_string(kMaxJsonDepth) + " levels");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

template <class Json>
Json parse_text(const std::string& text, const std::string& where) {
  require_shallow(text, where);
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann reports the 1-based byte offset of the last byte read.
    std::string reason = e.what();
    const auto colon = reason.rfind(": ");
    if (colon != std::string::npos) reason = reason.substr(colon + 2);
    throw InputError(where + ": " + line_and_column(text, e.byte == 0 ? 0 : e.byte - 1) + ": invalid JSON: " + reason);
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double
    std::string reason = e.what();
    const auto bracket = reason.find("] ");
    if (bracket != std::string::npos) reason = reason.substr(bracket + 2);
    throw InputError(where + ": invalid JSON: " + reason);
  }
}

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& where) {
  return parse_text<nlohmann::json>(text, where);
}

nlohmann::ordered_json parse_ordered_json_text(const std::string& text, const std::string& where) {
  return parse_text<nlohmann::ordered_json>(text, where);
}

nlohmann::json parse_json_file(const std::string& path) {
  return parse_json_text(read_file_text(path, "file"), path);
}

}  // namespace allocsim
