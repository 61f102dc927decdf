#include "comm/group.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace pario::comm {

MPI_Datatype element_mpi_type(ElementType t) {
  switch (t) {
    case ElementType::kDouble: return MPI_DOUBLE;
    case ElementType::kFloat: return MPI_FLOAT;
    case ElementType::kInt32: return MPI_INT32_T;
    case ElementType::kInt64: return MPI_INT64_T;
    case ElementType::kComplexDouble: return MPI_C_DOUBLE_COMPLEX;
    case ElementType::kInt8: return MPI_INT8_T;
    case ElementType::kUInt8: return MPI_UINT8_T;
    case ElementType::kInt16: return MPI_INT16_T;
    case ElementType::kUInt16: return MPI_UINT16_T;
    case ElementType::kUInt32: return MPI_UINT32_T;
    case ElementType::kUInt64: return MPI_UINT64_T;
    case ElementType::kComplexFloat: return MPI_C_FLOAT_COMPLEX;
  }
  return MPI_DATATYPE_NULL;
}

Result<std::shared_ptr<Group>> Group::create(MPI_Comm comm, int ranks_per_node) {
  std::shared_ptr<Group> g(new Group());
  PARIO_ASSIGN_OR_RETURN(g->comm_, Comm::duplicate(comm));
  g->rank_ = g->comm_.rank();
  g->size_ = g->comm_.size();
  g->ranks_per_node_ = ranks_per_node;
  PARIO_ASSIGN_OR_RETURN(g->topo_, node_topology(g->comm_, ranks_per_node, &g->node_comm_));

  // Whether the whole group can share memory: split by physical node.
  MPI_Comm phys = MPI_COMM_NULL;
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Comm_split_type(g->comm(), MPI_COMM_TYPE_SHARED, g->rank_, MPI_INFO_NULL, &phys),
      "MPI_Comm_split_type"));
  PARIO_ASSIGN_OR_RETURN(Comm physical, Comm::adopt(phys));
  int all_shared = physical.size() == g->size_ ? 1 : 0, every = 0;
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Allreduce(&all_shared, &every, 1, MPI_INT, MPI_MIN, g->comm()), "MPI_Allreduce"));
  g->one_physical_node_ = every == 1;

  g->node_of_.resize(g->size_);
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Allgather(&g->topo_.node, 1, MPI_INT, g->node_of_.data(), 1, MPI_INT, g->comm()),
      "MPI_Allgather"));
  g->node_master_.assign(g->topo_.nodes, -1);
  g->node_ranks_.assign(g->topo_.nodes, {});
  for (int r = 0; r < g->size_; ++r) {
    int n = g->node_of_[r];
    if (g->node_master_[n] < 0) g->node_master_[n] = r;
    g->node_ranks_[n].push_back(r);
  }
  return g;
}

Result<std::shared_ptr<Group>> Group::split(int color) const {
  MPI_Comm sub = MPI_COMM_NULL;
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Comm_split(comm(), color < 0 ? MPI_UNDEFINED : color, rank_, &sub), "MPI_Comm_split"));
  if (sub == MPI_COMM_NULL) return std::shared_ptr<Group>();
  PARIO_ASSIGN_OR_RETURN(Comm owned, Comm::adopt(sub));
  return create(owned.get(), ranks_per_node_);
}

Status Group::barrier() const {
  return mpi_status(MPI_Barrier(comm()), "MPI_Barrier");
}

Status Group::sum(ElementType type, void* buf, size_t count) const {
  // MPI counts are int: reduce in slices so any length works.
  const size_t slice = std::numeric_limits<int>::max() / 2;
  char* p = static_cast<char*>(buf);
  for (size_t done = 0; done < count; done += slice) {
    int n = static_cast<int>(std::min(slice, count - done));
    PARIO_RETURN_IF_ERROR(mpi_status(
        MPI_Allreduce(MPI_IN_PLACE, p + done * element_size(type), n, element_mpi_type(type),
                      MPI_SUM, comm()),
        "MPI_Allreduce"));
  }
  return Status::Ok();
}

Status Group::broadcast(void* buf, size_t bytes, int root) const {
  if (root < 0 || root >= size_) {
    return Status(Code::kInvalidArgument, "broadcast root " + std::to_string(root) +
                                              " is not a rank of the group (size " +
                                              std::to_string(size_) + ")");
  }
  const size_t slice = std::numeric_limits<int>::max() / 2;
  char* p = static_cast<char*>(buf);
  for (size_t done = 0; done < bytes; done += slice) {
    int n = static_cast<int>(std::min(slice, bytes - done));
    PARIO_RETURN_IF_ERROR(
        mpi_status(MPI_Bcast(p + done, n, MPI_BYTE, root, comm()), "MPI_Bcast"));
  }
  return Status::Ok();
}

}  // namespace pario::comm
