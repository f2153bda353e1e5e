#pragma once
// The result files a chart or table can read, and their columns. The columns are
// declared with the rows they are read from (stats/result_tables.h, a layer this
// one does not see): whoever reads a scenario passes them in as ResultColumns
// (scenario/result_files.h), so what a chart may name and what the files hold
// cannot drift apart.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace allocsim {

enum class ResultSource { metrics, intervals, profiles };

const char* file_name(ResultSource source);  // "metrics.csv", "intervals.csv", "profiles.csv"
// "metrics", "intervals", "profiles"; nullopt for anything else.
std::optional<ResultSource> parse_result_source(std::string_view name);

// Each file's column names, as a scenario with its sweep variables writes them.
using ResultColumns = std::map<ResultSource, std::vector<std::string>>;

}  // namespace allocsim
