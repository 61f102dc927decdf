#include "file/node_copies.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <mutex>

namespace pario::file {
namespace {

Status mpi(int rc, const char* call) { return comm::mpi_status(rc, call); }

// MPI counts are ints: larger puts go in pieces of 1 GiB.
constexpr size_t kPutPiece = size_t{1} << 30;

// The device: this node's copy for the RAM part, the disk file past it.
class NodeCopiesDevice final : public device::Device {
 public:
  NodeCopiesDevice(std::string path, std::shared_ptr<NodeCopies> copies, device::SpillOpener disk)
      : Device(std::move(path)), copies_(std::move(copies)), disk_(std::move(disk)) {}

  Status sync() override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    return disk_.sync();
  }
  Result<uint64_t> size() override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    return copies_->length();
  }
  Status truncate(uint64_t) override {
    return Status(Code::kUnsupported, path() + ": a shared file spanning nodes cannot be truncated");
  }
  Status close() override {
    if (!copies_) return Status::Ok();
    copies_.reset();
    return disk_.close();
  }
  uint32_t caps() const override { return device::kCapMemory; }
  uint64_t ram_bytes() const override {
    return copies_ ? std::min(copies_->known_length(), copies_->ram_part()) : 0;
  }
  uint64_t spilled_bytes() const override { return copies_ ? copies_->ram()->spilled() : 0; }

 protected:
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    uint64_t length = copies_->known_length();
    if (offset + len > length) {
      PARIO_ASSIGN_OR_RETURN(length, copies_->length());
    }
    if (offset >= length) return size_t{0};
    len = std::min<uint64_t>(len, length - offset);
    const uint64_t ram = copies_->ram_part();
    if (offset < ram) {
      const size_t n = std::min<uint64_t>(len, ram - offset);
      std::memcpy(buf, copies_->ram()->bytes() + offset, n);
      return n;
    }
    size_t got = 0;  // what the disk file lacks is a hole
    PARIO_ASSIGN_OR_RETURN(device::Device * d, disk(false));
    if (d) PARIO_RETURN_IF_ERROR(d->read_at(offset, buf, len, &got));
    std::memset(static_cast<char*>(buf) + got, 0, len - got);
    return len;
  }

  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    const uint64_t ram = copies_->ram_part();
    size_t n = len;
    if (offset < ram) {
      n = std::min<uint64_t>(len, ram - offset);
      std::memcpy(copies_->ram()->bytes() + offset, buf, n);
      PARIO_RETURN_IF_ERROR(copies_->put_elsewhere(offset, buf, n));
    } else {
      PARIO_ASSIGN_OR_RETURN(device::Device * d, disk(true));
      PARIO_RETURN_IF_ERROR(d->write_at(offset, buf, len));
      copies_->ram()->count_spilled(len);
    }
    PARIO_RETURN_IF_ERROR(copies_->extend_length(offset + n));
    return n;
  }

 private:
  Status open_or_error() const {
    return copies_ ? Status::Ok() : Status(Code::kState, "device is closed");
  }
  // The disk file; null if reading and nothing past the RAM part was written.
  Result<device::Device*> disk(bool create) { return disk_.get(create, path() + ": past the RAM part, on disk"); }

  std::shared_ptr<NodeCopies> copies_;
  device::LazyDevice disk_;
};

}  // namespace

Result<std::shared_ptr<NodeCopies>> NodeCopies::create(const comm::Comm& comm,
                                                       const comm::NodeTopology& topo,
                                                       std::shared_ptr<device::RamFile> ram) {
  std::shared_ptr<NodeCopies> c(new NodeCopies());
  c->comm_ = comm.get();
  c->ram_ = std::move(ram);
  c->ram_part_ = c->ram_->ram_end();
  // Who holds each node's copy: the node's rank 0.
  std::vector<int> node_of(comm.size()), node_rank_of(comm.size());
  int mine[2] = {topo.node, topo.node_rank};
  std::vector<int> all(2 * comm.size());
  PARIO_RETURN_IF_ERROR(
      mpi(MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, c->comm_), "MPI_Allgather"));
  for (int r = 0; r < comm.size(); ++r) {
    if (all[2 * r + 1] == 0 && all[2 * r] != topo.node) c->other_masters_.push_back(r);
  }
  Result<comm::Info> info = comm::Info::create({{"same_disp_unit", "true"}});
  const bool master = topo.node_rank == 0;
  // Agreed first: a rank that could not make its info must not leave the
  // others in MPI_Win_create, a collective.
  Status s = comm::agree(comm, info.status());
  if (s.ok()) {
    s = mpi(MPI_Win_create(master ? c->ram_->bytes() : nullptr,
                           master ? static_cast<MPI_Aint>(c->ram_part_) : 0, 1, info->get(),
                           c->comm_, c->data_.out()),
            "MPI_Win_create");
  }
  s = comm::agree(comm, s);
  if (s.ok()) {
    const bool root = comm.rank() == 0;
    s = mpi(MPI_Win_create(root ? &c->length_word_ : nullptr, root ? sizeof(uint64_t) : 0,
                           sizeof(uint64_t), info->get(), c->comm_, c->length_.out()),
            "MPI_Win_create");
    s = comm::agree(comm, s);
  }
  if (!s.ok()) {
    for (comm::Window* w : {&c->data_, &c->length_}) (void)w->free();
    return s;
  }
  // One passive epoch for the file's life; each operation ends in a flush.
  MPI_Win_lock_all(MPI_MODE_NOCHECK, c->data_.get());
  MPI_Win_lock_all(MPI_MODE_NOCHECK, c->length_.get());
  return c;
}

