// C API: status strings, last error, start-up and shut-down, statistics.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/config.h"
#include "base/stats.h"
#include "capi/boundary.h"
#include "capi/options.h"
#include "capi/runtime.h"
#include "comm/comm.h"
#include "comm/stats_gather.h"
#include "device/async.h"
#include "device/device.h"
#include "file/fim.h"
#include "pario/runtime.h"
#include "pario/status.h"

namespace pario::capi {
namespace {

thread_local std::string last_error;

struct Runtime {
  bool up = false;
  comm::NodeTopology topology;
  std::shared_ptr<comm::Group> world;
};

Runtime& runtime() {
  static Runtime r;
  return r;
}

size_t copy_out(const std::string& s, char* buf, size_t len) {
  if (buf && len > 0) std::snprintf(buf, len, "%s", s.c_str());
  return s.size();
}

// "%r" in the path becomes `who` (a rank, or "sum"); without it, several
// ranks' files get ".<who>" appended.
std::string stats_path_for(std::string path, const std::string& who) {
  size_t at = path.find("%r");
  if (at != std::string::npos) return path.replace(at, 2, who);
  if (comm::initialized() && comm::world().size() > 1) path += "." + who;
  return path;
}

// As every pario file: private (0600), written whole before it takes its
// name, and a symbolic link at the name is replaced, never followed.
Status write_text(const std::string& path, const std::string& text) {
  PARIO_ASSIGN_OR_RETURN(device::NewFile f, device::NewFile::create(path));
  PARIO_RETURN_IF_ERROR(f.device().write_at(0, text.data(), text.size()).with_context(path));
  return f.publish(true).with_context(path);
}

Status write_stats_json(const std::string& path, int rank) {
  return write_text(path, StatsRegistry::global().json(rank) + "\n");
}

// Collective: the totals of every rank, summed on rank 0, which prints
// them (PARIO_STATS) and writes them as JSON (PARIO_STATS_FILE, "%r" = sum).
Status report_totals(const Config& cfg) {
  const comm::Comm& world = comm::world();
  StatsTotals t = StatsRegistry::global().totals();
  PARIO_RETURN_IF_ERROR(comm::gather_stats(world, &t));
  // Rank 0 reports; with one rank its own table says it all.
  if (world.rank() != 0 || world.size() == 1) return Status::Ok();
  if (cfg.stats) std::fprintf(stderr, "%s", t.table(world.size()).c_str());
  if (cfg.stats_file.empty()) return Status::Ok();
  return write_text(stats_path_for(cfg.stats_file, "sum"), t.json(world.size()) + "\n");
}

int world_rank() { return comm::initialized() ? comm::world().rank() : 0; }

}  // namespace

Result<std::shared_ptr<comm::Group>> world_group() {
  if (!runtime().up) return Status(Code::kState, "call pario_init first");
  return runtime().world;
}

int fail(const char* call, const Status& status) {
  last_error = std::string(call) + ": " + status.message();
  return status.raw_code();
}

}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

