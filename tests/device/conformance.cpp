// The conformance tests (see conformance.h).
#include "conformance.h"

#include <random>

namespace pario::device {
namespace {

using testing::random_bytes;

TEST_P(Conformance, RoundTripAtUnalignedOffsetsAndSizes) {
  uint64_t off = 0;
  for (size_t len : {1, 100, 4095, 4096, 4097, 10000, 65536, 1 << 20}) {
    write_both(off, random_bytes(len, static_cast<unsigned>(len)));
    off += len + 13;
  }
  expect_same(0, off);
  expect_same(4000, 200);
  expect_same(off - 5, 100);  // crosses end of file: short read
}

TEST_P(Conformance, HolesReadAsZerosAndEndOfFileIsShort) {
  write_both(100000, random_bytes(10, 1));
  std::vector<char> buf(100, 'x');
  size_t got = 0;
  ASSERT_TRUE(dev_->read_at(5000, buf.data(), buf.size(), &got).ok());
  ASSERT_EQ(got, 100u);
  for (char c : buf) EXPECT_EQ(c, 0);
  ASSERT_TRUE(dev_->read_at(100010, buf.data(), 10, &got).ok());
  EXPECT_EQ(got, 0u);
  EXPECT_EQ(*dev_->size(), 100010u);
}

TEST_P(Conformance, TruncateShrinksAndExtendsWithZeros) {
  write_both(0, random_bytes(20000, 2));
  ASSERT_TRUE(dev_->truncate(7000).ok());
  ASSERT_TRUE(ref_->truncate(7000).ok());
  expect_same(0, 20000);
  ASSERT_TRUE(dev_->truncate(30000).ok());
  ASSERT_TRUE(ref_->truncate(30000).ok());
  expect_same(0, 40000);
}

TEST_P(Conformance, VectoredTransfers) {
  auto a = random_bytes(3000, 3), b = random_bytes(5000, 4);
  iovec iov[2] = {{a.data(), a.size()}, {b.data(), b.size()}};
  ASSERT_TRUE(dev_->writev_at(123, iov, 2).ok());
  ASSERT_TRUE(ref_->write_at(123, a.data(), a.size()).ok());
  ASSERT_TRUE(ref_->write_at(123 + a.size(), b.data(), b.size()).ok());
  std::vector<char> x(3000), y(6000);
  iovec rv[2] = {{x.data(), x.size()}, {y.data(), y.size()}};
  size_t got = 0;
  ASSERT_TRUE(dev_->readv_at(123, rv, 2, &got).ok());
  EXPECT_EQ(got, 8000u);
  EXPECT_EQ(0, std::memcmp(x.data(), a.data(), a.size()));
  EXPECT_EQ(0, std::memcmp(y.data(), b.data(), b.size()));
}

// More buffers than one preadv/pwritev takes (IOV_MAX is 1024), some empty.
TEST_P(Conformance, VectoredTransfersOfManySmallBuffers) {
  auto data = random_bytes(3 * 1500, 5);
  std::vector<iovec> iov;
  for (size_t i = 0; i < 1500; ++i) {
    iov.push_back({data.data() + 3 * i, 3});
    if (i % 100 == 0) iov.push_back({nullptr, 0});
  }
  ASSERT_TRUE(dev_->writev_at(7, iov.data(), static_cast<int>(iov.size())).ok());
  ASSERT_TRUE(ref_->write_at(7, data.data(), data.size()).ok());
  expect_same(0, data.size() + 100);
  std::vector<char> back(data.size() + 50, 'z');
  std::vector<iovec> rv;
  for (size_t i = 0; i < back.size(); i += 5) rv.push_back({back.data() + i, std::min<size_t>(5, back.size() - i)});
  size_t got = 0;
  ASSERT_TRUE(dev_->readv_at(7, rv.data(), static_cast<int>(rv.size()), &got).ok());
  EXPECT_EQ(got, data.size());  // short at end of file
  EXPECT_EQ(0, std::memcmp(back.data(), data.data(), data.size()));
}

TEST_P(Conformance, ManyOutstandingRequestsMatchTheReference) {
  // 600 nonoverlapping writes of mixed sizes, all in flight at once (more
  // than any ring depth), then 600 reads in flight, compared with the
  // reference device written synchronously.
  std::mt19937 rng(5);
  std::vector<std::vector<char>> data;
  std::vector<uint64_t> offs;
  uint64_t off = 0;
  for (int i = 0; i < 600; ++i) {
    size_t len = 1 + rng() % 9000;
    off += rng() % 3 == 0 ? 4096 : 0;  // leave some holes
    offs.push_back(off);
    data.push_back(random_bytes(len, i));
    off += len;
  }
  std::vector<std::shared_ptr<Request>> reqs;
  for (size_t i = 0; i < data.size(); ++i) {
    reqs.push_back(submit(IoKind::kWrite, offs[i], data[i].data(), data[i].size()));
    ASSERT_TRUE(ref_->write_at(offs[i], data[i].data(), data[i].size()).ok());
  }
  for (auto& r : reqs) {
    wait(*r);
    ASSERT_TRUE(r->status().ok()) << r->status().message();
    EXPECT_EQ(r->transferred(), r->len);
  }
  std::vector<std::vector<char>> back(data.size());
  reqs.clear();
  for (size_t i = 0; i < data.size(); ++i) {
    back[i].resize(data[i].size());
    reqs.push_back(submit(IoKind::kRead, offs[i], back[i].data(), back[i].size()));
  }
  for (size_t i = 0; i < reqs.size(); ++i) {
    while (!test(*reqs[i])) {
    }
    ASSERT_TRUE(reqs[i]->status().ok());
    ASSERT_EQ(back[i], data[i]) << "request " << i;
  }
  expect_same(0, off + 100);
}

TEST_P(Conformance, AsyncReadPastEndIsShortAndExactReadFails) {
  write_both(0, random_bytes(1000, 6));
  std::vector<char> buf(2000);
  auto r = submit(IoKind::kRead, 500, buf.data(), buf.size());
  wait(*r);
  ASSERT_TRUE(r->status().ok());
  EXPECT_EQ(r->transferred(), 500u);
  auto exact = std::make_shared<Request>(IoKind::kRead, dev_.get(), 500, buf.data(), buf.size(), true);
  engine_->submit(exact);
  wait(*exact);
  EXPECT_EQ(exact->status().code(), Code::kOutOfRange);
}

TEST_P(Conformance, CallsAfterCloseFailWithState) {
  ASSERT_TRUE(dev_->close().ok());
  ASSERT_TRUE(dev_->close().ok());  // idempotent
  char c = 0;
  size_t got;
  EXPECT_EQ(dev_->write_at(0, &c, 1).code(), Code::kState);
  EXPECT_EQ(dev_->read_at(0, &c, 1, &got).code(), Code::kState);
  EXPECT_EQ(dev_->size().status().code(), Code::kState);
}

}  // namespace
}  // namespace pario::device
