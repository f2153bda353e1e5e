#pragma once
// The columns of the result files a scenario writes, from the tables declared in
// stats/result_tables.h: what its charts and tables may read, and what its
// expectations may select rows by.
#include <string>
#include <vector>

#include "allocsim/outputs/result_columns.h"

namespace allocsim {

// Each file's columns: the sweep variables, then the table's.
ResultColumns result_columns(const std::vector<std::string>& sweep_names);

// The key columns of metric and interval rows (scheme, estimator, ..., "interval"
// selecting interval rows), then the sweep variables.
std::vector<std::string> selectable_columns(const std::vector<std::string>& sweep_names);

}  // namespace allocsim
