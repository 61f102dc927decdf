// Collective transfers (collective/transfer.h) into targets the C API does
// not reach: a memory device through the thread engine and through the
// sync engine (a target that does its work inside start(), as HDF5 will),
// and a device that fails after some bytes on one aggregator. At 1, 2 and
// 4 ranks; with PARIO_RANKS_PER_NODE=1 every rank aggregates. Each rank
// keeps its own memory device, so only what an aggregator wrote is in its
// device: checks read back through the collective read, and look at the
// bytes of a failing aggregator's own device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "base/convert.h"
#include "collective/decomposition.h"
#include "collective/layout.h"
#include "collective/transfer.h"
#include "comm/group.h"
#include "device/async.h"
#include "device/fault_device.h"
#include "mpi_main.h"

namespace pario::collective {
namespace {

std::shared_ptr<comm::Group> world_group() {
  const char* rpn = std::getenv("PARIO_RANKS_PER_NODE");
  auto g = comm::Group::create(MPI_COMM_WORLD, rpn ? std::atoi(rpn) : 0);
  EXPECT_TRUE(g.ok());
  return *g;
}

// Every aggregator's device is its own: a shared memory file would need a
// shared file; here each aggregator writes only its domain, so a read
// through the same decomposition finds it again.
std::unique_ptr<Decomposition> slabs(const comm::Group& g, int64_t n, int64_t buffer) {
  const int64_t lo = n * g.rank() / g.size(), hi = n * (g.rank() + 1) / g.size();
  std::vector<int64_t> idx;
  for (int64_t i = hi - 1; i >= lo; --i) idx.push_back(i);  // reversed in memory
  auto runs = runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
  EXPECT_TRUE(runs.ok());
  CollectiveOptions o;
  o.buffering = Buffering::kAlways;  // through the aggregators, whatever auto would choose
  o.buffer_bytes = buffer;
  o.aggregators = g.size() > 1 ? 2 : 1;
  auto d = Decomposition::create(g, std::move(runs).value(), n, ElementType::kDouble, o);
  EXPECT_TRUE(d.ok()) << d.status().message();
  return std::move(d).value();
}

std::vector<double> my_values(const comm::Group& g, int64_t n) {
  const int64_t lo = n * g.rank() / g.size(), hi = n * (g.rank() + 1) / g.size();
  std::vector<double> v;
  for (int64_t i = hi - 1; i >= lo; --i) v.push_back(static_cast<double>(i) * 3 + 0.25);
  return v;
}

// n elements in reversed slabs (rounds of `buffer` bytes), this rank's
// values written through its memory device behind `engine`: where the
// read tests start.
struct Written {
  std::shared_ptr<comm::Group> g = world_group();
  std::unique_ptr<Decomposition> d;
  std::unique_ptr<device::Device> dev = device::make_memory_device("mem");
  std::unique_ptr<device::AsyncEngine> engine;
  std::unique_ptr<DeviceTarget> target;
  std::vector<double> v;
  TransferCounts write_counts;
  Written(int64_t n, int64_t buffer, std::unique_ptr<device::AsyncEngine> e)
      : d(slabs(*g, n, buffer)),
        engine(std::move(e)),
        target(std::make_unique<DeviceTarget>(dev.get(), engine.get())),
        v(my_values(*g, n)) {
    auto w = Transfer::start_write(*d, *target, 0, ElementType::kDouble, v.data());
    EXPECT_TRUE(w.ok() && (*w)->wait().ok());
    if (w.ok()) write_counts = (*w)->counts();
  }
};

TEST(Transfer, RoundTripThroughThreadAndSyncEngines) {
  auto g = world_group();
  const int64_t n = 10007;
  for (bool sync : {false, true}) {
    auto d = slabs(*g, n, 512);
    auto dev = device::make_memory_device("mem");
    auto engine = sync ? device::make_sync_engine() : device::make_thread_engine(2);
    DeviceTarget target(dev.get(), engine.get());
    const std::vector<double> v = my_values(*g, n);
    auto w = Transfer::start_write(*d, target, 64, ElementType::kDouble, v.data());
    ASSERT_TRUE(w.ok()) << w.status().message();
    ASSERT_TRUE((*w)->wait().ok());
    EXPECT_GT((*w)->counts().io_requests + (d->is_aggregator() ? 0 : 1), 0u);
    std::vector<float> back(v.size());
    auto r = Transfer::start_read(*d, target, 64, ElementType::kFloat, back.data());
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE((*r)->wait().ok());
    bool good = true;
    for (size_t k = 0; k < v.size(); ++k) good &= back[k] == static_cast<float>(v[k]);
    EXPECT_TRUE(good);
    ASSERT_TRUE(d->free().ok());
  }
}

// The last aggregator's device fails after 1000 bytes: every rank gets an
// error (that rank kIo or kNoSpace, the others kRemote naming it), nobody
// hangs, and the rounds it wrote before are intact.
TEST(Transfer, AFailingAggregatorFailsEveryRankAndKeepsEarlierRounds) {
  auto g = world_group();
  const int64_t n = 4096;
  auto d = slabs(*g, n, 256);  // 32 doubles a round
  const int last = d->plan().aggregator_rank(d->plan().aggregators() - 1);
  device::FaultPlan plan;
  if (g->rank() == last) {
    plan.fail_errno = ENOSPC;
    plan.fail_after_bytes = 1000;
  }
  auto dev = device::make_fault_device(device::make_memory_device("mem"), plan);
  auto engine = device::make_sync_engine();
  DeviceTarget target(dev.get(), engine.get());
  const std::vector<double> v = my_values(*g, n);
  auto w = Transfer::start_write(*d, target, 0, ElementType::kDouble, v.data());
  ASSERT_TRUE(w.ok());
  const Status s = (*w)->wait();
  ASSERT_FALSE(s.ok());
  if (g->rank() == last) {
    EXPECT_EQ(s.code(), Code::kNoSpace) << s.message();
    // The first rounds of its domain (up to 1000 bytes) hold their values.
    const int a = d->plan().aggregators() - 1;
    const int64_t begin = d->plan().domain_begin(a);
    const int64_t whole = 1000 / 256 * 32;  // elements of the rounds written whole
    std::vector<double> got(static_cast<size_t>(whole));
    size_t read = 0;
    ASSERT_TRUE(dev->read_at(static_cast<uint64_t>(begin) * 8, got.data(), got.size() * 8, &read).ok());
    ASSERT_EQ(read, got.size() * 8);
    bool good = true;
    for (int64_t k = 0; k < whole; ++k) good &= got[k] == static_cast<double>(begin + k) * 3 + 0.25;
    EXPECT_TRUE(good);
  } else {
    EXPECT_EQ(s.code(), Code::kRemote) << s.message();
  }
  // The decomposition is still usable: a write to a good device works.
  auto good_dev = device::make_memory_device("mem2");
  DeviceTarget good_target(good_dev.get(), engine.get());
  auto w2 = Transfer::start_write(*d, good_target, 0, ElementType::kDouble, v.data());
  ASSERT_TRUE(w2.ok());
  EXPECT_TRUE((*w2)->wait().ok());
  ASSERT_TRUE(d->free().ok());
}

// The last aggregator's device fails a read with EIO after 1000 bytes
// (its domain written whole before): every rank gets an error (that rank
// kIo naming EIO, the others kRemote naming it) and nobody hangs, on the
// thread engine (the reads in flight) as on the sync one.
TEST(Transfer, AnAggregatorFailingAReadFailsEveryRank) {
  for (bool threads : {false, true}) {
    auto g = world_group();
    const int64_t n = 4096;
    auto d = slabs(*g, n, 256);  // 32 doubles a round
    const int a = d->plan().aggregators() - 1, last = d->plan().aggregator_rank(a);
    const uint64_t domain = static_cast<uint64_t>(d->plan().domain_end(a) - d->plan().domain_begin(a)) * 8;
    device::FaultPlan plan;
    if (g->rank() == last) {
      plan.fail_errno = EIO;
      plan.fail_after_bytes = domain + 1000;  // the write's bytes count too
      plan.fail_reads = true;
    }
    auto dev = device::make_fault_device(device::make_memory_device("mem"), plan);
    auto engine = threads ? device::make_thread_engine(2) : device::make_sync_engine();
    DeviceTarget target(dev.get(), engine.get());
    const std::vector<double> v = my_values(*g, n);
    auto w = Transfer::start_write(*d, target, 0, ElementType::kDouble, v.data());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->wait().ok());
    std::vector<double> back(v.size());
    auto r = Transfer::start_read(*d, target, 0, ElementType::kDouble, back.data());
    ASSERT_TRUE(r.ok()) << r.status().message();
    const Status s = (*r)->wait();
    ASSERT_FALSE(s.ok());
    if (g->rank() == last) {
      EXPECT_EQ(s.code(), Code::kIo) << s.message();
      EXPECT_EQ(s.sys_errno(), EIO) << s.message();
    } else {
      EXPECT_EQ(s.code(), Code::kRemote) << s.message();
      EXPECT_NE(s.message().find("rank " + std::to_string(last)), std::string::npos) << s.message();
    }
    ASSERT_TRUE(d->free().ok());
  }
}

// A target that is not thread-safe (as HDF5 is not here): it moves the
// bytes inside start() on a memory device and notes every thread that
// calls it. Every call must come from the thread of the collective call,
// whatever runs the pipeline (Target's contract, collective/target.h).
class CallingThreadTarget final : public Target {
 public:
  Result<std::shared_ptr<device::Request>> start(device::IoKind kind, uint64_t offset, void* buf,
                                                 size_t len) override {
    note();
    size_t moved = 0;
    Status s = kind == device::IoKind::kWrite ? dev_->write_at(offset, buf, len)
                                              : dev_->read_at(offset, buf, len, &moved);
    if (kind == device::IoKind::kWrite && s.ok()) moved = len;
    auto r = std::make_shared<device::Request>(kind, nullptr, offset, buf, len, /*exact=*/false);
    r->complete(std::move(s), moved);
    return r;
  }
  Result<uint64_t> size() override {
    note();
    return dev_->size();
  }
  int calls = 0, other_threads = 0;

