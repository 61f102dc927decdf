#include "base/config.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <fstream>
#include <tuple>

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

// The collective engine's aggregators (collective/decomposition.h): count,
// explicit ranks, buffer; each bad value names its variable.
TEST(Config, AggregatorVariables) {
  {
    Result<Config> r = parse_config_from_env();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->aggregators, 0);  // one per node
    EXPECT_TRUE(r->aggregator_ranks.empty());
    EXPECT_EQ(r->aggregator_buffer, uint64_t{16} << 20);
  }
  {
    ScopedEnv a("PARIO_AGGREGATORS", "3");
    ScopedEnv b("PARIO_AGGREGATOR_RANKS", "0,4,8");
    ScopedEnv c("PARIO_AGGREGATOR_BUFFER", "4M");
    Result<Config> r = parse_config_from_env();
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->aggregators, 3);
    EXPECT_EQ(r->aggregator_ranks, (std::vector<int>{0, 4, 8}));
    EXPECT_EQ(r->aggregator_buffer, uint64_t{4} << 20);
  }
  for (auto [name, bad, expected] :
       {std::tuple{"PARIO_AGGREGATORS", "-1", ""}, std::tuple{"PARIO_AGGREGATORS", "two", ""},
        std::tuple{"PARIO_AGGREGATOR_RANKS", "0,,4", "like 0,4,8"},
        std::tuple{"PARIO_AGGREGATOR_RANKS", "0;4", "like 0,4,8"},
        std::tuple{"PARIO_AGGREGATOR_RANKS", "-2", "like 0,4,8"},
        std::tuple{"PARIO_AGGREGATOR_BUFFER", "0", "1 byte to 1 GiB"},
        std::tuple{"PARIO_AGGREGATOR_BUFFER", "2G", "1 byte to 1 GiB"},
        std::tuple{"PARIO_AGGREGATOR_BUFFER", "lots", "a size in bytes"}}) {
    ScopedEnv e(name, bad);
    Result<Config> r = parse_config_from_env();
    ASSERT_FALSE(r.ok()) << name << "=" << bad;
    EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
    EXPECT_NE(r.status().message().find(std::string(name) + "=" + bad), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find(expected), std::string::npos) << r.status().message();
  }
}

TEST(Config, FilesInMemoryRulesFile) {
  const std::string path = ::testing::TempDir() + "fim_rules.txt";
  {
    std::ofstream out(path);
    out << "# CASPT2 scratch in RAM\n*.int.*   # integrals\n\n  budget = 2G\nspill=error\nERI*\n";
  }
  ScopedEnv a("PARIO_FIM_RULES", path.c_str());
  ScopedEnv b("PARIO_FIM", "JOB*");
  Result<Config> r = parse_config_from_env();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->fim_patterns, (std::vector<std::string>{"*.int.*", "ERI*", "JOB*"}));
  EXPECT_EQ(r->fim_budget, uint64_t{2} << 30);
  EXPECT_FALSE(r->fim_spill);
  {
    ScopedEnv over("PARIO_FIM_BUDGET", "1M");  // the environment wins
    EXPECT_EQ(parse_config_from_env()->fim_budget, uint64_t{1} << 20);
  }
  {
    std::ofstream out(path);
    out << "*.int\nbudget = lots\n";
  }
  r = parse_config_from_env();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("fim_rules.txt:2: budget lots"), std::string::npos) << r.status().message();
  {
    std::ofstream out(path);
    out << "colour = blue\n";
  }
  r = parse_config_from_env();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(":1: unknown setting 'colour'"), std::string::npos);
  std::remove(path.c_str());
  ScopedEnv missing("PARIO_FIM_RULES", "/nonexistent/rules");
  EXPECT_FALSE(parse_config_from_env().ok());
}

