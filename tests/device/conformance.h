// The device conformance suite, shared by every test binary that brings
// backends: each test runs the same operations on the device under test and
// on the heap-memory device (the reference) and requires identical results,
// under every asynchronous engine. A binary instantiates the suite with
//   INSTANTIATE_TEST_SUITE_P(Name, Conformance, ValuesIn(params(backends)), param_name);
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device/async.h"
#include "device/device.h"
#include "test_util.h"

namespace pario::device {

struct Backend {
  std::string name;
  std::function<std::unique_ptr<Device>(const std::string& path)> make;
};

enum class EngineKind { kSync, kThreads, kUring };

struct Param {
  Backend backend;
  EngineKind engine;
};

inline std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const char* e[] = {"sync", "threads", "uring"};
  return info.param.backend.name + "_" + e[static_cast<int>(info.param.engine)];
}

// Every backend under every engine.
inline std::vector<Param> params(const std::vector<Backend>& backends) {
  std::vector<Param> out;
  for (auto& b : backends) {
    for (auto e : {EngineKind::kSync, EngineKind::kThreads, EngineKind::kUring}) out.push_back({b, e});
  }
  return out;
}

class Conformance : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    switch (GetParam().engine) {
      case EngineKind::kSync: engine_ = make_sync_engine(); break;
      case EngineKind::kThreads: engine_ = make_thread_engine(3); break;
      case EngineKind::kUring: {
        auto r = make_uring_engine(8, 2);  // small ring: exercises the backlog
        if (!r.ok()) GTEST_SKIP() << "io_uring unavailable: " << r.status().message();
        engine_ = std::move(r).value();
        break;
      }
    }
    path_ = testing::scratch_path("conformance_" + GetParam().backend.name);
    dev_ = GetParam().backend.make(path_);
    ref_ = make_memory_device("reference");
  }
  void TearDown() override {
    if (dev_) (void)dev_->close();
    for (const char* suffix : {"", ".s0", ".s1", ".s2"}) ::unlink((path_ + suffix).c_str());
  }

  void write_both(uint64_t off, const std::vector<char>& data) {
    ASSERT_TRUE(dev_->write_at(off, data.data(), data.size()).ok());
    ASSERT_TRUE(ref_->write_at(off, data.data(), data.size()).ok());
  }

  // Reads [off, off+len) from both and requires equal bytes and counts.
  void expect_same(uint64_t off, size_t len) {
    std::vector<char> a(len, 'a'), b(len, 'b');
    size_t ga = 0, gb = 0;
    ASSERT_TRUE(dev_->read_at(off, a.data(), len, &ga).ok());
    ASSERT_TRUE(ref_->read_at(off, b.data(), len, &gb).ok());
    ASSERT_EQ(ga, gb) << "read count at " << off;
    ASSERT_EQ(0, std::memcmp(a.data(), b.data(), ga)) << "bytes at " << off;
    ASSERT_EQ(*dev_->size(), *ref_->size());
  }

  std::shared_ptr<Request> submit(IoKind k, uint64_t off, void* buf, size_t len) {
    auto r = std::make_shared<Request>(k, dev_.get(), off, buf, len, false);
    engine_->submit(r);
    return r;
  }

  std::unique_ptr<AsyncEngine> engine_;
  std::string path_;
  std::unique_ptr<Device> dev_;
  std::unique_ptr<Device> ref_;
};

}  // namespace pario::device
