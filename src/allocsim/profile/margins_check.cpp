#include "allocsim/profile/margins_check.h"

#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <memory>

#include "allocsim/engine/replications.h"
#include "allocsim/engine/scheme_replay.h"
#include "allocsim/random/stream_purpose.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// The check's stream of a seed ("marg"); other users of a seed take others.
constexpr std::uint64_t kMarginStream = stream_of(StreamPurpose::margins_check);

class MarginReplications {
 public:
  MarginReplications(const Margins& margins, const Scheme& scheme, const Trace& trace,
                     const std::vector<std::uint32_t>& slot, const std::vector<double>& weight)
      : margins_(margins),
        trace_(trace),
        slot_(slot),
        weight_(weight),
        replay_(scheme, trace),
        value_(margins.sites.size()),
        share_(margins.options.value == MarginValue::share) {}

  MarginCheck run_block(const StreamKey& first, std::uint64_t count) {
    const std::size_t sites = margins_.sites.size();
    MarginCheck block{count, std::vector<std::uint64_t>(sites, 0), std::vector<std::uint64_t>(sites, 0), 0};
    const bool per_point = margins_.model.kind == ModelKind::poisson_bytes;
    const double scale = 1 + margins_.options.bias;
    StreamKey key = first;
    for (std::uint64_t r = 0; r < count; ++r, ++key.replication) {
      replay_.replay(key);
      std::fill(value_.begin(), value_.end(), 0.0);
      double total = 0;  // the whole profile's bytes, for shares
      for (const Observation& o : replay_.observations()) {
        // Per-allocation models count a sampled allocation once; the byte-rate model
        // counts its sample points.
        const double value = weight_[o.event] * (per_point ? o.samples : 1.0);
        total += value;
        const std::uint32_t s = slot_[trace_.stack[o.event]];
        if (s != kNoSite) value_[s] += value;
      }
      bool failed = false;
      for (std::size_t s = 0; s < sites; ++s) {
        const SiteMargin& m = margins_.sites[s];
        double value = value_[s], biased = scale * value_[s];
        if (share_) {  // a biased site changes the total too
          value = total > 0 ? value / total : 0;
          biased = biased > 0 ? biased / (biased + total - value_[s]) : 0;
        }
        const bool out = value < m.lower || value > m.upper;
        block.failures[s] += out;
        block.detections[s] += biased < m.lower || biased > m.upper;
        failed = failed || out;
      }
      block.any_failure += failed;
    }
    return block;
  }

 private:
  const Margins& margins_;
  const Trace& trace_;
  const std::vector<std::uint32_t>& slot_;
  const std::vector<double>& weight_;
  SchemeReplay replay_;
  std::vector<double> value_;
  bool share_;
};

}  // namespace

void MarginCheck::merge(const MarginCheck& block) {
  replications += block.replications;
  failures.resize(block.failures.size());
  detections.resize(block.detections.size());
  for (std::size_t s = 0; s < block.failures.size(); ++s) {
    failures[s] += block.failures[s];
    detections[s] += block.detections[s];
  }
  any_failure += block.any_failure;
}

MarginCheck check_margins(const Margins& margins, const Scheme& scheme, const Trace& trace, std::uint64_t replications,
                          std::uint64_t seed, unsigned threads) {
  if (replications < 1) throw InputError("--check must be >= 1");
  std::vector<std::uint32_t> slot(trace.stack_count, kNoSite);
  for (std::uint32_t s = 0; s < margins.sites.size(); ++s) slot.at(margins.sites[s].site.stack) = s;
  std::vector<double> weight(trace.size());
  for (std::size_t i = 0; i < trace.size(); ++i) {
    weight[i] =
        sample_weight(margins.model, margins.options.value, static_cast<double>(scheme.allocated_size(trace, i)));
  }
  const ReplicationRange range{{seed, kMarginStream, 0}, replications};
  return run_replications<MarginCheck>(
      range, [&] { return std::make_unique<MarginReplications>(margins, scheme, trace, slot, weight); },
      {threads, {}, {}});
}

CheckBound check_bound(const MarginCheck& check, double false_failure) {
  const boost::math::binomial_distribution<> failures(static_cast<double>(check.replications), false_failure);
  // P(failures >= k), for k >= 1.
  const auto at_least = [&](double k) { return boost::math::cdf(boost::math::complement(failures, k - 1)); };
  // The quantile lands within a count or two of the answer; the loops settle it.
  double k = std::floor(boost::math::quantile(boost::math::complement(failures, kCheckFalseAlarm)));
  while (k > 0 && at_least(k) <= kCheckFalseAlarm) --k;
  while (k < static_cast<double>(check.replications) && at_least(k + 1) > kCheckFalseAlarm) ++k;
  const auto allowed = static_cast<std::uint64_t>(k);
  return {allowed, check.any_failure <= allowed};
}

void fill_power_from_check(Margins& margins, const MarginCheck& check) {
  for (std::size_t s = 0; s < margins.sites.size(); ++s) {
    SiteMargin& margin = margins.sites[s];
    if (margin.power) continue;
    margin.power = static_cast<double>(check.detections[s]) / static_cast<double>(check.replications);
    margin.power_method = "by the engine, " + std::to_string(check.replications) + " replications";
  }
}

}  // namespace allocsim::profile