 private:
  void note() {
    ++calls;  // (a data race itself if another thread called: then TSan says so too)
    other_threads += std::this_thread::get_id() != owner_;
  }
  std::thread::id owner_ = std::this_thread::get_id();
  std::unique_ptr<device::Device> dev_ = device::make_memory_device("mem");
};

TEST(Transfer, ATargetIsCalledOnlyFromTheCallingThread) {
  auto g = world_group();
  const int64_t n = 4096;
  auto d = slabs(*g, n, 256);  // many rounds: a pipeline if anything would hand them off
  CallingThreadTarget target;
  const std::vector<double> v = my_values(*g, n);
  for (bool borrow : {false, true}) {  // copied, or sent from v (borrowed)
    auto w = Transfer::start_write(*d, target, 8, ElementType::kDouble, v.data(), borrow);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->wait().ok());
    std::vector<float> back(v.size());
    auto r = Transfer::start_read(*d, target, 8, ElementType::kFloat, back.data());
    ASSERT_TRUE(r.ok());
    for (int i = 0; i < 100 && !(*r)->test(); ++i) {  // progress by test() too
    }
    ASSERT_TRUE((*r)->wait().ok());
    bool good = true;
    for (size_t k = 0; k < v.size(); ++k) good &= back[k] == static_cast<float>(v[k]);
    EXPECT_TRUE(good);
  }
  EXPECT_EQ(target.other_threads, 0);
  if (d->is_aggregator()) EXPECT_GT(target.calls, 0);
  ASSERT_TRUE(d->free().ok());
}

// A value that does not fit the memory type on one rank only, found after
// the exchange: the same failure everywhere.
TEST(Transfer, ANarrowingReadOnOneRankFailsEveryRank) {
  Written w(300, 1024, device::make_thread_engine(1));  // values up to 897.25: no int8
  const comm::Group& g = *w.g;
  const int bad = g.size() - 1;
  std::vector<int8_t> small(w.v.size());
  std::vector<double> fine(w.v.size());
  auto r = g.rank() == bad ? Transfer::start_read(*w.d, *w.target, 0, ElementType::kInt8, small.data())
                           : Transfer::start_read(*w.d, *w.target, 0, ElementType::kDouble, fine.data());
  ASSERT_TRUE(r.ok());
  const Status s = (*r)->wait();
  EXPECT_EQ(s.code(), g.rank() == bad ? Code::kOutOfRange : (g.size() > 1 ? Code::kRemote : Code::kOutOfRange))
      << s.message();
  ASSERT_TRUE(w.d->free().ok());
}

// An engine that holds every request until the gate opens, like a disk
// slower than anything: what a write leaves in flight when it returns.
class GateEngine final : public device::AsyncEngine {
 public:
  const char* name() const override { return "gate"; }
  void submit(const std::shared_ptr<device::Request>& r) override {
    r->owner = this;
    held_.push_back(r);
    ++submitted_;
  }
  void wait(device::Request& r) override {
    open();
    (void)r;
  }
  bool test(device::Request& r) override { return r.done(); }
  void open() {
    for (auto& r : held_) device::execute(*r);
    held_.clear();
  }
  size_t held() const { return held_.size(); }
  size_t submitted() const { return submitted_; }

 private:
  std::vector<std::shared_ptr<device::Request>> held_;
  size_t submitted_ = 0;
};

