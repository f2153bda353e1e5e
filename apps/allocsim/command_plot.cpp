// `allocsim plot RESULTS_DIR...`: redraws the charts and tables of finished runs
// from their result files and the scenario kept in summary.json, without running
// anything.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/report/figures.h"
#include "allocsim/util/parallel.h"
#include "commands.h"
#include "flag_checks.h"

namespace allocsim::cli {

void add_plot_command(CLI::App& app, int& exit_code) {
  auto directories = std::make_shared<std::vector<std::string>>();
  auto quiet = std::make_shared<bool>(false);
  auto threads = std::make_shared<unsigned>(0);
  CLI::App* command = app.add_subcommand("plot", "redraw the charts and tables of results directories");
  command->add_option("results", *directories, "results directories (results/<scenario>)")->required();
  command->add_flag("-q,--quiet", *quiet, "print nothing");
  command->add_option("-j,--threads", *threads, "charts drawn at once, a gnuplot each (default: all cores)")
      ->check(thread_count());
  command->callback([directories, quiet, threads, &exit_code] {
    // Read every directory's specs first, so a bad one stops the command before anything is drawn.
    std::vector<FigureSpecs> specs;
    for (const auto& dir : *directories) specs.push_back(figure_specs_from_summary(dir));
    for (std::size_t i = 0; i < directories->size(); ++i) {
      redraw_figures(specs[i], (*directories)[i], *threads == 0 ? default_thread_count() : *threads);
      if (!*quiet) {
        std::fprintf(stderr, "%s: %zu charts, %zu tables\n", (*directories)[i].c_str(), specs[i].charts.size(),
                     specs[i].tables.size());
      }
    }
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
