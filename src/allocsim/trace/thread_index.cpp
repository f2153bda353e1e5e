#include "allocsim/trace/thread_index.h"

#include <algorithm>

#include "allocsim/util/huge_pages.h"

namespace allocsim {

ThreadIndex::ThreadIndex(const Trace& trace) : prefix_(trace.thread_count), coarse_(trace.thread_count) {
  if (trace.thread_count > 1) {
    events_.resize(trace.thread_count);
    std::vector<std::size_t> counts(trace.thread_count, 0);
    for (std::uint32_t t : trace.thread) ++counts[t];
    for (std::uint32_t t = 0; t < trace.thread_count; ++t) resize_on_huge_pages(events_[t], counts[t]);
    std::fill(counts.begin(), counts.end(), 0);
    for (std::size_t i = 0; i < trace.size(); ++i) events_[trace.thread[i]][counts[trace.thread[i]]++] = i;
  }
  for (std::uint32_t t = 0; t < trace.thread_count; ++t) {
    const std::size_t n = events_.empty() ? trace.size() : events_[t].size();
    auto& prefix = prefix_[t];
    resize_on_huge_pages(prefix, n + 1);
    prefix[0] = 0;
    for (std::size_t k = 0; k < n; ++k) prefix[k + 1] = prefix[k] + trace.requested[event(t, k)];
    for (std::size_t k = 0; k < prefix.size(); k += kStride) coarse_[t].push_back(prefix[k]);
  }
}

std::size_t ThreadIndex::find(std::uint32_t t, double x, std::size_t from) const {
  const std::size_t block = gallop_last_not_above(coarse_[t], x, from / kStride);
  const auto& prefix = prefix_[t];
  const std::size_t first = std::max(from, block * kStride);
  const std::size_t last = std::min(prefix.size(), (block + 1) * kStride + 1);
  return gallop_last_not_above(std::span<const std::uint64_t>(prefix.data(), last), x, first);
}

std::size_t gallop_last_not_above(std::span<const std::uint64_t> prefix, double x, std::size_t from) {
  // Gallop: find a step such that prefix[from + step] > x.
  std::size_t lo = from, step = 1;
  while (lo + step < prefix.size() && static_cast<double>(prefix[lo + step]) <= x) {
    lo += step;
    step *= 2;
  }
  const std::size_t hi = std::min(prefix.size(), lo + step + 1);
  // Last position in [lo, hi) with prefix <= x (prefix[lo] <= x, so it exists).
  const auto it = std::upper_bound(prefix.begin() + static_cast<std::ptrdiff_t>(lo),
                                   prefix.begin() + static_cast<std::ptrdiff_t>(hi), x,
                                   [](double v, std::uint64_t p) { return v < static_cast<double>(p); });
  return static_cast<std::size_t>(it - prefix.begin()) - 1;
}

CountedStreams CountedStreams::requested(const ThreadIndex& index, std::uint64_t add) {
  CountedStreams s;
  s.threads_ = &index;
  s.add_ = add;
  for (std::uint32_t t = 0; t < index.thread_count(); ++t) {
    s.prefix_.push_back(index.requested_prefix(t));
    s.coarse_.push_back(index.requested_coarse(t));
  }
  return s;
}

void CountedStreams::finish_owned() {
  own_coarse_.resize(own_.size());
  for (std::size_t s = 0; s < own_.size(); ++s) {
    for (std::size_t k = 0; k < own_[s].size(); k += kStride) own_coarse_[s].push_back(own_[s][k]);
    prefix_.emplace_back(own_[s]);
    coarse_.emplace_back(own_coarse_[s]);
  }
}

namespace {

// The last i in [from, n) with p[i] + step * i <= x, galloping from `from`
// (which satisfies it).
std::size_t gallop_integer(const std::uint64_t* p, std::size_t n, std::uint64_t step_add, std::uint64_t x,
                           std::size_t from) {
  auto value = [&](std::size_t i) { return p[i] + step_add * i; };
  std::size_t lo = from, step = 1;
  while (lo + step < n && value(lo + step) <= x) {
    lo += step;
    step *= 2;
  }
  std::size_t hi = std::min(n, lo + step);  // value(hi) > x, or hi == n
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (value(mid) <= x) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

std::size_t CountedStreams::find(std::uint32_t s, std::uint64_t x, std::size_t from) const {
  const auto coarse = coarse_[s];
  const auto prefix = prefix_[s];
  const std::size_t block = gallop_integer(coarse.data(), coarse.size(), add_ * kStride, x, from / kStride);
  const std::size_t first = std::max(from, block * kStride);
  const std::size_t last = std::min(prefix.size(), (block + 1) * kStride + 1);
  // Positions are absolute, so the per-event addend applies to the fine array as is.
  return gallop_integer(prefix.data(), last, add_, x, first);
}

}  // namespace allocsim