// Nonblocking: with two rounds per aggregator, the exchange finishes in
// start_write and both rounds' file I/O is still in flight when it
// returns; the wait completes it.
TEST(Transfer, AWriteReturnsWithItsFileIoInFlight) {
  auto g = world_group();
  const int aggregators = g->size() > 1 ? 2 : 1;
  const int64_t n = 16 * aggregators;  // two 8-double rounds per domain
  auto d = slabs(*g, n, 64);
  ASSERT_EQ(d->plan().aggregators(), aggregators);
  auto dev = device::make_memory_device("mem");
  GateEngine gate;
  DeviceTarget target(dev.get(), &gate);
  const std::vector<double> v = my_values(*g, n);
  auto w = Transfer::start_write(*d, target, 0, ElementType::kDouble, v.data());
  ASSERT_TRUE(w.ok());
  if (d->is_aggregator()) {
    EXPECT_EQ(d->rounds().size(), 2u);
    EXPECT_EQ(gate.held(), 2u);  // both rounds' writes, none done
    EXPECT_FALSE((*w)->test());
  }
  ASSERT_TRUE((*w)->wait().ok());
  EXPECT_EQ(gate.held(), 0u);
  auto sync = device::make_sync_engine();
  DeviceTarget readable(dev.get(), sync.get());
  std::vector<double> back(v.size());
  auto r = Transfer::start_read(*d, readable, 0, ElementType::kDouble, back.data());
  ASSERT_TRUE(r.ok() && (*r)->wait().ok());
  EXPECT_EQ(back, v);
  ASSERT_TRUE(d->free().ok());
}

// test() finishes a read on its own, as MPI_Test would: while the
// aggregators' file reads are held it returns false; as the gate opens it
// sends the rounds and unpacks, and returns true with the data in the
// caller's buffer before wait(). A write likewise once its I/O is done.
TEST(Transfer, TestCompletesAReadAndAWriteBeforeTheWait) {
  auto g = world_group();
  const int aggregators = g->size() > 1 ? 2 : 1;
  const int64_t n = 32 * aggregators;  // four 8-double rounds per domain
  auto d = slabs(*g, n, 64);
  auto dev = device::make_memory_device("mem");
  GateEngine gate;
  DeviceTarget target(dev.get(), &gate);
  const std::vector<double> v = my_values(*g, n);
  auto until_done = [&](Transfer& t) {
    const double deadline = MPI_Wtime() + 30;
    bool done = false;
    while (!(done = t.test()) && MPI_Wtime() < deadline) gate.open();
    return done;
  };
  auto w = Transfer::start_write(*d, target, 0, ElementType::kDouble, v.data());
  ASSERT_TRUE(w.ok());
  if (d->is_aggregator()) {
    EXPECT_FALSE((*w)->test());  // its writes are held
  }
  EXPECT_TRUE(until_done(**w));
  ASSERT_TRUE((*w)->wait().ok());

  std::vector<float> back(v.size(), -1.0f);
  auto r = Transfer::start_read(*d, target, 0, ElementType::kFloat, back.data());
  ASSERT_TRUE(r.ok());
  if (d->is_aggregator()) {
    EXPECT_EQ(gate.held(), 2u);  // two rounds read ahead, none done
    EXPECT_FALSE((*r)->test());
  }
  EXPECT_TRUE(until_done(**r));
  bool good = true;
  for (size_t k = 0; k < v.size(); ++k) good &= back[k] == static_cast<float>(v[k]);
  EXPECT_TRUE(good);  // in the buffer before the wait
  EXPECT_TRUE((*r)->test());
  ASSERT_TRUE((*r)->wait().ok());
  EXPECT_EQ(gate.held(), 0u);
  ASSERT_TRUE(d->free().ok());
}

// A read moves the messages of the write the other way: each rank's own
// messages (sent by a write, received by a read) and an aggregator's
// round messages (received, then sent) match in number and bytes.
TEST(Transfer, AReadMovesTheWritesMessagesTheOtherWay) {
  Written w(1000, 128, device::make_thread_engine(2));
  std::vector<double> back(w.v.size());
  auto r = Transfer::start_read(*w.d, *w.target, 0, ElementType::kDouble, back.data());
  ASSERT_TRUE(r.ok() && (*r)->wait().ok());
  EXPECT_EQ(back, w.v);
  const TransferCounts& wc = w.write_counts;
  const TransferCounts& rc = (*r)->counts();
  EXPECT_EQ(wc.messages_sent, rc.messages_received);
  EXPECT_EQ(wc.bytes_sent, rc.bytes_received);
  EXPECT_EQ(wc.messages_received, rc.messages_sent);
  EXPECT_EQ(wc.bytes_received, rc.bytes_sent);
  if (!w.d->is_aggregator()) {
    EXPECT_GT(rc.messages_received, 0u);  // its elements come from elsewhere
  }
  ASSERT_TRUE(w.d->free().ok());
}

// int32 in memory, int64 big endian in the file, converted where the
// options say: the messages carry 4 bytes an element when the aggregator
// converts (asked, or auto: the memory type is the smaller), 8 when the
// sender does, and the data comes back either way. A
// read the aggregators cannot convert (int64 values into int8) fails on
// every rank.
TEST(Transfer, TheAggregatorConvertsWhenAsked) {
  auto g = world_group();
  const int64_t n = 777;
  const int64_t lo = n * g->rank() / g->size(), hi = n * (g->rank() + 1) / g->size();
  std::vector<int64_t> idx;
  std::vector<int32_t> v;
  for (int64_t i = hi - 1; i >= lo; --i) {
    idx.push_back(i);
    v.push_back(static_cast<int32_t>(i * 1000 - 7));
  }
  for (ConvertAt side : {ConvertAt::kSender, ConvertAt::kAggregator, ConvertAt::kAuto}) {
    auto runs = runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
    ASSERT_TRUE(runs.ok());
    CollectiveOptions o;
    o.buffering = Buffering::kAlways;  // through the aggregators, whatever auto would choose
    o.buffer_bytes = 256;
    o.aggregators = g->size() > 1 ? 2 : 1;
    o.byte_order = ByteOrder::kBig;
    o.convert = side;
    auto d = Decomposition::create(*g, std::move(runs).value(), n, ElementType::kInt64, o);
    ASSERT_TRUE(d.ok()) << d.status().message();
    auto dev = device::make_memory_device("mem");
    auto engine = device::make_thread_engine(2);
    DeviceTarget target(dev.get(), engine.get());
    auto w = Transfer::start_write(**d, target, 0, ElementType::kInt32, v.data());
    ASSERT_TRUE(w.ok() && (*w)->wait().ok());
    std::vector<int32_t> back(v.size(), -1);
    auto r = Transfer::start_read(**d, target, 0, ElementType::kInt32, back.data());
    ASSERT_TRUE(r.ok() && (*r)->wait().ok());
    EXPECT_EQ(back, v);
    const uint64_t wire = side == ConvertAt::kSender ? 8 : 4;
    if (!(*d)->is_aggregator()) {
      EXPECT_EQ((*w)->counts().bytes_sent, v.size() * wire);
      EXPECT_EQ((*r)->counts().bytes_received, v.size() * wire);
    }
    std::vector<int8_t> small(v.size());
    auto bad = Transfer::start_read(**d, target, 0, ElementType::kInt8, small.data());
    ASSERT_TRUE(bad.ok());
    const Status s = (*bad)->wait();
    EXPECT_TRUE(s.code() == Code::kOutOfRange || s.code() == Code::kRemote) << s.message();
    if ((*d)->rank() == (*d)->plan().aggregator_rank(0)) {
      EXPECT_EQ(s.code(), Code::kOutOfRange) << s.message();
    }
    ASSERT_TRUE((*d)->free().ok());
  }
}

