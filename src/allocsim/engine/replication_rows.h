#pragma once
// Per-replication values for callers whose accumulators are updated one value at
// a time (Moments::add, sums of powers): a block keeps each replication's row of
// values, and the merged result adds the rows to one accumulator per column in
// replication order, so it holds the same bits as a single-threaded loop.
#include <cstddef>
#include <span>
#include <vector>

#include "allocsim/engine/replications.h"

namespace allocsim {

// One block's rows: values[r * width + c] is column c of the block's r-th replication.
struct ReplicationRows {
  std::size_t width = 0;
  std::vector<double> values;

  // A zeroed row appended for the next replication, to be filled in.
  std::span<double> add_row() {
    values.resize(values.size() + width, 0.0);
    return {values.data() + values.size() - width, width};
  }
};

// Column c's accumulator has seen column c of every row merged so far, in order.
// Accumulator: default-constructible with add(double).
template <class Accumulator>
struct ColumnAccumulators {
  std::vector<Accumulator> columns;

  void merge(const ReplicationRows& block) {
    if (block.width == 0) return;
    if (columns.size() < block.width) columns.resize(block.width);
    for (std::size_t row = 0; row < block.values.size(); row += block.width) {
      for (std::size_t c = 0; c < block.width; ++c) columns[c].add(block.values[row + c]);
    }
  }
};

// Replications `range`, each giving a row of `width` values (evaluators from
// make(), whose run_block returns ReplicationRows), folded into one accumulator
// per column; the columns are empty accumulators when the range is empty.
template <class Accumulator, class MakeEvaluator>
std::vector<Accumulator> accumulate_columns(const ReplicationRange& range, std::size_t width, const MakeEvaluator& make,
                                            unsigned threads) {
  ReplicationOptions options;
  options.threads = threads;
  std::vector<Accumulator> columns = run_replications<ColumnAccumulators<Accumulator>>(range, make, options).columns;
  columns.resize(width);
  return columns;
}

}  // namespace allocsim