TEST(Config, FilesInMemoryRules) {
  ScopedEnv a("PARIO_FIM", "*.int:ERI*,/scratch/keep/*");
  ScopedEnv b("PARIO_FIM_BUDGET", "1.5G");
  ScopedEnv c("PARIO_FIM_SPILL", "error");
  Result<Config> r = parse_config_from_env();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->fim_patterns, (std::vector<std::string>{"*.int", "ERI*", "/scratch/keep/*"}));
  EXPECT_EQ(r->fim_budget, uint64_t{3} << 29);
  EXPECT_FALSE(r->fim_spill);
  EXPECT_TRUE(fim_matches(r->fim_patterns, "/tmp/run/h2o.int"));
  EXPECT_TRUE(fim_matches(r->fim_patterns, "/tmp/ERI.0"));
  EXPECT_TRUE(fim_matches(r->fim_patterns, "/scratch/keep/x.0"));
  EXPECT_FALSE(fim_matches(r->fim_patterns, "/tmp/keep/x.0"));  // a '/' pattern matches whole paths only
  EXPECT_FALSE(fim_matches(r->fim_patterns, "/tmp/h2o.int.0"));
  ScopedEnv d("PARIO_FIM_BUDGET", "10%");
  r = parse_config_from_env();
  ASSERT_TRUE(r.ok());
  EXPECT_GT(r->fim_budget, 0u);
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
    ScopedEnv e("PARIO_COLLECTIVE_CONVERT", "receiver");
    Result<Config> r = parse_config_from_env();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("auto, sender or aggregator"), std::string::npos);
  }
  for (auto [text, want] : {std::pair{"auto", CollectiveConvertChoice::kAuto},
                            std::pair{"sender", CollectiveConvertChoice::kSender},
                            std::pair{"aggregator", CollectiveConvertChoice::kAggregator}}) {
    ScopedEnv e("PARIO_COLLECTIVE_CONVERT", text);
    Result<Config> r = parse_config_from_env();
    ASSERT_TRUE(r.ok()) << text;
    EXPECT_EQ(r->collective_convert, want) << text;
  }
  {
    ScopedEnv e("PARIO_FILE_BACKEND", "lustre");
    Result<Config> r = parse_config_from_env();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("posix, striped or mpiio"), std::string::npos);
  }
  for (const char* bad : {"gzip", "zstd:", "zstd:0", "zstd:23", "zstd:3x"}) {
    ScopedEnv e("PARIO_DISK_ARRAY_CODEC", bad);
    Result<Config> r = parse_config_from_env();
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find(std::string("PARIO_DISK_ARRAY_CODEC=") + bad), std::string::npos);
  }
  for (auto [text, level] : {std::pair{"none", -1}, std::pair{"zstd", 3}, std::pair{"zstd:19", 19}}) {
    ScopedEnv e("PARIO_DISK_ARRAY_CODEC", text);
    Result<Config> r = parse_config_from_env();
    ASSERT_TRUE(r.ok()) << text;
    EXPECT_EQ(r->disk_array_zstd_level, level) << text;
  }
  {
    ScopedEnv e("PARIO_DISK_ARRAY_SHARD", "0");
    Result<Config> r = parse_config_from_env();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->disk_array_shard, 0u);
  }
  {
    ScopedEnv e("PARIO_DISK_ARRAY_SHARD", "1G");
    Result<Config> r = parse_config_from_env();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->disk_array_shard, uint64_t{1} << 30);
  }
  {
    ScopedEnv e("PARIO_DISK_ARRAY_SHARD", "big");
    Result<Config> r = parse_config_from_env();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("PARIO_DISK_ARRAY_SHARD=big"), std::string::npos);
  }
  for (const char* bad : {"lots", "12Q", "-1G", "150%"}) {
    ScopedEnv e("PARIO_FIM_BUDGET", bad);
    Result<Config> r = parse_config_from_env();
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find(std::string("PARIO_FIM_BUDGET=") + bad), std::string::npos);
  }
  {
    ScopedEnv e("PARIO_FIM", "::");
    EXPECT_FALSE(parse_config_from_env().ok());
  }
  {
    ScopedEnv e("PARIO_FIM_SPILL", "ram");
    EXPECT_FALSE(parse_config_from_env().ok());
  }
  {
    ScopedEnv e("PARIO_SCRATCH", ":::");
    EXPECT_FALSE(parse_config_from_env().ok());
  }
}

}  // namespace
}  // namespace pario
