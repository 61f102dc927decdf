#include "file/fim.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "base/stats.h"

namespace pario::file::fim {
namespace {

struct State {
  std::mutex mu;
  Rules rules;            // from start(); none before it
  FileSettings settings;  // where RAM files spill and go at stop()
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
    PARIO_ASSIGN_OR_RETURN(s.budget, device::RamBudget::create(s.rules.budget));
    s.budget->unlink_name();
  }
  return s.budget;
}

Rules rules() {
  std::lock_guard<std::mutex> lock(state().mu);
  return state().rules;
}

FileSettings settings() {
  std::lock_guard<std::mutex> lock(state().mu);
  return state().settings;
}

device::SpillOpener spill_to(const Placement& disk, const std::string& path) {
  const Rules r = rules();
  if (!r.spill) {
    const uint64_t limit = r.budget;
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

Status start(const comm::Comm& world, const Rules& rules, const FileSettings& settings) {
  {
    std::lock_guard<std::mutex> lock(state().mu);
    state().rules = rules;
    state().settings = settings;
  }
  comm::Comm node;
  PARIO_ASSIGN_OR_RETURN(comm::NodeTopology topo, comm::node_topology(world, settings.ranks_per_node, &node));
  // Dead jobs' segments go first (one rank per node is enough).
  Status s = topo.node_rank == 0 ? device::remove_stale_segments().status() : Status::Ok();
  PARIO_RETURN_IF_ERROR(comm::agree(world, s));
  if (rules.patterns.empty()) return Status::Ok();
  // The node master creates the budget; the others attach by name.
  std::shared_ptr<device::RamBudget> b;
  std::string name;
  s = Status::Ok();
  if (topo.node_rank == 0) {
    Result<std::shared_ptr<device::RamBudget>> made = device::RamBudget::create(rules.budget);
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
    Result<Placement> disk = place(path, 0, s.settings);
    Status w = disk.ok() ? write_to_disk(file, path, *disk) : disk.status();
    if (first.ok() && !w.ok()) first = w;
  }
  files.clear();
  std::lock_guard<std::mutex> lock(s.mu);
  s.budget.reset();
  return first;
}

bool wants_ram(const std::string& path) { return fim_matches(rules().patterns, path); }

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

namespace {

// The RAM part every node's copy of a file spanning nodes gets: the hint,
// else half the smallest free budget, within every node's free budget, in
// whole pages. Collective over comm; node masters speak for their node.
Result<uint64_t> common_ram_part(const comm::Comm& comm, bool master, const device::RamBudget& b,
                                 uint64_t size_hint) {
  // Free budget, then the hint's share of it; INT64_MAX for no opinion
  // (Debian's MPICH 4.0 took MPI_MIN over MPI_UINT64_T as signed).
  uint64_t mine[2] = {INT64_MAX, INT64_MAX};
  if (master) {
    mine[0] = b.limit() - std::min(b.used(), b.limit());
    mine[1] = size_hint > 0 ? std::min(size_hint, mine[0]) : mine[0] / 2;
  }
  PARIO_RETURN_IF_ERROR(comm::mpi_status(
      MPI_Allreduce(MPI_IN_PLACE, mine, 2, MPI_UINT64_T, MPI_MIN, comm.get()), "MPI_Allreduce"));
  constexpr uint64_t kPage = 4096;
  const uint64_t want = size_hint > 0 ? (mine[1] + kPage - 1) / kPage * kPage : mine[1];
  return std::min(want, mine[0]) / kPage * kPage;
}

}  // namespace

Result<SharedRam> create_shared(const comm::Comm& comm, const std::string& path, uint64_t size_hint) {
  if (!wants_ram(path)) return SharedRam{};
  comm::Comm node;
  PARIO_ASSIGN_OR_RETURN(comm::NodeTopology topo, comm::node_topology(comm, settings().ranks_per_node, &node));
  const bool spans = topo.nodes > 1, master = topo.node_rank == 0;
  if (spans && comm::thread_level() != MPI_THREAD_MULTIPLE) {
    note(path, "on disk: the group spans nodes and MPI did not grant MPI_THREAD_MULTIPLE");
    return SharedRam{};
  }
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<device::RamBudget> b, budget());
  uint64_t ram_part = 0;
  if (spans) {
    PARIO_ASSIGN_OR_RETURN(ram_part, common_ram_part(comm, master, *b, size_hint));
    if (ram_part == 0) {
      note(path, "on disk: the group spans nodes and a node's RAM budget is spent");
      return SharedRam{};
    }
  }
  // The node master makes the copy (its RAM part fixed first when the
  // group spans nodes); the node's other ranks attach by name.
  SharedRam ram;
  std::string name;
  Status s;
  int fixed = 1;  // every node's RAM part was reserved
  if (master) {
    Result<std::shared_ptr<device::RamFile>> made = device::RamFile::create(b);
    s = made.status();
    if (made.ok()) {
      ram.file = std::move(made).value();
      name = ram.file->name();
      if (spans) fixed = ram.file->fix_ram(ram_part).ok();
    }
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, s).with_context(path));
  if (spans) {
    // Another file may have taken a node's budget since it was counted:
    // then the file is on disk, as when there was no room at all (the
    // copies made so far give their RAM back as they go).
    PARIO_RETURN_IF_ERROR(comm::mpi_status(
        MPI_Allreduce(MPI_IN_PLACE, &fixed, 1, MPI_INT, MPI_MIN, comm.get()), "MPI_Allreduce"));
    if (!fixed) {
      note(path, "on disk: the group spans nodes and a node's RAM budget was taken meanwhile");
      return SharedRam{};
    }
  }
  PARIO_RETURN_IF_ERROR(comm::broadcast_string(node, &name, 0));
  if (!master) {
    Result<std::shared_ptr<device::RamFile>> got = device::RamFile::attach(name, b);
    s = got.status();
    if (got.ok()) ram.file = std::move(got).value();
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, s));
  ram.file->unlink_name();
  if (!spans) {
    note(path, "in RAM, one copy for the node's " + std::to_string(comm.size()) + " ranks");
    return ram;
  }
  PARIO_ASSIGN_OR_RETURN(ram.copies, NodeCopies::create(comm, topo, ram.file));
  note(path, "in RAM, one copy on each of " + std::to_string(topo.nodes) + " nodes (the first " +
                 std::to_string(ram_part) + " bytes; the rest on disk)");
  return ram;
}

std::unique_ptr<device::Device> shared_device(const std::string& path, const SharedRam& ram,
                                              const Placement& disk) {
  if (ram.copies) return ram.copies->device(path, spill_to(disk, path));
  return device::make_ram_device(path, ram.file, spill_to(disk, path));
}

Status close_shared(const comm::Comm& comm, SharedRam* ram, const std::string& path,
                    const Placement& disk, bool keep) {
  // Every rank is done writing (the caller agreed on it).
  Status s;
  if (ram->copies) s = comm::agree(comm, ram->copies->finish().status());
  if (s.ok() && keep && comm.rank() == 0) s = write_to_disk(ram->file, path, disk);
  *ram = SharedRam{};
  return comm::agree(comm, s);
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
