#include "allocsim/report/gnuplot_chart.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "allocsim/report/chart_data.h"
#include "allocsim/report/gnuplot_runner.h"
#include "allocsim/report/gnuplot_script.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

namespace fs = std::filesystem;

// Moves a finished temporary output over its final name; a missing or empty one
// means gnuplot wrote nothing.
void publish(const fs::path& temporary, const fs::path& target) {
  std::error_code ec;
  const auto size = fs::file_size(temporary, ec);
  if (ec || size == 0) {
    fs::remove(temporary, ec);
    throw InputError(target.string() + ": gnuplot wrote no output");
  }
  fs::rename(temporary, target, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw InputError(target.string() + ": cannot rename temporary file: " + ec.message());
  }
}

}  // namespace

ChartFiles render_chart(const ChartSpec& spec, const CsvTable& table, const std::string& results_dir,
                        const std::string& source, const std::string& out_dir) {
  const fs::path dir = fs::path(out_dir) / "charts";
  const ChartData data = chart_data(spec, table, (fs::path(results_dir) / source).string());

  ChartFiles files;
  files.data = (dir / (spec.name + ".dat")).string();
  files.script = (dir / (spec.name + ".gp")).string();
  files.png = (dir / (spec.name + ".png")).string();
  files.svg = (dir / (spec.name + ".svg")).string();
  create_output_directory(dir.string());
  write_file_atomically(files.data, gnuplot_data(data));
  write_file_atomically(files.script, gnuplot_script(spec, data, spec.name + ".dat", "../" + source));

  const std::string suffix = std::string(".") + std::to_string(::getpid()) + ".tmp";
  const std::string png_tmp = spec.name + ".png" + suffix;
  const std::string svg_tmp = spec.name + ".svg" + suffix;
  const std::string preamble =
      "png_file = " + gnuplot_quote(png_tmp, false) + "; svg_file = " + gnuplot_quote(svg_tmp, false);
  try {
    run_gnuplot(dir.string(), preamble, spec.name + ".gp");
    publish(dir / png_tmp, files.png);
    publish(dir / svg_tmp, files.svg);
  } catch (...) {
    std::error_code ec;
    fs::remove(dir / png_tmp, ec);
    fs::remove(dir / svg_tmp, ec);
    throw;
  }
  return files;
}

}  // namespace allocsim
