#include "allocsim/outputs/table_spec.h"

#include <algorithm>
#include <set>

#include "allocsim/outputs/file_stem.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

TableColumn parse_column(const JsonValue& value, const std::vector<std::string>& columns, ResultSource source) {
  TableColumn out;
  std::optional<JsonObject> object;
  JsonValue name = value;
  if (value.is_object()) {
    object = value.object();
    name = object->at("column");
  }
  out.column = name.string();
  if (std::find(columns.begin(), columns.end(), out.column) == columns.end()) {
    name.fail(printable(out.column) + " is not a column of " + file_name(source) + " (columns: " + join_names(columns) +
              ")");
  }
  out.label = out.column;
  if (object) {
    if (auto v = object->maybe("label")) out.label = v->string();
    if (auto v = object->maybe("unit")) {
      const auto unit = parse_unit(v->string());
      if (!unit) v->fail("unknown unit " + printable(v->string()) + " (known: " + unit_names() + ")");
      out.unit = *unit;
    }
    object->finish();
  }
  return out;
}

std::vector<DocumentQuantiles> parse_document(const JsonValue& value) {
  std::vector<DocumentQuantiles> rows;
  for (const JsonValue& item : value.non_empty_array()) {
    const auto cells = item.array();
    if (cells.size() != 3) item.fail("expected [samples, lower, upper]");
    rows.push_back({static_cast<std::int64_t>(cells[0].positive_uint()), cells[1].non_negative_number(),
                    cells[2].non_negative_number()});
  }
  return rows;
}

TableSpec parse_table(const JsonValue& value, const ResultColumns& files) {
  JsonObject object = value.object();
  TableSpec spec;
  spec.path = object.path();
  JsonValue name = object.at("name");
  spec.name = name.string();
  if (!is_file_stem(spec.name)) name.fail("a table name uses letters, digits, '-', '_' and '.' only");
  spec.title = object.at("title").string();
  const std::string source = object.maybe("source") ? object.at("source").string() : "metrics";
  if (source == "nb_quantiles") {
    spec.kind = TableKind::nb_quantiles;
    if (auto v = object.maybe("p")) {
      spec.p = v->probability();
      if (spec.p <= 0 || spec.p >= 1) v->fail("must be in (0, 1)");
    }
    if (auto v = object.maybe("level")) {
      spec.level = v->probability();
      if (spec.level <= 0 || spec.level >= 1) v->fail("must be in (0, 1)");
    }
    if (auto v = object.maybe("document")) spec.document = parse_document(*v);
  } else if (const auto result_source = parse_result_source(source)) {
    spec.source = *result_source;
    const std::vector<std::string>& columns = files.at(spec.source);
    if (auto v = object.maybe("where")) spec.where = parse_row_filter(*v, columns);
    for (const JsonValue& item : object.at("columns").non_empty_array()) {
      spec.columns.push_back(parse_column(item, columns, spec.source));
    }
  } else {
    object.at("source").fail("unknown source " + printable(source) +
                             " (known: metrics, intervals, profiles, nb_quantiles)");
  }
  object.finish();
  return spec;
}

}  // namespace

std::vector<TableSpec> parse_tables(const JsonValue& tables, const ResultColumns& files) {
  std::vector<TableSpec> specs;
  std::set<std::string> names;
  for (const JsonValue& item : tables.array()) {
    specs.push_back(parse_table(item, files));
    if (!names.insert(specs.back().name).second) {
      throw InputError(specs.back().path + ".name: table name " + printable(specs.back().name) + " is used twice");
    }
  }
  return specs;
}

}  // namespace allocsim