// A memory device behind the thread engine, as a target.
struct MemoryTarget {
  std::unique_ptr<device::Device> dev = device::make_memory_device("mem");
  std::unique_ptr<device::AsyncEngine> engine = device::make_thread_engine(2);
  DeviceTarget target{dev.get(), engine.get()};
};

// d's elements (doubles) read back from `target` at `offset`, the read
// waited at once or (poll) after test() said it was done; its counts.
std::vector<double> read_back(Decomposition& d, Target& target, uint64_t offset, bool poll, TransferCounts* counts) {
  std::vector<double> back(static_cast<size_t>(d.local_count()), -1);
  auto r = Transfer::start_read(d, target, offset, ElementType::kDouble, back.data());
  EXPECT_TRUE(r.ok());
  if (!r.ok()) return back;
  while (poll && !(*r)->test()) {
  }
  EXPECT_TRUE((*r)->wait().ok());
  *counts = (*r)->counts();
  return back;
}

// Index lists in random order (the packed copy filled through
// memory_slots(): in memory order, into its slots), more elements than
// one conversion chunk (65536) and a count that is not a multiple of it:
// a round trip with the sender converting (int32 into big-endian int64,
// read back into double) and with the aggregator converting, and a value
// that does not fit the file type named by its index in memory on either
// side.
TEST(Transfer, ScatteredIndicesPackIntoTheirSlotsInEveryConversion) {
  auto g = world_group();
  const int64_t n = 3 * 65536 + 1001;
  std::vector<int64_t> all(n);
  for (int64_t k = 0; k < n; ++k) all[k] = (k * 40503 + 11) % n;  // a permutation: gcd(40503, n) = 1
  const int64_t lo = n * g->rank() / g->size(), hi = n * (g->rank() + 1) / g->size();
  const std::vector<int64_t> idx(all.begin() + lo, all.begin() + hi);
  std::vector<int32_t> v;
  for (int64_t i : idx) v.push_back(static_cast<int32_t>(i * 3 - 100000));
  for (ConvertAt side : {ConvertAt::kSender, ConvertAt::kAggregator}) {
    auto runs = runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
    ASSERT_TRUE(runs.ok());
    CollectiveOptions o;
    o.buffer_bytes = 64 << 10;
    o.aggregators = g->size() > 1 ? 2 : 1;
    o.byte_order = ByteOrder::kBig;
    o.convert = side;
    auto d = Decomposition::create(*g, std::move(runs).value(), n, ElementType::kInt64, o);
    ASSERT_TRUE(d.ok()) << d.status().message();
    if (!idx.empty()) {
      EXPECT_EQ((*d)->memory_slots().elements(), static_cast<int64_t>(idx.size()));
      EXPECT_EQ((*d)->memory_order().elements(), 0);
      EXPECT_FALSE((*d)->memory_in_file_order());
    }
    MemoryTarget t;
    auto w = Transfer::start_write(**d, t.target, 0, ElementType::kInt32, v.data());
    ASSERT_TRUE(w.ok() && (*w)->wait().ok());
    std::vector<double> back(v.size(), -1);
    auto r = Transfer::start_read(**d, t.target, 0, ElementType::kDouble, back.data());
    ASSERT_TRUE(r.ok() && (*r)->wait().ok());
    bool good = true;
    for (size_t k = 0; k < v.size(); ++k) good &= back[k] == static_cast<double>(v[k]);
    EXPECT_TRUE(good) << "side " << static_cast<int>(side);
    // int8 in the file: every value but one fits on the last rank (the
    // others' first value is refused too on their own, if they have any).
    auto runs8 = runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
    ASSERT_TRUE(runs8.ok());
    auto d8 = Decomposition::create(*g, std::move(runs8).value(), n, ElementType::kInt8, o);
    ASSERT_TRUE(d8.ok()) << d8.status().message();
    std::vector<int32_t> small(v.size());
    for (size_t k = 0; k < small.size(); ++k) small[k] = static_cast<int32_t>(k % 100);
    const bool last = g->rank() == g->size() - 1;
    const size_t at = small.size() * 2 / 3 + 5;
    if (last) small[at] = 1000;
    auto bad = Transfer::start_write(**d8, t.target, 0, ElementType::kInt32, small.data());
    const Status s = bad.ok() ? (*bad)->wait() : bad.status();
    EXPECT_EQ(s.code(), last || g->size() == 1 ? Code::kOutOfRange : Code::kRemote) << s.message();
    if (last) {
      EXPECT_NE(s.message().find("buf[" + std::to_string(at) + "]"), std::string::npos) << s.message();
    }
    ASSERT_TRUE((*d8)->free().ok());
    ASSERT_TRUE((*d)->free().ok());
  }
}

