#include "file/fim.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

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
  std::string node_tag;  // the budget's name: unique to the job and the node
  std::map<std::string, std::shared_ptr<device::RamFile>> private_files;
  // Disk arrays' files this process published, by path.
  std::map<std::string, std::shared_ptr<device::RamFile>> store_files;
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
    s.node_tag = s.budget->name();
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

uint64_t fnv1a(const std::string& text, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

// The name every rank of the node finds a disk array's RAM file by: the
// node's budget name (unique to the job and the node), then a hash of the
// path; the file's tag, a second hash, tells a collision apart.
std::string store_file_name(const std::string& node_tag, const std::string& path) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(path, 1469598103934665603ull)));
  return node_tag + ".f" + hex;
}
uint64_t path_tag(const std::string& path) { return fnv1a(path, 0x9e3779b97f4a7c15ull) | 1; }

// A store file's bytes past its RAM go beside it (no Zarr reader looks
// there), not to its own path: another rank would take a file there for
// one on disk before the RAM file is published. Named by the RAM file's
// id, so a replacement never writes into the spill of the file it replaces.
Placement spill_place(const Placement& disk, const device::RamFile& file) {
  char id[17];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(file.id()));
  Placement beside = disk;
  beside.paths[0] += std::string(".pario-spill-") + id;
  return beside;
}
device::SpillOpener store_spill(const Placement& disk, const std::string& path, const device::RamFile& file) {
  return spill_to(spill_place(disk, file), path);
}

// A store file at stop(): its RAM and spilled bytes, made whole on disk
// before it takes its name (device::NewFile); the spill file goes.
Status store_file_to_disk(const std::shared_ptr<device::RamFile>& file, const std::string& path,
                          const Placement& disk) {
  std::unique_ptr<device::Device> from = device::make_ram_device(path, file, store_spill(disk, path, *file));
  PARIO_ASSIGN_OR_RETURN(device::NewFile out, device::NewFile::create(path));
  const uint64_t size = file->size();
  std::vector<char> buf(std::min<uint64_t>(size, uint64_t{8} << 20));
  for (uint64_t at = 0; at < size; at += buf.size()) {
    const size_t n = std::min<uint64_t>(buf.size(), size - at);
    size_t got = 0;
    PARIO_RETURN_IF_ERROR(from->read_at(at, buf.data(), n, &got));
    PARIO_RETURN_IF_ERROR(out.device().write_at(at, buf.data(), n).with_context(path));
  }
  PARIO_RETURN_IF_ERROR(from->close());
  PARIO_RETURN_IF_ERROR(out.publish(true));
  const std::string spilled = spill_place(disk, *file).paths[0];
  if (::unlink(spilled.c_str()) != 0 && errno != ENOENT) return errno_status(errno, spilled);
  return Status::Ok();
}

// The directories of a store file (they exist on disk once the store
// wrote there; a file that never left RAM may be the first).
Status make_parent_dirs(const std::string& path) {
  for (size_t at = path.find('/', 1); at != std::string::npos; at = path.find('/', at + 1)) {
    const std::string dir = path.substr(0, at);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return errno_status(errno, dir);
  }
  return Status::Ok();
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
  state().node_tag = name;
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
  std::map<std::string, std::shared_ptr<device::RamFile>> store_files;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    store_files.swap(s.store_files);
  }
  Status first;
  for (auto& [path, file] : files) {
    Result<Placement> disk = place(path, 0, s.settings);
    Status w = disk.ok() ? write_to_disk(file, path, *disk) : disk.status();
    if (first.ok() && !w.ok()) first = w;
  }
  // Each disk array's file is written by the process that published it,
  // unless a newer one took its name (whose publisher writes that).
  for (auto& [path, file] : store_files) {
    if (file->replaced()) continue;
    Status w = make_parent_dirs(path);
    Result<Placement> disk = place(path, 0, s.settings);
    if (w.ok()) w = disk.ok() ? store_file_to_disk(file, path, *disk) : disk.status();
    (void)device::unlink_segment(store_file_name(s.node_tag, path));
    if (first.ok() && !w.ok()) first = w;
  }
  files.clear();
  store_files.clear();
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

