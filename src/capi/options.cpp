#include "capi/options.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/stats.h"
#include "capi/boundary.h"
#include "capi/dataset_options.h"
#include "capi/exodus_options.h"
#include "file/storage.h"
#include "pario/dataset.h"

namespace pario::capi {
namespace {

// The entry of `values` whose name the environment variable `var` holds
// (unset or empty: the first); another name is kInvalidArgument naming
// the variable and the names it takes.
template <typename T, size_t N>
Result<T> env_choice(const char* var, const char* const (&names)[N], const T (&values)[N]) {
  const char* v = std::getenv(var);
  if (!v || !*v) return values[0];
  std::string expected;
  for (size_t i = 0; i < N; ++i) {
    if (!std::strcmp(v, names[i])) return values[i];
    expected += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i];
  }
  return Status(Code::kInvalidArgument, std::string(var) + "=" + v + ": expected " + expected);
}

// PARIO_COLLECTIVE_BUFFERING. Read here rather than in base/config.h,
// which nearly every layer includes (as PARIO_EXODUS_SYNC below): it
// concerns the collective engine alone.
Result<collective::Buffering> buffering_from_env() {
  static const char* const names[] = {"auto", "always", "never"};
  static const collective::Buffering values[] = {collective::Buffering::kAuto, collective::Buffering::kAlways,
                                                 collective::Buffering::kNever};
  return env_choice("PARIO_COLLECTIVE_BUFFERING", names, values);
}

Result<Resources*> build() {
  PARIO_ASSIGN_OR_RETURN(const Config* cfg, config());
  PARIO_ASSIGN_OR_RETURN(const collective::Buffering buffering, buffering_from_env());
  auto* r = new Resources();
  r->config = cfg;
  device::EngineOptions engine{cfg->io_engine, cfg->async_threads, cfg->uring_depth};
  r->engine = device::make_engine(engine, &r->engine_description);
  StatsRegistry::global().set_note("io_engine", r->engine_description);

  file::FileSettings& f = r->files;
  f.backend = cfg->file_backend;
  f.scratch_dirs = cfg->scratch_dirs;
  f.stripe_size = cfg->stripe_size;
  f.direct = cfg->direct_io;
  f.ranks_per_node = cfg->ranks_per_node;
  f.engine = r->engine.get();

  diskarray::DiskArrayOptions& d = r->disk_arrays;
  d.buffer_bytes = cfg->disk_array_buffer;
  d.zstd_level = cfg->disk_array_zstd_level;
  d.shard_bytes = cfg->disk_array_shard;
  // PARIO_IO_ENGINE=sync: chunks move inside the call, as its requests do.
  if (cfg->io_engine != IoEngineChoice::kSync) {
    d.io_threads = std::make_shared<ThreadPool>(std::max(1, cfg->async_threads));
  }
  d.buffers = std::make_shared<BufferPool>(static_cast<size_t>(std::min<uint64_t>(cfg->disk_array_buffer, SIZE_MAX)));

  collective::CollectiveOptions& c = r->collective;
  c.aggregators = cfg->aggregators;
  c.aggregator_ranks = cfg->aggregator_ranks;
  c.buffer_bytes = static_cast<int64_t>(cfg->aggregator_buffer);
  c.convert = cfg->collective_convert == CollectiveConvertChoice::kSender       ? collective::ConvertAt::kSender
              : cfg->collective_convert == CollectiveConvertChoice::kAggregator ? collective::ConvertAt::kAggregator
                                                                                : collective::ConvertAt::kAuto;
  c.buffering = buffering;
  return r;
}

}  // namespace

Result<const Resources*> resources() {
  static const Result<Resources*> built = build();  // a bad variable fails every call alike
  if (!built.ok()) return built.status();
  return *built;
}

Result<diskarray::DiskArrayOptions> disk_array_options(const std::string& path, bool one_node, bool making) {
  PARIO_ASSIGN_OR_RETURN(const Resources* r, resources());
  if (making) PARIO_RETURN_IF_ERROR(file::check_store_backend(path, r->files));
  diskarray::DiskArrayOptions o = r->disk_arrays;
  // PARIO_IO_ENGINE=io_uring: the chunk files' transfers go through the
  // ring. Not under auto: there the I/O threads call the files themselves,
  // since the ring took one request per row of a scattered chunk: 0.24-1.35x
  // the threads path, median 0.69 (bench/run dra --quick, docs/performance.md). The thread
  // engine would only add a hop to those threads; sync has them on the
  // calling thread (io_threads is null).
  const bool uring = r->config->io_engine == IoEngineChoice::kUring && r->engine_description == "io_uring";
  o.storage = file::storage_for(path, r->files, one_node, uring ? r->engine.get() : nullptr);
  return o;
}

