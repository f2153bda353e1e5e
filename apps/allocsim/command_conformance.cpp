// `allocsim conformance SYSTEM [--runs K] [--rate R]`: drives a real allocator's
// sampler K times and checks allocsim's model of it site by site. Exit 0 when every
// test passes, 1 when one fails, 2 on bad input or a driver that cannot be built or run.
// With --simulate N: runs the driver once (for what the model takes from it), then N
// verdicts on driver outputs drawn from the model (verdict_simulation.h) and prints how
// many failed; exit 0, nothing written.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "allocsim/conformance/conformance_report.h"
#include "allocsim/conformance/conformance_run.h"
#include "allocsim/conformance/verdict_simulation.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/parallel.h"
#include "commands.h"
#include "data_paths.h"
#include "flag_checks.h"

namespace allocsim::cli {
namespace {

// The plan's marker site keeps 20 blocks of `rate` bytes live in each driver
// (conformance/plan.cpp): at 1 GiB that is 20 GiB already.
constexpr std::uint64_t kMaxConformanceRate = std::uint64_t{1} << 30;

}  // namespace

void add_conformance_command(CLI::App& app, int& exit_code) {
  struct Options {
    ConformanceOptions run;
    std::string out;
    bool no_chart = false;
    std::uint64_t simulate = 0;
    std::string truth = "model";
  };
  auto options = std::make_shared<Options>();
  const DataPaths paths = data_paths();
  options->run.source_dir = paths.source_dir;
  options->run.build_dir = paths.build_dir;
  options->run.threads = default_thread_count();
  CLI::App* command = app.add_subcommand("conformance", "check a model against the real allocator's sampler");
  std::string systems;
  for (const auto& s : conformance_systems()) systems += (systems.empty() ? "" : ", ") + s.name;
  command->add_option("system", options->run.system, "the real system: " + systems)->required();
  command->add_option("--runs", options->run.runs, "driver processes (independent repetitions)")
      ->capture_default_str()
      ->check(whole_number(kMinReplications, kMaxReplications));
  command
      ->add_option_function<std::uint64_t>(
          "--rate", [options](std::uint64_t rate) { options->run.rate = rate; },
          "sampling rate in bytes: 524288, 512KiB (default: the system's)")
      ->transform(whole_byte_count(0, kMaxConformanceRate));  // below 2: conformance_plan says why
  command->add_option("--scale", options->run.plan_scale, "multiply the plan's allocation counts")
      ->capture_default_str()
      ->check(positive_number());
  command->add_option("--alpha", options->run.alpha, "family-wise false-alarm rate of the verdict")
      ->capture_default_str()
      ->transform(probability({1e-12, 0.5}));
  command->add_option("--jobs", options->run.parallel, "driver processes at a time")
      ->capture_default_str()
      ->check(whole_number(1, 4096));
  command
      ->add_option("--model-replications", options->run.model_replications,
                   "Monte Carlo replications where the model has no closed form")
      ->capture_default_str()
      ->check(whole_number(kMinReplications, kMaxReplications));
  command
      ->add_option(
          "-j,--threads", options->run.threads,
          "worker threads of the model's Monte Carlo and of --simulate's verdicts (default: all cores; results do not "
          "depend on it)")
      ->check(thread_count());
  command->add_option("--out", options->out, "results directory (default: results/conformance/SYSTEM)");
  command->add_option("--source-dir", options->run.source_dir, "repository root holding conformance/")
      ->capture_default_str();
  command->add_option("--build-dir", options->run.build_dir, "where drivers are built")->capture_default_str();
  command->add_flag("--no-charts,--no-chart", options->no_chart, "skip the gnuplot chart");
  command
      ->add_option("--simulate", options->simulate,
                   "judge N simulated conformance runs drawn from the model instead (false alarms, power)")
      ->check(whole_number(0, kMaxReplications));
  command
      ->add_option("--simulate-truth", options->truth,
                   "what the simulated tool does: model, requested-size or per-stack-scaling")
      ->capture_default_str();
  command->callback([options, &exit_code] {
    if (options->simulate > 0) {
      const SimulatedTruth truth = parse_simulated_truth(options->truth);
      ConformanceModel model = conformance_plan(options->run);
      std::vector<std::string> names;
      const DriverRun first = run_driver_processes(options->run, model, 1, names).front();
      fit_conformance_model(model, first, names.front());
      simulated_driver_runs(model, first, truth, 1, options->run.seed, 0);  // InputError before the long part
      const VerdictSimulation v = simulate_verdicts(model, first, truth, options->simulate, options->run.runs,
                                                    options->run.alpha, options->run.seed, options->run.threads);
      std::printf("%s, truth %s: %llu of %llu simulated verdicts failed (%llu runs each, alpha %g)\n",
                  options->run.system.c_str(), options->truth.c_str(), static_cast<unsigned long long>(v.failed),
                  static_cast<unsigned long long>(v.verdicts), static_cast<unsigned long long>(options->run.runs),
                  options->run.alpha);
      for (const auto& [test, times] : v.failed_tests) {
        std::printf("  %s: failed in %llu\n", test.c_str(), static_cast<unsigned long long>(times));
      }
      exit_code = 0;
      return;
    }
    const std::string out = options->out.empty()
                                ? (std::filesystem::path("results") / "conformance" / options->run.system).string()
                                : options->out;
    // Flag values first (conformance_plan checks them), then an --out that cannot be
    // written: both fail before the drivers run, not after.
    conformance_plan(options->run);
    check_results_directory(out, {}, "--out");
    const ConformanceResult result = run_conformance(options->run);
    write_conformance_results(result, options->run, out, !options->no_chart);
    std::fputs(verdict_table(result).c_str(), stdout);
    std::printf("results: %s\n", out.c_str());
    exit_code = result.passed ? 0 : 1;
  });
}

}  // namespace allocsim::cli
