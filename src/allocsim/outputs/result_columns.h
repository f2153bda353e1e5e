#pragma once
// The columns of the result files a chart or table can read, for a scenario with
// the given sweep variables. The results writer writes its headers from here, so
// what a chart may name and what the files hold cannot drift apart.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace allocsim {

enum class ResultSource { metrics, intervals, profiles };

const char* file_name(ResultSource source);  // "metrics.csv", "intervals.csv", "profiles.csv"
// "metrics", "intervals", "profiles"; nullopt for anything else.
std::optional<ResultSource> parse_result_source(std::string_view name);
std::vector<std::string> result_columns(ResultSource source, const std::vector<std::string>& sweep_names);
// The CSV header line (with its newline) of that file.
std::string result_header(ResultSource source, const std::vector<std::string>& sweep_names);

}  // namespace allocsim
