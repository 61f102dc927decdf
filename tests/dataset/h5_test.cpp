// Parallel HDF5 datasets (dataset/h5.h) as targets of the collective engine
// (dataset/target.h), at 1, 2 and 4 ranks: a file with 3-D datasets written
// through collective::Transfer with block and random-index decompositions,
// read back through the engine with the other decomposition, every element
// type's dataset reopened with its type and shape read back, and bad input
// failing on every rank. The file (argv[1]) is kept: h5_check.py then reads
// it with h5py and checks every value (the formulas are the same there).
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "collective/decomposition.h"
#include "collective/transfer.h"
#include "comm/group.h"
#include "dataset/h5.h"
#include "dataset/target.h"
#include "mpi_main.h"

namespace pario::dataset {
namespace {

std::string g_path;  // the file the tests write (argv[1])

const Shape kDims{6, 10, 9};
constexpr int64_t kElements = 6 * 10 * 9;

std::shared_ptr<comm::Group> world_group() {
  const char* rpn = std::getenv("PARIO_RANKS_PER_NODE");
  auto g = comm::Group::create(MPI_COMM_WORLD, rpn ? std::atoi(rpn) : 0);
  EXPECT_TRUE(g.ok());
  return *g;
}

collective::CollectiveOptions small_rounds(const comm::Group& g) {
  collective::CollectiveOptions o;
  o.buffer_bytes = 256;  // many rounds, many partial rows per round
  o.aggregators = g.size() > 1 ? 2 : 1;
  return o;
}

// Block decomposition: half rows of dims 0 and 1 (each 5 x 9), dealt round
// robin; this rank's global indices in memory order.
std::vector<int64_t> block_indices(const comm::Group& g, std::vector<Box>* blocks) {
  std::vector<int64_t> idx;
  for (int64_t c = 0; c < kDims[0] * 2; ++c) {
    if (c % g.size() != g.rank()) continue;
    Box b;
    b.ndim = 3;
    b.start = {c / 2, (c % 2) * 5, 0};
    b.count = {1, 5, kDims[2]};
    blocks->push_back(b);
    for_each_index(b, [&](const Shape& i) { idx.push_back((i[0] * kDims[1] + i[1]) * kDims[2] + i[2]); });
  }
  return idx;
}

// Random-index decomposition: a shuffled permutation (the same on every
// rank), cut into one piece per rank.
std::vector<int64_t> random_indices(const comm::Group& g) {
  std::vector<int64_t> perm(kElements);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(42));
  const int64_t lo = kElements * g.rank() / g.size(), hi = kElements * (g.rank() + 1) / g.size();
  return std::vector<int64_t>(perm.begin() + lo, perm.begin() + hi);
}

std::unique_ptr<collective::Decomposition> decomposition(const comm::Group& g, bool block, ElementType file_type,
                                                         std::vector<int64_t>* indices) {
  Result<collective::SortedRuns> runs = Status(Code::kInternal, "unset");
  if (block) {
    std::vector<Box> blocks;
    *indices = block_indices(g, &blocks);
    runs = collective::runs_of_blocks(3, kDims, collective::IndexOrder::kC, blocks);
  } else {
    *indices = random_indices(g);
    runs = collective::runs_of_indices(kElements, indices->data(), static_cast<int64_t>(indices->size()));
  }
  EXPECT_TRUE(runs.ok()) << runs.status().message();
  auto d = collective::Decomposition::create(g, std::move(runs).value(), kElements, file_type, small_rounds(g));
  EXPECT_TRUE(d.ok()) << d.status().message();
  return std::move(d).value();
}

// The values (h5_check.py has the same formulas).
double double_value(int64_t i) { return static_cast<double>(i) * 0.5 + 1; }
int32_t int8_value(int64_t i) { return static_cast<int32_t>((i * 7) % 256) - 128; }
std::complex<double> complex_value(int64_t i) { return {static_cast<double>(i), -0.5 * static_cast<double>(i)}; }

template <typename T, typename F>
std::vector<T> values(const std::vector<int64_t>& indices, F f) {
  std::vector<T> v;
  for (int64_t i : indices) v.push_back(static_cast<T>(f(i)));
  return v;
}

// Writes with one decomposition kind, reads back with the other.
template <typename T, typename F>
void round_trip(const comm::Group& g, File& file, const std::string& name, ElementType file_type,
                ElementType mem_type, bool write_block, F f) {
  auto ds = Dataset::create(file, name, file_type, 3, kDims);
  ASSERT_TRUE(ds.ok()) << ds.status().message();
  DatasetTarget target(&*ds);
  ASSERT_EQ(*target.size(), static_cast<uint64_t>(kElements) * element_size(file_type));

  std::vector<int64_t> windices, rindices;
  auto wd = decomposition(g, write_block, file_type, &windices);
  const std::vector<T> v = values<T>(windices, f);
  auto w = collective::Transfer::start_write(*wd, target, 0, mem_type, v.data());
  ASSERT_TRUE(w.ok()) << w.status().message();
  const Status ws = (*w)->wait();
  ASSERT_TRUE(ws.ok()) << ws.message();

  auto rd = decomposition(g, !write_block, file_type, &rindices);
  std::vector<T> back(rindices.size());
  auto r = collective::Transfer::start_read(*rd, target, 0, mem_type, back.data());
  ASSERT_TRUE(r.ok()) << r.status().message();
  const Status rs = (*r)->wait();
  ASSERT_TRUE(rs.ok()) << rs.message();
  EXPECT_EQ(back, values<T>(rindices, f)) << name;
  ASSERT_TRUE(wd->free().ok());
  ASSERT_TRUE(rd->free().ok());
  ASSERT_TRUE(ds->close().ok());
}

TEST(Dataset, WritesAndReadsThroughTheEngine) {
  auto g = world_group();
  auto file = File::open(comm::world(), g_path, FileMode::kCreateTruncate);
  ASSERT_TRUE(file.ok()) << file.status().message();
  round_trip<double>(*g, *file, "block/double", ElementType::kDouble, ElementType::kDouble, true, double_value);
  // int32 in memory, int8 in the file: the engine converts.
  round_trip<int32_t>(*g, *file, "random/int8", ElementType::kInt8, ElementType::kInt32, false, int8_value);
  round_trip<std::complex<double>>(*g, *file, "block/complex", ElementType::kComplexDouble,
                                   ElementType::kComplexDouble, true, complex_value);
  // Every element type: a 1-D dataset of 17 values, signed types from -8,
  // written from doubles (complex from complex doubles).
  for (int t = kFirstElementType; t <= kLastElementType; ++t) {
    const ElementType type = static_cast<ElementType>(t);
    const int64_t n = 17;
    auto ds = Dataset::create(*file, std::string("types/") + element_name(type), type, 1, Shape{n});
    ASSERT_TRUE(ds.ok()) << ds.status().message();
    DatasetTarget target(&*ds);
    const int64_t lo = n * g->rank() / g->size(), hi = n * (g->rank() + 1) / g->size();
    std::vector<int64_t> idx(static_cast<size_t>(hi - lo));
    std::iota(idx.begin(), idx.end(), lo);
    const bool is_signed = type == ElementType::kInt8 || type == ElementType::kInt16 ||
                           type == ElementType::kInt32 || type == ElementType::kInt64;
    std::vector<double> real;
    std::vector<std::complex<double>> cplx;
    for (int64_t i : idx) {
      real.push_back(static_cast<double>(is_signed ? i - 8 : i) + (is_integer(type) ? 0 : 0.25));
      cplx.emplace_back(static_cast<double>(i), static_cast<double>(i) + 0.5);
    }
    auto runs = collective::runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
    ASSERT_TRUE(runs.ok());
    auto d = collective::Decomposition::create(*g, std::move(runs).value(), n, type, small_rounds(*g));
    ASSERT_TRUE(d.ok()) << d.status().message();
    auto w = is_complex(type)
                 ? collective::Transfer::start_write(**d, target, 0, ElementType::kComplexDouble, cplx.data())
                 : collective::Transfer::start_write(**d, target, 0, ElementType::kDouble, real.data());
    ASSERT_TRUE(w.ok()) << w.status().message();
    const Status ws = (*w)->wait();
    ASSERT_TRUE(ws.ok()) << element_name(type) << ": " << ws.message();
    ASSERT_TRUE((*d)->free().ok());
    ASSERT_TRUE(ds->close().ok());
  }
  ASSERT_TRUE(file->close().ok());

  // Reopened read-only: types and shapes read back.
  auto again = File::open(comm::world(), g_path, FileMode::kReadOnly);
  ASSERT_TRUE(again.ok()) << again.status().message();
  auto c = Dataset::open(*again, "block/complex", ElementType::kComplexDouble);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->ndim(), 3);
  EXPECT_EQ(c->dims()[0], 6);
  EXPECT_EQ(c->dims()[1], 10);
  EXPECT_EQ(c->dims()[2], 9);
  EXPECT_EQ(c->bytes(), static_cast<uint64_t>(kElements) * 16);
  // A box read directly, on every rank.
  Box b;
  b.ndim = 3;
  b.start = {5, 9, 0};
  b.count = {1, 1, 9};
  std::vector<std::complex<double>> row(9);
  ASSERT_TRUE(c->read(b, row.data()).ok());
  for (int64_t k = 0; k < 9; ++k) EXPECT_EQ(row[k], complex_value((5 * 10 + 9) * 9 + k));
  for (int t = kFirstElementType; t <= kLastElementType; ++t) {
    const ElementType type = static_cast<ElementType>(t);
    auto ds = Dataset::open(*again, std::string("types/") + element_name(type));
    ASSERT_TRUE(ds.ok()) << ds.status().message();
    EXPECT_EQ(ds->type(), type);
    EXPECT_EQ(ds->ndim(), 1);
    EXPECT_EQ(ds->dims()[0], 17);
    ASSERT_TRUE(ds->close().ok());
  }
  // The file is not closed while a dataset is open.
  const Status early = again->close();
  EXPECT_EQ(early.code(), Code::kState) << early.message();
  ASSERT_TRUE(c->close().ok());
  ASSERT_TRUE(again->close().ok());
}