// Direct transfers (each rank a scattered permutation of its own slab,
// chunks of 4096 elements): a native write takes no packed copy, its
// elements go from the caller's buffer into two chunk buffers in turn
// (Decomposition::own_memory()); with an index missing in the middle of
// the slab its two file runs are cut at the chunks' ends. The file holds
// every value, a read gives them back (a native one through the same two
// chunk buffers, with the same requests, blocking and through test()),
// and a big-endian write (through the packed copy) agrees. A file that
// ends early reads as zeros past its end.
TEST(Transfer, ADirectWriteOfScatteredElementsGoesThroughChunksWithoutAPackedCopy) {
  auto g = world_group();
  const int64_t n = 4 * 10000 + 3, chunk = 4096;
  const int64_t lo = n * g->rank() / g->size(), hi = n * (g->rank() + 1) / g->size();
  for (bool hole : {false, true}) {
    std::vector<int64_t> idx;
    for (int64_t k = 0; k < hi - lo; ++k) idx.push_back(lo + (k * 7919 + 5) % (hi - lo));  // gcd(7919, size) = 1
    const int64_t missing = lo + 5000;
    if (hole) idx.erase(std::find(idx.begin(), idx.end(), missing));
    std::vector<double> v;
    for (int64_t i : idx) v.push_back(static_cast<double>(i) * 1.5 + 1);
    for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kBig}) {
      auto runs = runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
      ASSERT_TRUE(runs.ok());
      CollectiveOptions o;
      o.buffering = Buffering::kNever;
      o.buffer_bytes = chunk * 8;
      o.byte_order = order;
      auto d = Decomposition::create(*g, std::move(runs).value(), n, ElementType::kDouble, o);
      ASSERT_TRUE(d.ok()) << d.status().message();
      ASSERT_TRUE((*d)->direct_io());
      ASSERT_EQ((*d)->own_memory().size(), idx.size());
      EXPECT_EQ((*d)->own_chunk_start().size(), static_cast<size_t>((v.size() + chunk - 1) / chunk) + 1);
      MemoryTarget mem;
      auto w = Transfer::start_write(**d, mem.target, 8, ElementType::kDouble, v.data());
      ASSERT_TRUE(w.ok() && (*w)->wait().ok());
      // Native: two chunk buffers; big-endian: the packed copy.
      EXPECT_EQ((*w)->counts().buffer_bytes, order == ByteOrder::kNative ? 2 * chunk * 8 : v.size() * 8);
      // One request a chunk, and one more where the hole cuts chunk 1.
      const uint64_t chunks = (v.size() + chunk - 1) / chunk, requests = order == ByteOrder::kNative ? chunks : 1;
      EXPECT_EQ((*w)->counts().io_requests, requests + (hole ? 1 : 0));
      std::vector<double> file(static_cast<size_t>(hi - lo), -1);
      size_t got = 0;
      ASSERT_TRUE(mem.dev->read_at(8 + lo * 8, file.data(), file.size() * 8, &got).ok());
      if (order == ByteOrder::kBig) swap_bytes(ElementType::kDouble, file.data(), file.size());
      size_t wrong = 0;
      for (int64_t i = lo; i < hi; ++i) {
        if (!(hole && i == missing)) wrong += file[i - lo] != static_cast<double>(i) * 1.5 + 1;
      }
      EXPECT_EQ(wrong, 0u) << "hole " << hole << " order " << static_cast<int>(order);
      for (bool poll : {false, true}) {
        TransferCounts rc;
        EXPECT_EQ(read_back(**d, mem.target, 8, poll, &rc), v);
        EXPECT_EQ(rc.buffer_bytes, (*w)->counts().buffer_bytes);
        EXPECT_EQ(rc.io_requests, requests + (hole ? 1 : 0));
      }
      // The last rank's file cut 10 elements short: they read as zeros.
      if (order == ByteOrder::kNative && g->rank() == g->size() - 1) {
        ASSERT_TRUE(mem.dev->truncate(8 + (n - 10) * 8).ok());
      }
      std::vector<double> back(v.size(), -1);
      auto r = Transfer::start_read(**d, mem.target, 8, ElementType::kDouble, back.data());
      ASSERT_TRUE(r.ok() && (*r)->wait().ok());
      if (order == ByteOrder::kNative) {
        size_t wrong = 0;
        for (size_t k = 0; k < idx.size(); ++k) {
          const bool cut = g->rank() == g->size() - 1 && idx[k] >= n - 10;
          wrong += back[k] != (cut ? 0.0 : v[k]);
        }
        EXPECT_EQ(wrong, 0u);
      }
      ASSERT_TRUE((*d)->free().ok());
    }
  }
}

// Scattered indices through the aggregators (every rank a stride of the
// global space, shuffled in memory; holes at round edges: the first and
// last index of every third round are no rank's), with one aggregator and
// with every rank aggregating: the native write sends each message from
// two small send buffers, packed from the caller's buffer, and the
// aggregator packs its own part straight into its window or staging
// buffer, so it holds no packed copy: its buffers are the big-endian
// write's (which takes the packed copy) less that copy, plus the send
// buffers. Each aggregator's bytes of its domain are the values, the holes
// untouched; the read gives the values back, a native one the reverse way
// with the same buffers (messages received into the two send buffers,
// the aggregator's own part moved straight from its window or staging
// buffer), blocking and through test().
TEST(Transfer, AScatteredWriteThroughTheAggregatorsSendsFromTwoBuffersWithoutAPackedCopy) {
  auto g = world_group();
  const int64_t n = 10007, window = 256;
  const int p = g->size();
  auto hole = [&](int64_t i) { return (i / window) % 3 == 1 && (i % window == 0 || i % window == window - 1); };
  std::vector<int64_t> idx;
  for (int64_t i = 0; i < n; ++i) {
    if (!hole(i) && (i * 7) % p == g->rank()) idx.push_back(i);
  }
  std::mt19937 rng(static_cast<unsigned>(g->rank()) + 1);
  std::shuffle(idx.begin(), idx.end(), rng);
  std::vector<double> v;
  for (int64_t i : idx) v.push_back(static_cast<double>(i) * 0.75 + 2);
  const double untouched = -7;
  for (int aggregators : {1, p}) {
    uint64_t big_buffers = 0;
    for (ByteOrder order : {ByteOrder::kBig, ByteOrder::kNative}) {
      SCOPED_TRACE(testing::Message() << aggregators << " aggregators, order " << static_cast<int>(order));
      auto runs = runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
      ASSERT_TRUE(runs.ok());
      CollectiveOptions o;
      o.buffering = Buffering::kAlways;
      o.buffer_bytes = window * 8;
      o.aggregators = aggregators;
      o.byte_order = order;
      auto d = Decomposition::create(*g, std::move(runs).value(), n, ElementType::kDouble, o);
      ASSERT_TRUE(d.ok()) << d.status().message();
      ASSERT_EQ((*d)->own_memory().size(), idx.size());
      const bool sends_to_others = !(aggregators == 1 && g->rank() == (*d)->plan().aggregator_rank(0));
      EXPECT_EQ((*d)->send_places().empty(), !sends_to_others || p == 1);
      EXPECT_LE((*d)->send_buffer_elements(), window);
      MemoryTarget mem;
      const std::vector<double> before(n, untouched);
      ASSERT_TRUE(mem.dev->write_at(0, before.data(), n * 8).ok());
      auto w = Transfer::start_write(**d, mem.target, 0, ElementType::kDouble, v.data());
      ASSERT_TRUE(w.ok() && (*w)->wait().ok());
      const TransferCounts& c = (*w)->counts();
      const uint64_t sends = (*d)->send_buffers() * (*d)->send_buffer_elements() * 8;
      if (order == ByteOrder::kBig) {
        big_buffers = c.buffer_bytes;
      } else {
        EXPECT_EQ(c.buffer_bytes + v.size() * 8, big_buffers + sends);
        EXPECT_LT(sends, v.size() * 8);
        EXPECT_EQ(c.messages_sent, (*d)->send_places().size());
      }
      const int a = (*d)->plan().aggregator_index(g->rank());
      if (a >= 0) {
        const int64_t begin = (*d)->plan().domain_begin(a), end = (*d)->plan().domain_end(a);
        std::vector<double> file(static_cast<size_t>(end - begin));
        size_t got = 0;
        ASSERT_TRUE(mem.dev->read_at(begin * 8, file.data(), file.size() * 8, &got).ok());
        if (order == ByteOrder::kBig) {
          for (int64_t i = begin; i < end; ++i) {
            if (!hole(i)) swap_bytes(ElementType::kDouble, &file[i - begin], 1);
          }
        }
        size_t wrong = 0;
        for (int64_t i = begin; i < end; ++i) {
          wrong += file[i - begin] != (hole(i) ? untouched : static_cast<double>(i) * 0.75 + 2);
        }
        EXPECT_EQ(wrong, 0u) << "domain [" << begin << ", " << end << ")";
      }
      for (bool poll : {false, true}) {
        TransferCounts rc;
        EXPECT_EQ(read_back(**d, mem.target, 0, poll, &rc), v);
        if (order == ByteOrder::kNative) {
          EXPECT_EQ(rc.buffer_bytes, c.buffer_bytes);
          EXPECT_EQ(rc.messages_received, (*d)->send_places().size());
        }
      }
      ASSERT_TRUE((*d)->free().ok());
    }
  }
}

