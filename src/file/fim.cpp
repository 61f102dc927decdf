#include "file/fim.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "base/config.h"
#include "base/stats.h"

namespace pario::file::fim {
namespace {

struct State {
  std::mutex mu;
  std::shared_ptr<device::RamBudget> budget;
  std::map<std::string, std::shared_ptr<device::RamFile>> private_files;
};

State& state() {
  static State s;
  return s;
}

// The node's budget; without start() (no pario_init) a budget of this
// process alone.
Result<std::shared_ptr<device::RamBudget>> budget() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.budget) {
    PARIO_ASSIGN_OR_RETURN(const Config* cfg, config());
    PARIO_ASSIGN_OR_RETURN(s.budget, device::RamBudget::create(cfg->fim_budget));
    s.budget->unlink_name();
  }
  return s.budget;
}

device::SpillOpener spill_to(const Placement& disk, const std::string& path) {
  const Config* cfg = *config();
  if (!cfg->fim_spill) {
    const uint64_t limit = cfg->fim_budget;
    return [path, limit](bool) -> Result<std::unique_ptr<device::Device>> {
      return Status(Code::kNoSpace, path + ": the RAM budget of " + std::to_string(limit) +
                                        " bytes per node is spent (PARIO_FIM_SPILL=error)");
    };
  }
  return [disk](bool create) {
    device::OpenOptions o;
    o.create = create;
    return open_device(disk, o);
  };
}

// Counts a file's move to RAM (or why it stayed on disk) in the statistics.
void note(const std::string& path, const std::string& what) {
  if (StatsRegistry::global().enabled()) StatsRegistry::global().set_note("fim " + path, what);
}

}  // namespace

Status start(const comm::Comm& world, int ranks_per_node) {
  PARIO_ASSIGN_OR_RETURN(const Config* cfg, config());
  comm::Comm node;
  PARIO_ASSIGN_OR_RETURN(comm::NodeTopology topo, comm::node_topology(world, ranks_per_node, &node));
  // Dead jobs' segments go first (one rank per node is enough).
  Status s = topo.node_rank == 0 ? device::remove_stale_segments().status() : Status::Ok();
  PARIO_RETURN_IF_ERROR(comm::agree(world, s));
  if (cfg->fim_patterns.empty()) return Status::Ok();
  // The node master creates the budget; the others attach by name.
  std::shared_ptr<device::RamBudget> b;
  std::string name;
  s = Status::Ok();
  if (topo.node_rank == 0) {
    Result<std::shared_ptr<device::RamBudget>> made = device::RamBudget::create(cfg->fim_budget);
    if (made.ok()) {
      b = std::move(made).value();
      name = b->name();
    }
    s = made.status();
  }
  PARIO_RETURN_IF_ERROR(comm::agree(world, s));
  PARIO_RETURN_IF_ERROR(comm::broadcast_string(node, &name, 0));
  if (topo.node_rank != 0) {
    Result<std::shared_ptr<device::RamBudget>> got = device::RamBudget::attach(name);
    s = got.status();
    if (got.ok()) b = std::move(got).value();
  }
  PARIO_RETURN_IF_ERROR(comm::agree(world, s));
  if (b) b->unlink_name();  // all attached: the name is no longer needed
  std::lock_guard<std::mutex> lock(state().mu);
  state().budget = std::move(b);
  return Status::Ok();
}

Status stop() {
  State& s = state();
  std::map<std::string, std::shared_ptr<device::RamFile>> files;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    files.swap(s.private_files);
  }
  Status first;
  for (auto& [path, file] : files) {
    Result<Placement> disk = place(path, 0);
    Status w = disk.ok() ? write_to_disk(file, path, *disk) : disk.status();
    if (first.ok() && !w.ok()) first = w;
  }
  files.clear();
  std::lock_guard<std::mutex> lock(s.mu);
  s.budget.reset();
  return first;
}

bool wants_ram(const std::string& path) {
  Result<const Config*> cfg = config();
  return cfg.ok() && fim_matches(**cfg, path);
}

