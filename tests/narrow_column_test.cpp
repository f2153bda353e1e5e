// Trace columns: narrow storage with an exact escape for wide values, and owned
// versus viewed storage.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <type_traits>
#include <vector>

#include "allocsim/trace/narrow_column.h"

namespace allocsim {
namespace {

constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();

TEST(NarrowColumn, EveryValueComesBackExactly) {
  const std::vector<std::uint64_t> values = {
      0, 1, 0xFFFF'FFFEu, 0xFFFF'FFFFu, 7, 0x1'0000'0000, kMax64, std::uint64_t{1} << 62, 12};
  const SizeColumn column(values);
  ASSERT_EQ(column.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(column[i], values[i]) << "event " << i;
  EXPECT_EQ(std::vector<std::uint64_t>(column.begin(), column.end()), values) << "iteration decodes too";
  EXPECT_EQ(column.wide().size(), 4u) << "2^32 - 1, 2^32, 2^64 - 1 and 2^62 escape; 2^32 - 2 does not";
  EXPECT_EQ(column.codes()[2], 0xFFFF'FFFEu);
  EXPECT_EQ(column.codes()[3], SizeColumn::kEscape);
  EXPECT_TRUE(column.wide_table_problem().empty());
}

TEST(NarrowColumn, ThreadIdsEscapeFrom65535) {
  const ThreadColumn column({65534, 65535, 1u << 20, 3});
  EXPECT_EQ(column[0], 65534u);
  EXPECT_EQ(column[1], 65535u);
  EXPECT_EQ(column[2], 1u << 20);
  EXPECT_EQ(column[3], 3u);
  EXPECT_EQ(column.wide().size(), 2u);
  EXPECT_EQ(sizeof(column.codes()[0]), 2u);
}

// read_unescaped hands a loop the bare codes only when every code is its value, and
// either way the loop reads the column's values.
TEST(NarrowColumn, BareCodesOnlyWhenNothingEscaped) {
  std::vector<std::uint64_t> values = {0, 5, 0xFFFF'FFFEu, 12};
  SizeColumn column(values);
  ASSERT_NE(column.unescaped(), nullptr);
  EXPECT_EQ(column.unescaped(), column.codes().data());
  auto read_all = [&](const SizeColumn& c, bool expect_bare) {
    std::vector<std::uint64_t> read;
    read_unescaped(c, [&](const auto& reads) {
      EXPECT_EQ(std::is_pointer_v<std::decay_t<decltype(reads)>>, expect_bare);
      for (std::size_t i = 0; i < c.size(); ++i) read.push_back(reads[i]);
    });
    return read;
  };
  EXPECT_EQ(read_all(column, true), values);
  column.push_back(std::uint64_t{5} << 30);  // 5 GiB escapes
  values.push_back(std::uint64_t{5} << 30);
  EXPECT_EQ(column.unescaped(), nullptr);
  EXPECT_EQ(read_all(column, false), values);
  EXPECT_EQ(SizeColumn().unescaped(), nullptr) << "an empty column has no codes to hand out";
}

TEST(NarrowColumn, ResizeAndAssignKeepTheWideTableInStep) {
  SizeColumn column({5, kMax64, 6, kMax64 - 1});
  column.resize(2);
  EXPECT_EQ(column.wide().size(), 1u) << "the escape of event 3 went with it";
  column.resize(4);
  EXPECT_EQ(column[3], 0u);
  EXPECT_EQ(column[1], kMax64);
  EXPECT_TRUE(column.wide_table_problem().empty());
  column.assign(3, kMax64);
  EXPECT_EQ(column.wide().size(), 3u);
  EXPECT_EQ(column[2], kMax64);
  column.clear();
  EXPECT_TRUE(column.empty());
  EXPECT_TRUE(column.wide().empty());
}

// A table that does not match the codes is reported, not followed.
TEST(NarrowColumn, InconsistentTablesAreNamed) {
  const Column<std::uint32_t> codes({1, SizeColumn::kEscape, 2});
  EXPECT_EQ(SizeColumn(codes, {}).wide_table_problem(), "1 escaped values but 0 in the wide table");
  EXPECT_EQ(SizeColumn(codes, Column<WideValue>({{0, kMax64}})).wide_table_problem(),
            "wide table entry 0 is out of order or names an event that is not escaped");
  EXPECT_EQ(SizeColumn(codes, Column<WideValue>({{1, 9}})).wide_table_problem(),
            "wide table entry 0 holds 9, not a value that needs the escape");
  EXPECT_EQ(ThreadColumn(Column<std::uint16_t>({ThreadColumn::kEscape}), Column<WideValue>({{0, kMax64}}))
                .wide_table_problem(),
            "wide table entry 0 holds 18446744073709551615, not a value that needs the escape")
      << "a thread id must fit 32 bits";
}

TEST(Column, AViewReadsTheSameAndCopiesOnChange) {
  auto storage = std::make_shared<std::vector<std::uint64_t>>(1000);
  std::iota(storage->begin(), storage->end(), std::uint64_t{7});
  Column<std::uint64_t> view = Column<std::uint64_t>::view(storage, storage->data(), storage->size());
  EXPECT_TRUE(view.mapped());
  EXPECT_EQ(view.data(), storage->data()) << "no copy";
  EXPECT_EQ(view, Column<std::uint64_t>(*storage));
  EXPECT_EQ(view.back(), 1006u);

  Column<std::uint64_t> changed = view;
  EXPECT_EQ(changed.data(), storage->data()) << "copies share the view";
  changed.push_back(5);
  EXPECT_FALSE(changed.mapped());
  EXPECT_NE(changed.data(), storage->data());
  EXPECT_EQ(changed.size(), 1001u);
  EXPECT_EQ(changed[999], 1006u);
  EXPECT_EQ((*storage)[999], 1006u) << "the viewed storage is never written";

  Column<std::uint64_t> moved = std::move(view);
  EXPECT_EQ(moved.data(), storage->data());
  storage.reset();
  EXPECT_EQ(moved[0], 7u) << "the view keeps its storage alive";
}

}  // namespace
}  // namespace allocsim