extern "C" {

const char* pario_status_string(int code) { return code_name(code); }

size_t pario_last_error_message(char* buf, size_t len) { return copy_out(last_error, buf, len); }

int pario_report_error(int code, const char* call, const char* message) {
  if (code <= PARIO_OK || code > PARIO_ERR_PERMISSION) return PARIO_ERR_INVALID_ARGUMENT;
  last_error = std::string(call ? call : "(unnamed call)") + ": " + (message ? message : "");
  return code;
}

const char* pario_version(void) { return PARIO_VERSION; }

int pario_init(void) {
  return guarded("pario_init", [&]() -> Status {
    Runtime& rt = runtime();
    if (rt.up) return Status::Ok();
    // Configuration first: a bad variable must fail before MPI starts, and
    // on every rank alike (all ranks see the same environment).
    PARIO_ASSIGN_OR_RETURN(const Resources* res, resources());
    PARIO_RETURN_IF_ERROR(comm::initialize());
    const Config& cfg = *res->config;
    Result<std::shared_ptr<comm::Group>> world =
        comm::Group::create(comm::world().get(), cfg.ranks_per_node);
    Status agreed = comm::agree(comm::world(), world.status());
    if (agreed.ok()) {
      rt.world = std::move(world).value();
      // Files in Memory: dead jobs' segments go, the node's RAM budget comes.
      agreed = file::fim::start(comm::world(), {cfg.fim_patterns, cfg.fim_budget, cfg.fim_spill}, res->files);
    }
    if (!agreed.ok()) {
      rt.world.reset();  // its communicators go before MPI does
      (void)comm::finalize();
      return agreed;
    }
    rt.topology = rt.world->topology();
    rt.up = true;
    return Status::Ok();
  });
}

int pario_finalize(void) {
  return guarded("pario_finalize", [&]() -> Status {
    Runtime& rt = runtime();
    if (!rt.up) return Status::Ok();
    // Datasets first (HDF5 holds MPI files and communicators), then
    // windows, before MPI goes: nothing left open or in shared memory.
    Status st = close_leftover_datasets();
    const Status arrays = close_leftovers();
    if (st.ok()) st = arrays;
    Status ram = file::fim::stop();  // RAM files still there go to disk
    if (st.ok()) st = ram;
    Result<const Config*> cfg = config();  // pario_init parsed it
    if (cfg.ok() && (*cfg)->stats) {
      std::fprintf(stderr, "[rank %d] %s", world_rank(), StatsRegistry::global().table().c_str());
    }
    if (cfg.ok() && !(*cfg)->stats_file.empty()) {
      Status w = write_stats_json(stats_path_for((*cfg)->stats_file, std::to_string(world_rank())),
                                  world_rank());
      if (st.ok()) st = w;
    }
    if (cfg.ok() && ((*cfg)->stats || !(*cfg)->stats_file.empty())) {
      Status w = report_totals(**cfg);
      if (st.ok()) st = w;
    }
    rt.world.reset();  // its communicators go before MPI does
    Status down = comm::finalize();
    rt.up = false;
    return st.ok() ? down : st;
  });
}

void pario_abort(int error_code) {
  int mpi_up = 0, mpi_down = 0;
  MPI_Initialized(&mpi_up);
  MPI_Finalized(&mpi_down);
  std::fflush(nullptr);
  if (mpi_up && !mpi_down) MPI_Abort(MPI_COMM_WORLD, error_code);
  std::_Exit(error_code);
}

int pario_initialized(int* flag_out) {
  if (!flag_out) return fail("pario_initialized", invalid("flag_out is null"));
  *flag_out = runtime().up ? 1 : 0;
  return PARIO_OK;
}

int pario_world_rank(int* rank_out) {
  if (!rank_out) return fail("pario_world_rank", invalid("rank_out is null"));
  *rank_out = world_rank();
  return PARIO_OK;
}

int pario_world_size(int* size_out) {
  if (!size_out) return fail("pario_world_size", invalid("size_out is null"));
  *size_out = comm::initialized() ? comm::world().size() : 1;
  return PARIO_OK;
}

int pario_node_info(int* node_out, int* nodes_out, int* node_rank_out, int* node_size_out) {
  return guarded("pario_node_info", [&]() -> Status {
    if (!node_out || !nodes_out || !node_rank_out || !node_size_out) {
      return invalid("an output pointer is null");
    }
    if (!runtime().up) return Status(Code::kState, "call pario_init first");
    const comm::NodeTopology& t = runtime().topology;
    *node_out = t.node;
    *nodes_out = t.nodes;
    *node_rank_out = t.node_rank;
    *node_size_out = t.node_size;
    return Status::Ok();
  });
}

int pario_io_engine(char* buf, size_t len) {
  return guarded("pario_io_engine", [&]() -> Status {
    if (!buf || len == 0) return invalid("buf is null or len is 0");
    Result<const Resources*> res = resources();
    copy_out(res.ok() ? (*res)->engine_description : "none (" + res.status().message() + ")", buf, len);
    return Status::Ok();
  });
}

int pario_stats_write_json(const char* path) {
  return guarded("pario_stats_write_json", [&]() -> Status {
    if (!path || !*path) return invalid("path is null or empty");
    return write_stats_json(path, world_rank());
  });
}

size_t pario_stats_table(char* buf, size_t len) {
  return copy_out(StatsRegistry::global().table(), buf, len);
}

}  // extern "C"