// Global indices [lo, hi) of n, held in that order in memory (one run).
Result<SortedRuns> ascending(int64_t n, int64_t lo, int64_t hi) {
  std::vector<int64_t> idx;
  for (int64_t i = lo; i < hi; ++i) idx.push_back(i);
  return runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
}

// One aggregator (rank 0), each rank a slab in memory order, rounds of 64
// elements: rank 0's rounds hold only its own elements and are written
// from its packed copy (at one rank every round: no window at all), the
// rest through a window. Big-endian (the sender swaps into the packed
// copy) and native (borrowed: written from the caller's buffer itself).
TEST(Transfer, AnAggregatorsOwnRoundsAreWrittenFromItsPackedCopy) {
  auto g = world_group();
  const int64_t n = 1000;
  const int64_t lo = n * g->rank() / g->size(), hi = n * (g->rank() + 1) / g->size();
  std::vector<double> v;
  for (int64_t i = lo; i < hi; ++i) v.push_back(static_cast<double>(i) * 0.5 - 3);
  for (ByteOrder order : {ByteOrder::kBig, ByteOrder::kNative}) {
    auto runs = ascending(n, lo, hi);
    ASSERT_TRUE(runs.ok());
    CollectiveOptions o;
    o.buffering = Buffering::kAlways;  // through the aggregators, whatever auto would choose
    o.buffer_bytes = 64 * 8;
    o.aggregator_ranks = {0};
    o.byte_order = order;
    auto d = Decomposition::create(*g, std::move(runs).value(), n, ElementType::kDouble, o);
    ASSERT_TRUE(d.ok()) << d.status().message();
    MemoryTarget mem;
    const bool borrow = order == ByteOrder::kNative;
    auto w = Transfer::start_write(**d, mem.target, 16, ElementType::kDouble, v.data(), borrow);
    ASSERT_TRUE(w.ok() && (*w)->wait().ok());
    if (g->rank() == 0) {
      std::vector<double> file(n);
      size_t got = 0;
      ASSERT_TRUE(mem.dev->read_at(16, file.data(), n * 8, &got).ok());
      ASSERT_EQ(got, static_cast<size_t>(n * 8));
      if (order == ByteOrder::kBig) swap_bytes(ElementType::kDouble, file.data(), n);
      size_t wrong = 0;
      for (int64_t i = 0; i < n; ++i) wrong += file[i] != static_cast<double>(i) * 0.5 - 3;
      EXPECT_EQ(wrong, 0u);
      const uint64_t packed = borrow ? 0 : v.size() * 8;
      if (g->size() == 1) {
        EXPECT_EQ((*w)->counts().buffer_bytes, packed);  // no window
      } else {
        EXPECT_GT((*w)->counts().buffer_bytes, packed);  // the others' rounds need one
      }
    }
    ASSERT_TRUE((*d)->free().ok());
  }
}

// The same layout read back: rank 0's rounds that hold only its own
// elements are read in one request straight into the caller's buffer (in
// file order, no conversion), at one rank the whole file in one request
// with no buffer at all; the others' rounds one request each, through a
// window. Blocking (prepared as pario_decomp_read does) that request runs
// on the calling thread after the rounds the others wait for; nonblocking,
// begin() hands it to the engine. Read 100 elements further on, the last
// 100 lie past the target's end and read as zeros.
TEST(Transfer, AnAggregatorsOwnRoundsAreReadInOneRequest) {
  auto g = world_group();
  const int64_t n = 1000, round = 64;
  const int64_t lo = n * g->rank() / g->size(), hi = n * (g->rank() + 1) / g->size();
  std::vector<double> v;
  for (int64_t i = lo; i < hi; ++i) v.push_back(static_cast<double>(i) * 0.5 - 3);
  auto runs = ascending(n, lo, hi);
  ASSERT_TRUE(runs.ok());
  CollectiveOptions o;
  o.buffering = Buffering::kAlways;  // through the aggregators, whatever auto would choose
  o.buffer_bytes = round * 8;
  o.aggregator_ranks = {0};
  auto d = Decomposition::create(*g, std::move(runs).value(), n, ElementType::kDouble, o);
  ASSERT_TRUE(d.ok()) << d.status().message();
  MemoryTarget mem;
  auto w = Transfer::start_write(**d, mem.target, 16, ElementType::kDouble, v.data());
  ASSERT_TRUE(w.ok() && (*w)->wait().ok());
  const int64_t rounds = (n + round - 1) / round, own_end = n / g->size();  // rank 0's slab: [0, own_end)
  int64_t own_rounds = 0;
  for (int64_t b = 0; b < n; b += round) own_rounds += std::min(b + round, n) <= own_end;
  for (int64_t shift : {0, 100}) {
    for (bool blocking : {true, false}) {
      GateEngine gate;
      DeviceTarget target(mem.dev.get(), &gate);
      std::vector<double> back(v.size(), -1);
      Status local;
      std::unique_ptr<Transfer> r =
          Transfer::prepare(**d, target, 16 + static_cast<uint64_t>(shift) * 8, device::IoKind::kRead,
                            ElementType::kDouble, back.data(), blocking ? Transfer::kBlocking : Transfer::kNonblocking,
                            &local);
      int64_t values[Transfer::kAgreementValues];
      r->agreement_values(values);
      ASSERT_TRUE(comm::agree_max((*d)->comm(), local, values, Transfer::kAgreementValues).ok());
      ASSERT_TRUE(r->begin(values).ok());
      if (g->rank() == 0) {
        EXPECT_EQ(gate.held(), blocking ? 0u : 1u);  // its first rounds are its own
      }
      ASSERT_TRUE(r->wait().ok());
      size_t wrong = 0;
      for (int64_t i = lo; i < hi; ++i) {
        wrong += back[i - lo] != (i + shift < n ? static_cast<double>(i + shift) * 0.5 - 3 : 0.0);
      }
      EXPECT_EQ(wrong, 0u) << "shift " << shift << (blocking ? ", blocking" : ", nonblocking");
      if (g->rank() == 0 && shift == 0) {
        const TransferCounts& c = r->counts();
        EXPECT_EQ(c.io_requests, static_cast<uint64_t>(rounds - own_rounds + 1));
        EXPECT_EQ(gate.submitted(), static_cast<size_t>(rounds - own_rounds + (blocking ? 0 : 1)));
        EXPECT_EQ(c.largest_request, static_cast<uint64_t>(std::min(own_rounds * round, own_end) * 8));
        if (g->size() == 1) {
          EXPECT_EQ(c.buffer_bytes, 0u);  // no packed copy, no window
        }
      }
    }
  }
  ASSERT_TRUE((*d)->free().ok());
}

