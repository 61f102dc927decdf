// The dataset model's rules, serially: segment order, finding segments,
// variables and names, segment group names, pieces, even splits, section
// shapes, and the file modes (layouts, members of segments, name patterns).
#include "dataset/model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pario::dataset {
namespace {

const SegmentKind T = SegmentKind::kTopology, S = SegmentKind::kState;

TEST(SegmentOrder, TopologyAndStateShareATimeIndexTopologyFirst) {
  std::vector<SegmentRecord> s;
  EXPECT_TRUE(check_append(s, T, 0, 0.0).ok());
  s.push_back({T, 0, 0.0});
  EXPECT_TRUE(check_append(s, S, 0, 0.0).ok());
  s.push_back({S, 0, 0.0});
  EXPECT_TRUE(check_append(s, S, 1, 0.5).ok());
  EXPECT_TRUE(check_append(s, T, 1, 0.5).ok());  // a new topology at a later index
  EXPECT_TRUE(check_order(s).ok());
}

TEST(SegmentOrder, RefusesTwoOfOneKindEarlierIndicesAndTimes) {
  std::vector<SegmentRecord> s{{T, 3, 1.0}, {S, 3, 1.0}};
  Status twice = check_append(s, S, 3, 1.0);
  EXPECT_EQ(twice.code(), Code::kInvalidArgument);
  EXPECT_NE(twice.message().find("a second state segment"), std::string::npos) << twice.message();
  EXPECT_NE(twice.message().find("after state segment 1"), std::string::npos) << twice.message();
  EXPECT_EQ(check_append(s, T, 3, 1.0).code(), Code::kInvalidArgument);  // topology after its state
  EXPECT_EQ(check_append(s, S, 2, 2.0).code(), Code::kInvalidArgument);  // earlier index
  EXPECT_EQ(check_append(s, S, 4, 0.5).code(), Code::kInvalidArgument);  // earlier time
  EXPECT_EQ(check_append(s, S, 4, std::nan("")).code(), Code::kInvalidArgument);
  EXPECT_EQ(check_append({}, S, 0, INFINITY).code(), Code::kInvalidArgument);
  EXPECT_TRUE(check_append(s, S, 4, 1.0).ok());  // an equal time at a later index
  std::vector<SegmentRecord> bad{{S, 1, 0.0}, {S, 0, 0.0}};
  EXPECT_EQ(check_order(bad).code(), Code::kCorrupt);
}

TEST(SegmentFind, ByIndexAndByTime) {
  std::vector<SegmentRecord> s{{T, 0, 0.0}, {S, 0, 0.0}, {S, 1, 0.5}, {T, 2, 1.0}, {S, 2, 1.0}};
  EXPECT_EQ(find_by_index(s, std::nullopt, 0), 0);
  EXPECT_EQ(find_by_index(s, S, 0), 1);
  EXPECT_EQ(find_by_index(s, T, 1), std::nullopt);
  EXPECT_EQ(find_by_time(s, S, 0.7), 2);
  EXPECT_EQ(find_by_time(s, T, 0.7), 0);
  EXPECT_EQ(find_by_time(s, std::nullopt, 1.0), 4);
  EXPECT_EQ(find_by_time(s, S, -1.0), std::nullopt);
}

TEST(Variables, ItemKindsDimsAndWordTypes) {
  const int64_t three[1] = {3}, two_by_four[2] = {2, 4};
  Result<VariableRecord> v = make_variable("velocity", 1, three, 2);
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(v->words_per_item(), 3);
  EXPECT_EQ(v->item_dims[1], 1);
  Result<VariableRecord> t = make_variable("stress", 2, two_by_four, 1);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->words_per_item(), 8);
  EXPECT_TRUE(make_variable("rho", 0, nullptr, 1).ok());
  EXPECT_EQ(make_variable("v", 1, nullptr, 1).status().code(), Code::kInvalidArgument);
  const int64_t zero[1] = {0}, huge[2] = {1 << 20, 2};
  EXPECT_EQ(make_variable("v", 1, zero, 1).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(make_variable("v", 2, huge, 1).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(make_variable("v", 3, three, 1).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(make_variable("v", 0, nullptr, 99).status().code(), Code::kInvalidArgument);
}

TEST(Names, RefuseSlashesReservedAndEmpty) {
  EXPECT_TRUE(check_name("energy", "info name").ok());
  for (const char* bad : {"", "a/b", ".", "..", "pario_kind"}) {
    EXPECT_EQ(check_name(bad, "info name").code(), Code::kInvalidArgument) << bad;
  }
  EXPECT_EQ(check_name(std::string(256, 'x'), "n").code(), Code::kInvalidArgument);
  EXPECT_EQ(check_name(std::string("a\0b", 3), "n").code(), Code::kInvalidArgument);
}

TEST(Paths, SegmentNamesAreZeroPaddedPositions) {
  EXPECT_EQ(segment_path(3), "/segments/00000003");
  EXPECT_EQ(section_path(12, "rho"), "/segments/00000012/rho");
  EXPECT_EQ(parse_segment_name("00000003"), 3);
  EXPECT_EQ(parse_segment_name("123456789"), 123456789);
  for (const char* bad : {"3", "0000003", "000000003", "0000000x", "-0000003", ""}) {
    EXPECT_EQ(parse_segment_name(bad), std::nullopt) << bad;
  }
}

TEST(Pieces, StartsSumMaxAndBadCounts) {
  Result<Pieces> p = pieces_of({2, 0, 5, 1}, Code::kCorrupt);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->starts, (std::vector<int64_t>{0, 2, 2, 7, 8}));
  EXPECT_EQ(p->sum, 8);
  EXPECT_EQ(p->max, 5);
  EXPECT_EQ(pieces_of({1, -1}, Code::kCorrupt).status().code(), Code::kCorrupt);
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(pieces_of({big, 1}, Code::kInvalidArgument).status().code(), Code::kInvalidArgument);
}

TEST(EvenSplit, CoversEveryItemOnce) {
  for (int parts = 1; parts <= 5; ++parts) {
    int64_t next = 0;
    for (int part = 0; part < parts; ++part) {
      auto [start, count] = even_split(11, parts, part);
      EXPECT_EQ(start, next);
      EXPECT_GE(count, 11 / parts);
      next = start + count;
    }
    EXPECT_EQ(next, 11);
  }
}

TEST(SectionShape, KeepsABlocksShapeOfWholeItems) {
  const int64_t three[1] = {3};
  VariableRecord scalar = *make_variable("s", 0, nullptr, 1);
  VariableRecord vec = *make_variable("v", 1, three, 1);
  Shape grid{6, 10};
  auto a = section_shape(scalar, 60, 2, grid);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->first, 2);
  EXPECT_EQ(a->second[1], 10);
  Shape n3{20, 3};
  auto b = section_shape(vec, 60, 2, n3);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->first, 2);
  auto c = section_shape(vec, 60, 2, grid);  // a grid whose last dim is no item: [20, 3]
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->first, 2);
  EXPECT_EQ(c->second[0], 20);
  EXPECT_EQ(c->second[1], 3);
  auto d = section_shape(vec, 61, 0, Shape{});
  EXPECT_EQ(d.status().code(), Code::kInvalidArgument);
}