// The environment's options with the call's hints over them.
Result<collective::CollectiveOptions> collective_options(const pario_decomp_hints* hints) {
  PARIO_ASSIGN_OR_RETURN(const Resources* r, resources());
  collective::CollectiveOptions o = r->collective;
  if (!hints) return o;
  if (hints->aggregators < 0) return invalid("hints->aggregators is negative");
  if (hints->aggregators > 0) {
    o.aggregators = hints->aggregators;
    o.aggregator_ranks.clear();
    if (hints->aggregator_ranks) o.aggregator_ranks.assign(hints->aggregator_ranks, hints->aggregator_ranks + hints->aggregators);
  } else if (hints->aggregator_ranks) {
    return invalid("hints->aggregator_ranks needs hints->aggregators, its length");
  }
  if (hints->buffer_size < 0 || hints->buffer_size > collective::kMaxBufferBytes) {
    return invalid("hints->buffer_size " + std::to_string(hints->buffer_size) + " is not in 0.." +
                   std::to_string(collective::kMaxBufferBytes));
  }
  if (hints->buffer_size > 0) o.buffer_bytes = hints->buffer_size;
  if (hints->align < 0) return invalid("hints->align is negative");
  o.align_bytes = hints->align;
  if (hints->byte_order < PARIO_BYTE_ORDER_NATIVE || hints->byte_order > PARIO_BYTE_ORDER_BIG) {
    return invalid("hints->byte_order " + std::to_string(hints->byte_order) + " is not a PARIO_BYTE_ORDER_*");
  }
  o.byte_order = static_cast<ByteOrder>(hints->byte_order);
  switch (hints->convert) {
    case PARIO_CONVERT_DEFAULT: break;
    case PARIO_CONVERT_AUTO: o.convert = collective::ConvertAt::kAuto; break;
    case PARIO_CONVERT_SENDER: o.convert = collective::ConvertAt::kSender; break;
    case PARIO_CONVERT_AGGREGATOR: o.convert = collective::ConvertAt::kAggregator; break;
    default: return invalid("hints->convert " + std::to_string(hints->convert) + " is not a PARIO_CONVERT_*");
  }
  switch (hints->buffering) {
    case PARIO_BUFFERING_DEFAULT: break;
    case PARIO_BUFFERING_AUTO: o.buffering = collective::Buffering::kAuto; break;
    case PARIO_BUFFERING_ALWAYS: o.buffering = collective::Buffering::kAlways; break;
    case PARIO_BUFFERING_NEVER: o.buffering = collective::Buffering::kNever; break;
    default:
      return invalid("hints->buffering " + std::to_string(hints->buffering) + " is not a PARIO_BUFFERING_*");
  }
  return o;
}

Result<collective::CollectiveOptions> entry_collective_options(Entry& e, const pario_decomp_hints* hints) {
  Result<collective::CollectiveOptions> o = collective_options(hints);
  e.check(o);
  if (o.ok()) {
    e.args().add("aggregators", o->aggregators).add("buffer_size", o->buffer_bytes);
    e.args().add("aggregator_ranks", o->aggregator_ranks.data(), o->aggregator_ranks.size());
    e.args().add("align", o->align_bytes).add("convert", static_cast<int64_t>(o->convert));
    e.args().add("buffering", static_cast<int64_t>(o->buffering));
  }
  return o;
}

Result<exodus::StepSync> exodus_step_sync() {
  // Read here, next to config(), because base/config.h is included by
  // nearly every layer and this setting concerns one writer. step by
  // default: a writer killed during step k leaves 1..k-1 readable (issue
  // 27; SEACAS syncs each step through ex_update too).
  static const char* const names[] = {"step", "overlap", "none"};
  static const exodus::StepSync values[] = {exodus::StepSync::kStep, exodus::StepSync::kOverlap,
                                            exodus::StepSync::kNone};
  static const Result<exodus::StepSync> choice = env_choice("PARIO_EXODUS_SYNC", names, values);
  return choice;
}

Result<int> dataset_sync_policy() {
  // Read here, next to config(), for the reason exodus_step_sync says.
  static const char* const names[] = {"fsync", "write", "none"};
  static const int values[] = {PARIO_DATASET_SYNC_FSYNC, PARIO_DATASET_SYNC_WRITE, PARIO_DATASET_SYNC_NONE};
  static const Result<int> choice = env_choice("PARIO_DATASET_SYNC", names, values);
  return choice;
}

Result<WavefunctionTransferChoice> wavefunction_transfer(int hint) {
  if (hint < 0 || hint > static_cast<int>(WavefunctionTransferChoice::kAggregators)) {
    return invalid("transfer " + std::to_string(hint) + " is not a PARIO_WF_TRANSFER_*");
  }
  if (hint != 0) return static_cast<WavefunctionTransferChoice>(hint);
  PARIO_ASSIGN_OR_RETURN(const Resources* r, resources());
  return r->config->wavefunction_transfer;
}

}  // namespace pario::capi