NodeCopies::~NodeCopies() {
  // Freeing a window is collective: one left open (the file was never
  // closed) is MPI's at finalize, and its memory must stay mapped till then.
  if (data_.get() != MPI_WIN_NULL) {
    static std::mutex mu;
    static std::vector<std::shared_ptr<device::RamFile>> kept;
    std::lock_guard<std::mutex> lock(mu);
    kept.push_back(ram_);
  }
}

std::unique_ptr<device::Device> NodeCopies::device(const std::string& path, device::SpillOpener disk) {
  return std::make_unique<NodeCopiesDevice>(path, shared_from_this(), std::move(disk));
}

Status NodeCopies::put_elsewhere(uint64_t offset, const void* buf, size_t len) {
  const char* from = static_cast<const char*>(buf);
  for (int target : other_masters_) {
    for (size_t done = 0; done < len; done += kPutPiece) {
      const int n = static_cast<int>(std::min(kPutPiece, len - done));
      PARIO_RETURN_IF_ERROR(mpi(MPI_Put(from + done, n, MPI_BYTE, target,
                                        static_cast<MPI_Aint>(offset + done), n, MPI_BYTE,
                                        data_.get()),
                                "MPI_Put"));
    }
  }
  for (int target : other_masters_) {
    PARIO_RETURN_IF_ERROR(mpi(MPI_Win_flush(target, data_.get()), "MPI_Win_flush"));
  }
  return Status::Ok();
}

Status NodeCopies::extend_length(uint64_t end) {
  if (end <= known_.load()) return Status::Ok();
  uint64_t old = 0;
  PARIO_RETURN_IF_ERROR(
      mpi(MPI_Fetch_and_op(&end, &old, MPI_UINT64_T, 0, 0, MPI_MAX, length_.get()),
          "MPI_Fetch_and_op"));
  PARIO_RETURN_IF_ERROR(mpi(MPI_Win_flush(0, length_.get()), "MPI_Win_flush"));
  const uint64_t seen = std::max(old, end);
  uint64_t cur = known_.load();
  while (seen > cur && !known_.compare_exchange_weak(cur, seen)) {
  }
  return Status::Ok();
}

Result<uint64_t> NodeCopies::length() {
  uint64_t none = 0, now = 0;
  PARIO_RETURN_IF_ERROR(
      mpi(MPI_Fetch_and_op(&none, &now, MPI_UINT64_T, 0, 0, MPI_NO_OP, length_.get()),
          "MPI_Fetch_and_op"));
  PARIO_RETURN_IF_ERROR(mpi(MPI_Win_flush(0, length_.get()), "MPI_Win_flush"));
  uint64_t cur = known_.load();
  while (now > cur && !known_.compare_exchange_weak(cur, now)) {
  }
  return std::max(now, cur);
}

Result<uint64_t> NodeCopies::finish() {
  Result<uint64_t> end = length();
  Status s = free_windows();
  if (!end.ok()) return end.status();
  PARIO_RETURN_IF_ERROR(s);
  ram_->set_size(*end);
  return end;
}

Status NodeCopies::free_windows() {
  Status first;
  for (comm::Window* w : {&data_, &length_}) {
    if (w->get() == MPI_WIN_NULL) continue;
    Status s = mpi(MPI_Win_unlock_all(w->get()), "MPI_Win_unlock_all");
    if (s.ok()) s = w->free();
    if (first.ok() && !s.ok()) first = s;
  }
  return first;
}

}  // namespace pario::file
