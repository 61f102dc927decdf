#include "array/memory_array.h"

namespace pario::array {

Status GlobalArraySource::check_group(const comm::Group& group) const {
  int same = MPI_UNEQUAL;
  MPI_Comm_compare(a_->group().comm(), group.comm(), &same);
  if (same == MPI_IDENT || same == MPI_CONGRUENT) return Status::Ok();
  return Status(Code::kInvalidArgument, "global array " + a_->name() + " lives on another group than the disk array");
}

bool GlobalArraySource::local_pieces(const Box& box, std::vector<LocalPiece>* out) const {
  std::vector<LocalPiece> found;
  bool local = true;
  a_->distribution().for_each_owner(box, [&](int rank, const Box& piece) {
    LocalPiece p;
    p.piece = piece;
    Result<char*> base = a_->access(rank, &p.patch);  // fails off this node
    local &= base.ok() && *base != nullptr;
    if (local) p.base = *base, found.push_back(p);
  });
  if (!local) return false;
  out->insert(out->end(), found.begin(), found.end());
  return true;
}

void PatchArray::for_each_owner(const Box& box,
                                const std::function<void(int, const Box&)>& fn) const {
  for (size_t r = 0; r < patches_.size(); ++r) {
    if (patches_[r].empty()) continue;
    const Box piece = patches_[r].intersect(box);
    if (!piece.empty()) fn(static_cast<int>(r), piece);
  }
}

// Only this rank's own patch is reachable: another library shares no
// other rank's memory with pario.
bool PatchArray::local_pieces(const Box& box, std::vector<LocalPiece>* out) const {
  if (!own_base_) return false;
  bool own = true;
  std::vector<LocalPiece> found;
  for_each_owner(box, [&](int rank, const Box& piece) {
    own &= rank == own_rank_;
    found.push_back({piece, patches_[static_cast<size_t>(own_rank_)], own_base_});
  });
  if (!own) return false;
  out->insert(out->end(), found.begin(), found.end());
  return true;
}

Status PatchArray::check_group(const comm::Group& group) const {
  if (static_cast<int>(patches_.size()) == group.size()) return Status::Ok();
  return Status(Code::kInvalidArgument, "array " + name_ + " is spread over " + std::to_string(patches_.size()) +
                                            " ranks, the disk array's group has " + std::to_string(group.size()));
}

}  // namespace pario::array
