#include "base/config.h"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace pario {
namespace {

// Sets an environment variable for one test and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = getenv(name)) {
      had_ = true;
      old_ = old;
    }
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) setenv(name_, old_.c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

TEST(Config, ParsesEveryVariable) {
  ScopedEnv a("PARIO_SCRATCH", "/a:/b::/c");
  ScopedEnv b("PARIO_IO_ENGINE", "threads");
  ScopedEnv c("PARIO_ASYNC_THREADS", "7");
  ScopedEnv d("PARIO_DIRECT", "yes");
  ScopedEnv e("PARIO_STATS", "1");
  ScopedEnv f("PARIO_STATS_FILE", "s.json");
  ScopedEnv g("PARIO_RANKS_PER_NODE", "2");
  ScopedEnv h("PARIO_FILE_BACKEND", "mpiio");
  ScopedEnv i("PARIO_STRIPE_SIZE", "65536");
  Result<Config> r = parse_config_from_env();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->scratch_dirs, (std::vector<std::string>{"/a", "/b", "/c"}));
  EXPECT_EQ(r->io_engine, IoEngineChoice::kThreads);
  EXPECT_EQ(r->async_threads, 7);
  EXPECT_TRUE(r->direct_io);
  EXPECT_TRUE(r->stats);
  EXPECT_EQ(r->stats_file, "s.json");
  EXPECT_EQ(r->ranks_per_node, 2);
  EXPECT_EQ(r->file_backend, FileBackendChoice::kMpiio);
  EXPECT_EQ(r->stripe_size, 65536u);
}

TEST(Config, BadValuesNameTheVariable) {
  {
    ScopedEnv e("PARIO_IO_ENGINE", "fast");
    Result<Config> r = parse_config_from_env();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
    EXPECT_NE(r.status().message().find("PARIO_IO_ENGINE=fast"), std::string::npos);
  }
  {
    ScopedEnv e("PARIO_ASYNC_THREADS", "0");
    EXPECT_FALSE(parse_config_from_env().ok());
  }
  {
    ScopedEnv e("PARIO_ASYNC_THREADS", "4x");
    EXPECT_FALSE(parse_config_from_env().ok());
  }
  {
    ScopedEnv e("PARIO_DIRECT", "maybe");
    Result<Config> r = parse_config_from_env();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("PARIO_DIRECT"), std::string::npos);
  }
  {
    ScopedEnv e("PARIO_FILE_BACKEND", "lustre");
    Result<Config> r = parse_config_from_env();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("posix, striped or mpiio"), std::string::npos);
  }
  {
    ScopedEnv e("PARIO_SCRATCH", ":::");
    EXPECT_FALSE(parse_config_from_env().ok());
  }
}

}  // namespace
}  // namespace pario