Result<std::unique_ptr<device::Device>> open_private(const std::string& path, const Placement& disk,
                                                     const device::OpenOptions& o) {
  std::shared_ptr<device::RamFile> file;
  {
    std::lock_guard<std::mutex> lock(state().mu);
    auto it = state().private_files.find(path);
    if (it != state().private_files.end()) {
      if (o.exclusive) return Status(Code::kExists, path + ": exists (in RAM)");
      file = it->second;
    }
  }
  if (!file) {
    const bool on_disk = ::access(disk.paths[0].c_str(), F_OK) == 0;
    if (on_disk && !o.truncate) {
      if (o.exclusive) return Status(Code::kExists, path + ": exists");
      return std::unique_ptr<device::Device>();  // an existing disk file stays there
    }
    if (!on_disk && !o.create) return Status(Code::kNotFound, path + ": no such file");
    if (on_disk) PARIO_RETURN_IF_ERROR(remove_files(disk));  // truncated: the old bytes go
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<device::RamBudget> b, budget());
    PARIO_ASSIGN_OR_RETURN(file, device::RamFile::create(b));
    file->unlink_name();  // private: nobody else attaches
    std::lock_guard<std::mutex> lock(state().mu);
    state().private_files[path] = file;
    note(path, "in RAM");
  }
  auto dev = device::make_ram_device(path, file, spill_to(disk, path));
  if (o.truncate) PARIO_RETURN_IF_ERROR(dev->truncate(0));
  return dev;
}

bool forget_private(const std::string& path) {
  std::lock_guard<std::mutex> lock(state().mu);
  return state().private_files.erase(path) > 0;
}

Result<std::shared_ptr<device::RamFile>> create_shared(const comm::Comm& comm, const std::string& path) {
  if (!wants_ram(path)) return std::shared_ptr<device::RamFile>();
  PARIO_ASSIGN_OR_RETURN(const Config* cfg, config());
  PARIO_ASSIGN_OR_RETURN(comm::NodeTopology topo, comm::node_topology(comm, cfg->ranks_per_node));
  if (topo.nodes > 1) {
    note(path, "on disk: the group spans " + std::to_string(topo.nodes) + " nodes");
    return std::shared_ptr<device::RamFile>();
  }
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<device::RamBudget> b, budget());
  std::shared_ptr<device::RamFile> file;
  std::string name;
  Status s;
  if (comm.rank() == 0) {
    Result<std::shared_ptr<device::RamFile>> made = device::RamFile::create(b);
    s = made.status();
    if (made.ok()) {
      file = std::move(made).value();
      name = file->name();
    }
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, s));
  PARIO_RETURN_IF_ERROR(comm::broadcast_string(comm, &name, 0));
  if (comm.rank() != 0) {
    Result<std::shared_ptr<device::RamFile>> got = device::RamFile::attach(name, b);
    s = got.status();
    if (got.ok()) file = std::move(got).value();
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, s));
  file->unlink_name();
  note(path, "in RAM, one copy for the node's " + std::to_string(comm.size()) + " ranks");
  return file;
}

std::unique_ptr<device::Device> shared_device(const std::string& path,
                                              std::shared_ptr<device::RamFile> file,
                                              const Placement& disk) {
  return device::make_ram_device(path, std::move(file), spill_to(disk, path));
}

Status write_to_disk(const std::shared_ptr<device::RamFile>& file, const std::string& path,
                     const Placement& disk) {
  device::OpenOptions o;
  o.create = true;
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> out, open_device(disk, o));
  // Copy the RAM part through a RAM device (the disk part is there already).
  auto ram = device::make_ram_device(path, file, [](bool) -> Result<std::unique_ptr<device::Device>> {
    return Status(Code::kNotFound, "no spill needed");
  });
  const uint64_t size = file->size(), in_ram = std::min(size, file->ram_end());
  std::vector<char> buf(std::min<uint64_t>(in_ram, uint64_t{8} << 20));
  for (uint64_t at = 0; at < in_ram; at += buf.size()) {
    const size_t n = std::min<uint64_t>(buf.size(), in_ram - at);
    size_t got = 0;
    PARIO_RETURN_IF_ERROR(ram->read_at(at, buf.data(), n, &got));
    PARIO_RETURN_IF_ERROR(out->write_at(at, buf.data(), n));
  }
  PARIO_RETURN_IF_ERROR(out->truncate(size));
  PARIO_RETURN_IF_ERROR(ram->close());
  return out->close();
}

}  // namespace pario::file::fim