// Every rank fails, with the same code and a message naming what.
TEST(Dataset, BadInputFailsOnEveryRank) {
  const std::string missing = g_path + ".missing";
  auto none = File::open(comm::world(), missing, FileMode::kReadOnly);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), Code::kNotFound);
  EXPECT_NE(none.status().message().find(missing), std::string::npos) << none.status().message();

  // Not an HDF5 file.
  const std::string text = g_path + ".txt";
  if (comm::world().rank() == 0) {
    std::FILE* f = std::fopen(text.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("not an HDF5 file\n", f);
    std::fclose(f);
  }
  ASSERT_TRUE(comm::world().barrier().ok());
  auto plain = File::open(comm::world(), text, FileMode::kReadOnly);
  ASSERT_FALSE(plain.ok());
  EXPECT_EQ(plain.status().code(), Code::kCorrupt) << plain.status().message();
  EXPECT_NE(plain.status().message().find(text), std::string::npos) << plain.status().message();

  auto taken = File::open(comm::world(), g_path, FileMode::kCreateExclusive);
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.status().code(), Code::kExists) << taken.status().message();

  auto file = File::open(comm::world(), g_path, FileMode::kReadWrite);
  ASSERT_TRUE(file.ok()) << file.status().message();
  auto wrong = Dataset::open(*file, "block/double", ElementType::kInt32);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), Code::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("holds double, not int32"), std::string::npos) << wrong.status().message();

  auto absent = Dataset::open(*file, "no/such");
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.status().code(), Code::kNotFound) << absent.status().message();
  EXPECT_NE(absent.status().message().find("no/such"), std::string::npos) << absent.status().message();

  auto twice = Dataset::create(*file, "block/double", ElementType::kDouble, 3, kDims);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().code(), Code::kExists) << twice.status().message();

  // Ranks that disagree on the shape: refused before HDF5 sees it.
  Shape dims = kDims;
  dims[0] += comm::world().rank();
  auto differ = Dataset::create(*file, "differ", ElementType::kDouble, 3, dims);
  if (comm::world().size() > 1) {
    ASSERT_FALSE(differ.ok());
    EXPECT_EQ(differ.status().code(), Code::kInvalidArgument) << differ.status().message();
  } else {
    ASSERT_TRUE(differ.ok());
    ASSERT_TRUE(differ->close().ok());
  }

  // The target: a write past the end, bytes that are not whole elements.
  auto ds = Dataset::open(*file, "random/int8", ElementType::kInt8);
  ASSERT_TRUE(ds.ok());
  DatasetTarget target(&*ds);
  char buf[16] = {};
  auto past = target.start(device::IoKind::kWrite, kElements - 4, buf, 8);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.status().code(), Code::kOutOfRange);
  auto tail = target.start(device::IoKind::kRead, kElements - 4, buf, 8);  // reads stop at the end
  ASSERT_TRUE(tail.ok());
  EXPECT_EQ((*tail)->transferred(), 4u);
  auto c = Dataset::open(*file, "block/complex");
  ASSERT_TRUE(c.ok());
  DatasetTarget ctarget(&*c);
  auto ragged = ctarget.start(device::IoKind::kRead, 8, buf, 16);
  ASSERT_FALSE(ragged.ok());
  EXPECT_EQ(ragged.status().code(), Code::kInvalidArgument);
  ASSERT_TRUE(c->close().ok());
  ASSERT_TRUE(ds->close().ok());
  ASSERT_TRUE(file->close().ok());
}

}  // namespace
}  // namespace pario::dataset

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: dataset_h5_test FILE.h5\n");
    return 2;
  }
  pario::dataset::g_path = argv[argc - 1];
  return pario::testing_support::run_mpi_tests(argc, argv);
}