TEST(FileModes, LayoutsFromTheCApiValues) {
  auto one = make_layout(0, 0);
  ASSERT_TRUE(one.ok());
  EXPECT_FALSE(one->multi_file());
  auto step = make_layout(1, 0);
  ASSERT_TRUE(step.ok());
  EXPECT_EQ(step->steps_per_file, 1);
  auto n = make_layout(2, 3);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->mode, FilesMode::kStepsPerFile);
  EXPECT_EQ(make_layout(0, 2).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(make_layout(1, 2).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(make_layout(2, 0).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(make_layout(2, -1).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(make_layout(3, 0).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(make_layout(2, 0, Code::kCorrupt).status().code(), Code::kCorrupt);
  EXPECT_EQ(parse_file_mode(file_mode_name(FilesMode::kStepsPerFile)), FilesMode::kStepsPerFile);
  EXPECT_FALSE(parse_file_mode("two_files"));
}

TEST(FileModes, MembersByTimeGroupTopologyAndStateShareOne) {
  // Time indices 0 (topology and state), 1, 2, 5, 9: five time groups.
  std::vector<SegmentRecord> s{{T, 0, 0.0}, {S, 0, 0.0}, {S, 1, 1.0}, {S, 2, 2.0}, {S, 5, 3.0}, {S, 9, 4.0}};
  const FileLayout step{FilesMode::kFilePerStep, 1}, two{FilesMode::kStepsPerFile, 2};
  EXPECT_EQ(members_of(s, step), (std::vector<int64_t>{0, 0, 1, 2, 3, 4}));
  EXPECT_EQ(members_of(s, two), (std::vector<int64_t>{0, 0, 0, 1, 1, 2}));
  EXPECT_TRUE(members_of(s, FileLayout{}).empty());
  EXPECT_EQ(member_of_next(s, 10, step), 5);
  EXPECT_EQ(member_of_next(s, 9, step), 4);  // the last time index again: its group
  EXPECT_EQ(member_of_next(s, 10, two), 2);
  EXPECT_EQ(member_of_next(s, 11, FileLayout{FilesMode::kStepsPerFile, 3}), 1);  // group 5 of 0..5
  EXPECT_EQ(member_of_next({}, 4, two), 0);
}

TEST(FileModes, MemberNamesAndPatternsReadBack) {
  EXPECT_EQ(member_pattern("out/run.h5"), "run.%06d.h5");
  EXPECT_EQ(member_pattern("run"), "run.%06d.h5");
  EXPECT_EQ(member_pattern("a/100%.h5"), "100%%.%06d.h5");
  EXPECT_EQ(member_path("out/run.h5", "run.%06d.h5", 3), "out/run.000003.h5");
  EXPECT_EQ(member_path("run.h5", "run.%06d.h5", 1234567), "run.1234567.h5");
  EXPECT_EQ(member_path("a/100%.h5", "100%%.%06d.h5", 2), "a/100%.000002.h5");
  EXPECT_TRUE(check_member_pattern("run.%06d.h5").ok());
  EXPECT_TRUE(check_member_pattern("100%%.%06d.h5").ok());
  for (const char* bad : {"run.%d.h5", "../x.%06d.h5", "%s.%06d.h5", ".%06d.h5", "run.h5", ""}) {
    EXPECT_EQ(check_member_pattern(bad).code(), Code::kCorrupt) << bad;
  }
}

TEST(FileModes, MemberNumbersOfFileNames) {
  EXPECT_EQ(member_number("run.%06d.h5", "run.000003.h5"), std::optional<int64_t>(3));
  EXPECT_EQ(member_number("run.%06d.h5", "run.1234567.h5"), std::optional<int64_t>(1234567));
  EXPECT_EQ(member_number("100%%.%06d.h5", "100%.000002.h5"), std::optional<int64_t>(2));
  // A '%06d' in the entry's own name is literal (escaped), not the number.
  EXPECT_EQ(member_number("a%%06d.%06d.h5", "a%06d.000007.h5"), std::optional<int64_t>(7));
  for (const char* other : {"run.h5", "run.00003.h5", "run.0000003.h5", "run.00000x.h5", "run.000003.h5.tmp",
                            "xrun.000003.h5", "run.-00003.h5", "run.000000000000000000001.h5", "sub/run.000003.h5",
                            "a%06d.000007.h5"}) {
    EXPECT_EQ(member_number("run.%06d.h5", other), std::nullopt) << other;
  }
  for (int64_t k : {int64_t{0}, int64_t{41}, int64_t{999999}, int64_t{1000000}}) {
    const std::string path = member_path("d/run.h5", "run.%06d.h5", k);
    EXPECT_EQ(member_number("run.%06d.h5", path.substr(2)), std::optional<int64_t>(k));
  }
}

}  // namespace
}  // namespace pario::dataset