// Two decompositions lending one SpareBuffers: the aggregator keeps one
// set, the larger one's, which the smaller one's transfers reuse; both
// write correctly through it. The aggregator converts (int32 to int64):
// windows even at one rank.
TEST(Transfer, DecompositionsShareOneSetOfSpareBuffers) {
  auto g = world_group();
  SpareBuffers spare;
  std::unique_ptr<Decomposition> d[2];
  std::vector<int32_t> v[2];
  const int64_t sizes[2] = {1000, 100};
  for (int k = 0; k < 2; ++k) {
    const int64_t n = sizes[k], lo = n * g->rank() / g->size(), hi = n * (g->rank() + 1) / g->size();
    for (int64_t i = lo; i < hi; ++i) v[k].push_back(static_cast<int32_t>(i * 7 + k));
    auto runs = ascending(n, lo, hi);
    ASSERT_TRUE(runs.ok());
    CollectiveOptions o;
    o.buffering = Buffering::kAlways;  // through the aggregators, whatever auto would choose
    o.buffer_bytes = 4096;
    o.aggregator_ranks = {0};
    o.convert = ConvertAt::kAggregator;
    auto made = Decomposition::create(*g, std::move(runs).value(), n, ElementType::kInt64, o);
    ASSERT_TRUE(made.ok()) << made.status().message();
    d[k] = std::move(made).value();
    d[k]->share_buffers(&spare);
  }
  MemoryTarget mem;
  size_t held = 0;
  for (int k : {0, 1, 0, 1}) {
    auto w = Transfer::start_write(*d[k], mem.target, static_cast<uint64_t>(k) * 8000, ElementType::kInt32, v[k].data());
    ASSERT_TRUE(w.ok() && (*w)->wait().ok());
    if (held == 0) held = spare.bytes();
    EXPECT_EQ(spare.bytes(), held) << "after a write of decomposition " << k;
  }
  EXPECT_EQ(held > 0, g->rank() == 0);  // only the aggregator holds buffers
  for (int k = 0; k < 2; ++k) {
    std::vector<int32_t> back(v[k].size(), -1);
    auto r = Transfer::start_read(*d[k], mem.target, static_cast<uint64_t>(k) * 8000, ElementType::kInt32, back.data());
    ASSERT_TRUE(r.ok() && (*r)->wait().ok());
    EXPECT_EQ(back, v[k]);
    ASSERT_TRUE(d[k]->free().ok());
  }
}


// ------------------------------------------------------ direct transfers ---

// Global indices of a 2-D array of `rows` x (per * size) elements cut by
// columns: rank r holds columns [per * r, per * (r + 1)) of every row, its
// rows one after another in memory. Runs of `per` elements, interleaved
// with the other ranks' at more than one rank.
std::vector<int64_t> columns(const comm::Group& g, int64_t rows, int64_t per) {
  std::vector<int64_t> idx;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < per; ++j) idx.push_back(i * per * g.size() + per * g.rank() + j);
  return idx;
}

// A decomposition of `idx` (n elements in all), doubles in the file.
std::unique_ptr<Decomposition> of_indices(const comm::Group& g, int64_t n, const std::vector<int64_t>& idx,
                                          Buffering buffering, ByteOrder order = ByteOrder::kNative) {
  auto runs = runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
  EXPECT_TRUE(runs.ok());
  CollectiveOptions o;
  o.buffer_bytes = 4096;
  o.buffering = buffering;
  o.byte_order = order;
  auto d = Decomposition::create(g, std::move(runs).value(), n, ElementType::kDouble, o);
  EXPECT_TRUE(d.ok()) << d.status().message();
  return d.ok() ? std::move(d).value() : nullptr;
}

// Every rank of the group has the same value.
bool same_everywhere(const comm::Group& g, bool value) {
  int v[2] = {value ? 1 : 0, value ? -1 : 0};
  EXPECT_EQ(MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_MAX, g.comm()), MPI_SUCCESS);
  return v[0] == -v[1];
}

// The mode auto chooses, once, the same on every rank, at 1, 2 and 4
// ranks (and with one emulated node per rank): direct for slabs of long
// runs and for slabs with empty ranks between them; through the
// aggregators for slabs of short runs (kDirectMinRunBytes), for columns
// and for random indices, whose extents interleave at more than one rank
// (at one rank they are one run: direct). always and never override it.
TEST(Decomposition, AutoGoesDirectWhereExtentsDoNotInterleaveAndRunsAreLong) {
  auto g = world_group();
  const int p = g->size(), me = g->rank();
  const int64_t long_run = kDirectMinRunBytes / 8;  // elements
  struct Case {
    const char* name;
    int64_t n;
    std::vector<int64_t> idx;
    bool direct, interleaved;
  };
  std::vector<Case> cases;
  auto slab = [&](int64_t lo, int64_t hi) {
    std::vector<int64_t> idx;
    for (int64_t i = hi - 1; i >= lo; --i) idx.push_back(i);  // reversed: a permutation in memory, one run in the file
    return idx;
  };
  const int64_t big = 2 * long_run * p;
  cases.push_back({"slabs of long runs", big, slab(big * me / p, big * (me + 1) / p), true, false});
  const int64_t small = 100 * p;
  cases.push_back({"slabs of short runs", small, slab(small * me / p, small * (me + 1) / p), false, false});
  // Even ranks hold a slab each (of 2 long runs), odd ranks nothing.
  const int holders = (p + 1) / 2;
  cases.push_back({"slabs and empty ranks", big,
                   me % 2 ? std::vector<int64_t>{} : slab(big * (me / 2) / holders, big * (me / 2 + 1) / holders), true,
                   false});
  cases.push_back({"columns", 4 * long_run * p, columns(*g, 4, long_run), p == 1, p > 1});
  {
    const int64_t n = 4 * long_run * p;
    std::vector<int64_t> idx;
    for (int64_t k = me; k < n; k += p) idx.push_back((k * 7919) % n);  // 7919 is prime: a permutation of [0, n)
    cases.push_back({"random indices", n, idx, p == 1, p > 1});
  }
  // Every other element of a long slab: runs of one element, apart.
  {
    const int64_t n = 4 * long_run * p;
    std::vector<int64_t> idx;
    for (int64_t i = n * me / p; i < n * (me + 1) / p; i += 2) idx.push_back(i);
    cases.push_back({"every other element", n, idx, false, false});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    for (Buffering b : {Buffering::kAuto, Buffering::kAlways, Buffering::kNever}) {
      auto d = of_indices(*g, c.n, c.idx, b);
      ASSERT_NE(d, nullptr);
      const bool want = b == Buffering::kNever || (b == Buffering::kAuto && c.direct);
      EXPECT_EQ(d->direct_io(), want) << "buffering " << static_cast<int>(b);
      EXPECT_EQ(d->interleaved(), c.interleaved);
      EXPECT_TRUE(same_everywhere(*g, d->direct_io()));
      // Direct with the extents apart: no plan was made (no aggregator rounds).
      if (d->direct_io() && !d->interleaved()) {
        EXPECT_TRUE(d->rounds().empty());
      }
      if (d->direct_io()) {
        int64_t held = 0;
        for (const auto& [global, length] : d->direct_runs()) held += length;
        EXPECT_EQ(held, static_cast<int64_t>(c.idx.size()));
      }
      ASSERT_TRUE(d->free().ok());
    }
  }
}

