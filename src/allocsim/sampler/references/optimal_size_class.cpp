#include "allocsim/sampler/references/optimal_size_class.h"

#include <cmath>

#include "allocsim/estimate/wald_interval.h"
#include "allocsim/sampler/parked_sizes.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/sampler_runs.h"
#include "allocsim/sampler/systems/jemalloc/jemalloc_size_classes.h"

namespace allocsim {

std::uint64_t class_size(SizeClassTable table, std::uint64_t requested) {
  return table == SizeClassTable::jemalloc ? jemalloc_usable_size(requested) : requested;
}

OptimalSizeClassPlan plan_optimal_size_class(const Trace& trace, const OptimalSizeClassConfig& config) {
  OptimalSizeClassPlan plan;
  plan.measured.resize(trace.size());
  for (std::size_t i = 0; i < trace.size(); ++i) plan.measured[i] = class_size(config.classes, trace.requested[i]);
  const std::vector<double> weights = objective_weights(trace, plan.measured, config.objective, config.stacks);
  plan.demand = size_class_demand(plan.measured, weights);
  plan.design = solve_optimal_design(plan.demand.cost, plan.demand.allocations, config.samples);
  plan.probability.resize(trace.size());
  for (std::size_t i = 0; i < trace.size(); ++i) plan.probability[i] = plan.design.probability[plan.demand.class_of[i]];
  return plan;
}

namespace {

class OptimalSizeClassScheme final : public Scheme {
 public:
  enum Register : std::size_t { kBytes, kBytesVariance, kRegisters };

  explicit OptimalSizeClassScheme(const OptimalSizeClassConfig& config) : config_(config) {}

  const std::vector<EstimatorSpec>& estimators() const override {
    static const std::vector<EstimatorSpec> specs = {
        {"bytes", Quantity::allocated_bytes, "Z / p_Z per sampled allocation (Horvitz-Thompson)", 2},
    };
    return specs;
  }

  const std::vector<IntervalSpec>& intervals() const override {
    static const std::vector<IntervalSpec> specs = {
        {"wald", 0, "normal approximation, Horvitz-Thompson variance estimate (1 - p_Z) (Z / p_Z)^2"},
    };
    return specs;
  }

  Interval interval(std::size_t /*interval*/, std::span<const double> registers, double level) const override {
    return wald_interval(registers[0], registers[1], level);
  }

  // The design solved for this trace once, shared by the runs.
  std::shared_ptr<const PreparedScheme> prepare_streaming(const Trace& trace) const override {
    auto plan = std::make_shared<const OptimalSizeClassPlan>(plan_optimal_size_class(trace, config_));
    return streaming_runs([&trace, plan] {
      return std::make_unique<SamplerRun<OptimalSizeClassSampler>>(trace, OptimalSizeClassSampler(plan));
    });
  }

  // Registers: the weight w = Z/p and w^2 (1 - p) = w (w - Z), whose mean is the
  // variance Z^2 (1 - p)/p.
  void weigh(const Trace& trace, std::span<const Observation> observations, std::span<double> out) const override {
    const RegisterRows<kRegisters> rows(out, observations.size());
    park_requested_sizes(trace, observations, rows, kBytesVariance);
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const double w = observations[o].weight;
      const double z = static_cast<double>(class_size(config_.classes, parked_size(rows[o], kBytesVariance)));
      rows[o][kBytes] = w;
      rows[o][kBytesVariance] = w * (w - z);
    }
  }

  std::uint64_t allocated_size(const Trace& trace, std::size_t i) const override {
    return class_size(config_.classes, trace.requested[i]);
  }

  // Z/p taken with probability p: unbiased, variance Z^2 (1 - p)/p. A class the
  // objective ignores (p = 0) is never sampled: its bytes are missed (bias -Z).
  EstimatorTheory theory(std::size_t) const override {
    return {[this](const Trace& trace, const EstimatorTheory::BlockVisitor& visit) {
              const OptimalSizeClassPlan plan = plan_optimal_size_class(trace, config_);
              visit_in_blocks(
                  trace.size(), [&](std::size_t i) { return theory_of(plan, i); }, visit);
            },
            {}};
  }

 private:
  static AllocationTheory theory_of(const OptimalSizeClassPlan& plan, std::size_t i) {
    const double p = plan.probability[i];
    const double z = static_cast<double>(plan.measured[i]);
    if (p <= 0) return {-z, 0.0, 0.0};
    return {0.0, z * z * (1 - p) / p, std::log1p(-p)};
  }

  OptimalSizeClassConfig config_;
};

}  // namespace

SchemeDescriptor optimal_size_class_scheme() {
  return {
      .name = "optimal-size-class",
      .summary = "Each allocation sampled independently with its size class's p_Z, the design that "
                 "minimises the objective's variance on the replayed trace at the given expected "
                 "samples; weight Z/p_Z.",
      .source = "the optimal sampling question of jemalloc doc_internal/PROFILING_INTERNALS.md "
                "(last section): "
                "minimise sum_Z c_Z (1-p_Z)/p_Z subject to sum_Z a_Z p_Z <= P",
      .parameters = {{"samples", "number", 100, "P: expected samples over the whole trace (> 0)"},
                     {"objective", "string", "allocated",
                      "allocated (bytes over the run), live (live bytes at the end) or stack (sum "
                      "of the squared relative errors of each stack's bytes and, weighted, the total's)"},
                     {"classes", "string", "exact",
                      "exact (each requested size a class; requested bytes) or jemalloc (jemalloc's "
                      "size classes; usable bytes)"},
                     {"stack_share", "number", 0,
                      "the stack objective counts only stacks holding >= this fraction of the bytes "
                      "(in [0, 1))"},
                     {"total_weight", "number", 1,
                      "the stack objective's weight on the total's squared relative error (> 0)"}},
      .variants = {"An ideal reference, not a real system: it needs the trace's size and lifetime "
                   "mix in advance."},
      .create = [](SchemeParameters& params) -> std::unique_ptr<Scheme> {
        OptimalSizeClassConfig config;
        config.samples = params["samples"].positive_number();
        const JsonValue objective = params["objective"];
        const auto parsed = parse_design_objective(objective.string());
        if (!parsed) objective.fail("must be allocated, live or stack");
        config.objective = *parsed;
        const JsonValue classes = params["classes"];
        if (classes.string() != "exact" && classes.string() != "jemalloc") classes.fail("must be exact or jemalloc");
        config.classes = classes.string() == "jemalloc" ? SizeClassTable::jemalloc : SizeClassTable::exact;
        const JsonValue share = params["stack_share"];
        config.stacks.share = share.probability();
        if (config.stacks.share >= 1) share.fail("must be < 1");
        config.stacks.total_weight = params["total_weight"].positive_number();
        return std::make_unique<OptimalSizeClassScheme>(config);
      },
      // Advised as the design for as many expected samples as a sampler with a mean
      // interval of `interval` bytes takes over the trace, for the allocated bytes or,
      // given stack targets, for the stacks.
      .advice =
          AdviceRule{.parameters =
                         [](double interval, double trace_bytes, const std::optional<StackObjective>& stacks) {
                           if (!stacks) {
                             return nlohmann::json{{"samples", trace_bytes / interval}, {"objective", "allocated"}};
                           }
                           return nlohmann::json{{"samples", trace_bytes / interval},
                                                 {"objective", "stack"},
                                                 {"stack_share", stacks->share},
                                                 {"total_weight", stacks->total_weight}};
                         },
                     .designed_from_trace = true},
  };
}

}  // namespace allocsim
