#include "allocsim/json/json_reader.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "allocsim/util/did_you_mean.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

std::string describe(const nlohmann::json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

}  // namespace

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

JsonObject::JsonObject(const nlohmann::json& value, std::string path)
    : value_(&value), path_(std::move(path)) {
  if (!value.is_object()) fail("expected an object, got " + describe(value));
}

void JsonObject::fail(const std::string& reason) const { throw InputError(path_ + ": " + reason); }

bool JsonObject::has(std::string_view key) const {
  return value_->find(std::string(key)) != value_->end();
}

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
  return JsonValue(*it, path_ + "." + std::string(key));
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
    throw InputError(path_ + "." + key + ": unknown key" +
                     did_you_mean(key, std::vector<std::string>(asked_.begin(), asked_.end())) +
                     (known.empty() ? std::string() : " (known keys: " + known + ")"));
  }
}

namespace {

template <class Json>
Json parse_text(const std::string& text, const std::string& where) {
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann reports a byte offset; turn it into line and column.
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string reason = e.what();
    const auto colon = reason.rfind(": ");
    if (colon != std::string::npos) reason = reason.substr(colon + 2);
    throw InputError(where + ": line " + std::to_string(line) + ", column " +
                     std::to_string(column) + ": invalid JSON: " + reason);
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
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_json_text(text.str(), path);
}

}  // namespace allocsim
