#pragma once
// Strict reading of JSON input. Every value carries its JSON path ("$.schemes[0].rate"),
// every error is one line that starts with that path, and an object must be closed
// with finish(), which rejects keys nobody asked for.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace allocsim {

class JsonObject;

class JsonValue {
 public:
  JsonValue(const nlohmann::json& value, std::string path) : value_(&value), path_(std::move(path)) {}

  const std::string& path() const { return path_; }
  const nlohmann::json& raw() const { return *value_; }
  [[noreturn]] void fail(const std::string& reason) const;

  bool is_object() const { return value_->is_object(); }
  bool is_array() const { return value_->is_array(); }
  bool is_string() const { return value_->is_string(); }
  bool is_number() const { return value_->is_number(); }

  double number() const;                // any finite number
  double positive_number() const;       // finite and > 0
  double non_negative_number() const;   // finite and >= 0
  double probability() const;           // in [0, 1]
  std::uint64_t uint() const;           // an integer >= 0 (a float with integral value is fine)
  std::uint64_t positive_uint() const;  // an integer >= 1
  std::string string() const;
  bool boolean() const;
  JsonObject object() const;
  std::vector<JsonValue> array() const;
  std::vector<JsonValue> non_empty_array() const;

 private:
  const nlohmann::json* value_;
  std::string path_;
};

class JsonObject {
 public:
  JsonObject(const nlohmann::json& value, std::string path);

  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& reason) const;

  bool has(std::string_view key) const;
  JsonValue at(std::string_view key);                    // required
  std::optional<JsonValue> maybe(std::string_view key);  // optional
  // Marks a key as read without using it (e.g. "description").
  void ignore(std::string_view key);

  // Rejects every key that was not read: "$.x.rat: unknown key (known: a, b)".
  void finish() const;

 private:
  const nlohmann::json* value_;
  std::string path_;
  std::set<std::string, std::less<>> read_;
  std::set<std::string, std::less<>> asked_;
};

// "path.key" for a key of letters, digits, '_' and '-'; any other key as printable()
// shows it, "path[\"a\\nb\"]", so an error naming it stays on one line.
std::string key_path(const std::string& path, std::string_view key);

// Documents nested deeper than this are refused before parsing: a walk over a
// value (printing it, substituting sweep variables) recurses once per level.
inline constexpr std::size_t kMaxJsonDepth = 64;

// Parses JSON text; a syntax error becomes "<where>: line L, column C: <reason>".
nlohmann::json parse_json_text(const std::string& text, const std::string& where);
nlohmann::json parse_json_file(const std::string& path);
// The same, keeping the author's key order.
nlohmann::ordered_json parse_ordered_json_text(const std::string& text, const std::string& where);

}  // namespace allocsim