// Direct transfers move each rank's own runs, one request each, with no
// message: int32 in memory, doubles big endian in the file (converted on
// the rank), blocking (on the calling thread) and not (through the
// engine). Each rank's memory device then holds exactly its own runs,
// and a read gives the values back, zeros past the target's end. Slabs
// (auto: direct) and columns (never: direct although they interleave).
TEST(Transfer, DirectTransfersMoveEachRanksOwnRunsWithoutMessages) {
  auto g = world_group();
  const int p = g->size(), me = g->rank();
  const int64_t per = kDirectMinRunBytes / 8;
  struct Layout {
    const char* name;
    int64_t n;
    std::vector<int64_t> idx;
    Buffering buffering;
  };
  std::vector<Layout> layouts;
  {
    const int64_t n = 3 * per * p;
    std::vector<int64_t> idx;
    for (int64_t i = n * (me + 1) / p - 1; i >= n * me / p; --i) idx.push_back(i);
    layouts.push_back({"slabs", n, idx, Buffering::kAuto});
  }
  layouts.push_back({"columns", 3 * per * p, columns(*g, 3, per), Buffering::kNever});
  for (const Layout& l : layouts) {
    SCOPED_TRACE(l.name);
    auto d = of_indices(*g, l.n, l.idx, l.buffering, ByteOrder::kBig);
    ASSERT_NE(d, nullptr);
    ASSERT_TRUE(d->direct_io());
    std::vector<int32_t> v;
    for (int64_t i : l.idx) v.push_back(static_cast<int32_t>(i * 3 - 5));
    for (bool blocking : {true, false}) {
      SCOPED_TRACE(blocking ? "blocking" : "nonblocking");
      MemoryTarget mem;
      auto run = [&](device::IoKind kind, uint64_t offset, void* buf) -> std::unique_ptr<Transfer> {
        Status local;
        std::unique_ptr<Transfer> t = Transfer::prepare(*d, mem.target, offset, kind, ElementType::kInt32, buf,
                                                        blocking ? Transfer::kBlocking : Transfer::kNonblocking,
                                                        &local);
        int64_t values[Transfer::kAgreementValues];
        t->agreement_values(values);
        EXPECT_TRUE(comm::agree_max(d->comm(), local, values, Transfer::kAgreementValues).ok());
        EXPECT_TRUE(t->begin(values).ok());
        EXPECT_TRUE(t->wait().ok());
        return t;
      };
      auto w = run(device::IoKind::kWrite, 8, v.data());
      const TransferCounts& c = w->counts();
      EXPECT_EQ(c.messages_sent + c.messages_received, 0u);
      EXPECT_EQ(c.io_requests, d->direct_runs().size());
      EXPECT_EQ(c.io_bytes, v.size() * 8);
      // This rank's device: its own elements, big endian, and nothing else.
      std::vector<double> file(static_cast<size_t>(l.n) + 1, 0.0);
      size_t got = 0;
      ASSERT_TRUE(mem.dev->read_at(0, file.data(), file.size() * 8, &got).ok());
      swap_bytes(ElementType::kDouble, file.data(), file.size());
      std::vector<bool> mine(static_cast<size_t>(l.n), false);
      for (int64_t i : l.idx) mine[static_cast<size_t>(i)] = true;
      size_t wrong = 0;
      for (int64_t i = 0; i < l.n; ++i) {
        const double at = i + 1 < static_cast<int64_t>(got / 8) ? file[static_cast<size_t>(i) + 1] : 0.0;
        wrong += mine[static_cast<size_t>(i)] ? at != static_cast<double>(i * 3 - 5) : at != 0.0;
      }
      EXPECT_EQ(wrong, 0u);
      for (int64_t shift : {int64_t{0}, per}) {
        std::vector<int32_t> back(v.size(), -1);
        auto r = run(device::IoKind::kRead, 8 + static_cast<uint64_t>(shift) * 8, back.data());
        EXPECT_EQ(r->counts().messages_sent + r->counts().messages_received, 0u);
        size_t bad = 0;
        for (size_t k = 0; k < l.idx.size(); ++k) {
          const int64_t i = l.idx[k] + shift;
          bad += back[k] != (i < l.n && mine[static_cast<size_t>(i)] ? static_cast<int32_t>(i * 3 - 5) : 0);
        }
        EXPECT_EQ(bad, 0u) << "shift " << shift;
      }
    }
    ASSERT_TRUE(d->free().ok());
  }
}

// A direct write whose device fails on the last rank only: every rank
// gets an error (that rank kNoSpace, the others kRemote naming it), none
// hangs, and the decomposition goes on working. A direct read failing on
// one rank likewise (narrowing into int8).
TEST(Transfer, ADirectTransferFailingOnOneRankFailsEveryRank) {
  auto g = world_group();
  const int last = g->size() - 1;
  const int64_t per = kDirectMinRunBytes / 8, n = 2 * per * g->size();
  auto d = of_indices(*g, n, columns(*g, 2, per), Buffering::kNever);
  ASSERT_NE(d, nullptr);
  ASSERT_TRUE(d->direct_io());
  device::FaultPlan plan;
  if (g->rank() == last) {
    plan.fail_errno = ENOSPC;
    plan.fail_after_bytes = 1000;
  }
  auto dev = device::make_fault_device(device::make_memory_device("mem"), plan);
  auto engine = device::make_thread_engine(2);
  DeviceTarget target(dev.get(), engine.get());
  std::vector<double> v(static_cast<size_t>(2 * per), 1000.5);
  auto w = Transfer::start_write(*d, target, 0, ElementType::kDouble, v.data());
  ASSERT_TRUE(w.ok());
  Status s = (*w)->wait();
  EXPECT_EQ(s.code(), g->rank() == last ? Code::kNoSpace : (g->size() > 1 ? Code::kRemote : Code::kNoSpace))
      << s.message();
  MemoryTarget good;
  w = Transfer::start_write(*d, good.target, 0, ElementType::kDouble, v.data());
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE((*w)->wait().ok());
  std::vector<int8_t> small(v.size());
  std::vector<double> fine(v.size());
  auto r = g->rank() == last ? Transfer::start_read(*d, good.target, 0, ElementType::kInt8, small.data())
                             : Transfer::start_read(*d, good.target, 0, ElementType::kDouble, fine.data());
  ASSERT_TRUE(r.ok());
  s = (*r)->wait();
  EXPECT_EQ(s.code(), g->rank() == last ? Code::kOutOfRange : (g->size() > 1 ? Code::kRemote : Code::kOutOfRange))
      << s.message();
  ASSERT_TRUE(d->free().ok());
}

}  // namespace
}  // namespace pario::collective

int main(int argc, char** argv) { return pario::testing_support::run_mpi_tests(argc, argv); }