namespace {

// Drops published files that a newer one replaced (their RAM goes back
// when the last process lets go of them).
void sweep_replaced(State& s) {
  for (auto it = s.store_files.begin(); it != s.store_files.end();) {
    it = it->second->replaced() ? s.store_files.erase(it) : std::next(it);
  }
}

// The RAM file published for path; null when there is none.
Result<std::shared_ptr<device::RamFile>> find_store_file(const std::string& path) {
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<device::RamBudget> b, budget());
  std::string name;
  {
    std::lock_guard<std::mutex> lock(state().mu);
    sweep_replaced(state());
    name = store_file_name(state().node_tag, path);
  }
  Result<std::shared_ptr<device::RamFile>> f = device::RamFile::attach(name, b);
  if (!f.ok()) {
    if (f.status().code() == Code::kNotFound) return std::shared_ptr<device::RamFile>();
    return std::move(f).status().with_context(path);
  }
  if ((*f)->tag() != path_tag(path)) {
    return Status(Code::kInternal, path + ": its RAM file's name " + name + " stands for another path");
  }
  return f;
}

// A new RAM file for path, filled (fill may be null: empty), then
// published under its name.
Result<std::shared_ptr<device::RamFile>> publish_store_file(const std::string& path, bool replace,
                                                            const std::function<Status(device::Device&)>& fill,
                                                            const Placement& disk) {
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<device::RamBudget> b, budget());
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<device::RamFile> f, device::RamFile::create(b));
  if (fill) {
    std::unique_ptr<device::Device> dev = device::make_ram_device(path, f, store_spill(disk, path, *f));
    Status filled = fill(*dev);
    Status closed = dev->close();
    PARIO_RETURN_IF_ERROR(filled.with_context(path));
    PARIO_RETURN_IF_ERROR(closed);
  }
  std::shared_ptr<device::RamFile> old;
  if (replace) {
    Result<std::shared_ptr<device::RamFile>> found = find_store_file(path);
    if (found.ok()) old = std::move(found).value();
  }
  std::string name;
  {
    std::lock_guard<std::mutex> lock(state().mu);
    name = store_file_name(state().node_tag, path);
  }
  PARIO_RETURN_IF_ERROR(f->publish_as(name, path_tag(path), replace));
  if (old) old->mark_replaced();
  std::lock_guard<std::mutex> lock(state().mu);
  state().store_files[path] = f;
  return f;
}

}  // namespace

bool store_file_on_disk(const std::string& path, const Placement& disk) {
  Result<std::shared_ptr<device::RamFile>> f = find_store_file(path);
  return f.ok() && !*f && ::access(disk.paths[0].c_str(), F_OK) == 0;
}

Result<std::unique_ptr<device::Device>> open_store_file(const std::string& path, const device::OpenOptions& o,
                                                        const Placement& disk) {
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<device::RamFile> f, find_store_file(path));
  if (!f) {
    if (::access(disk.paths[0].c_str(), F_OK) == 0) return std::unique_ptr<device::Device>();  // stays on disk
    if (!o.create) return Status(Code::kNotFound, path + ": no such file");
    Result<std::shared_ptr<device::RamFile>> made = publish_store_file(path, false, nullptr, disk);
    if (made.ok()) {
      f = std::move(made).value();
    } else if (made.status().code() == Code::kExists) {  // another rank made it first
      PARIO_ASSIGN_OR_RETURN(f, find_store_file(path));
      if (!f) return Status(Code::kInternal, path + ": its RAM file vanished as it was made");
    } else {
      return std::move(made).status();
    }
  }
  return device::make_ram_device(path, f, store_spill(disk, path, *f));
}

Status write_store_file(const std::string& path, bool replace,
                        const std::function<Status(device::Device&)>& fill, const Placement& disk) {
  return publish_store_file(path, replace, fill, disk).status();
}

void forget_store(const std::string& dir) {
  std::lock_guard<std::mutex> lock(state().mu);
  State& s = state();
  const std::string under = dir + "/";
  for (auto it = s.store_files.lower_bound(under); it != s.store_files.end() && it->first.rfind(under, 0) == 0;) {
    if (!it->second->replaced()) (void)device::unlink_segment(store_file_name(s.node_tag, it->first));
    it = s.store_files.erase(it);
  }
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
