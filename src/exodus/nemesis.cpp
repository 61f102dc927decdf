// Nemesis I load-balance information (nemesis.h): the model's part, and
// how the writer finds each rank's lists without any rank holding the mesh.
//
// Border nodes. When the nodes go in (put_nodes), every rank sends its
// node positions to the rank keeping that range of positions (P equal
// ranges of 0..num_nodes); the keeper sorts the (position, rank) pairs it
// got and answers each rank of a position held by several ranks with the
// others. Two all-to-all-v exchanges, 8 bytes a node out, 16 bytes a shared
// (node, other rank) pair back; only when Nemesis information is asked.
//
// Border elements. When a block goes in, each of the rank's elements
// offers the sides whose corner nodes are all border nodes (no other side
// can touch another rank's element), keyed by their sorted node positions,
// to the rank home(key). There two offers of one key from different ranks
// are a shared side: each offerer gets (element, side, other rank) back.
// Interior sides never travel.
//
// Writing. Once the nodes and every block are in, the ranks gather each
// other's counts (one MPI_Allgather of 6 numbers), append the Nemesis part
// to the model (every rank the same), and place it after the Exodus
// variables, which do not move: end_define left room in the header for the
// largest Nemesis header (place_with_room_for_nemesis). Rank 0 writes the
// new header and the small variables; every rank writes its own slice of
// each list through the collective engine. No step is written before:
// the records start after the Nemesis variables.
#include "exodus/nemesis.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>

#include "exodus/directory.h"
#include "exodus/writer.h"

namespace pario::exodus {
namespace {

Status state(const std::string& what) { return Status(Code::kState, what); }

// Words of a side offered for matching: 4 sorted node positions (-1
// padded), the element's number, the side.
constexpr int kFaceWords = 6;

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The per-processor lists, in the order of NemesisCounts and BuiltNemesis.
struct ListVar {
  const char* dim;
  const char* var;
  const char* idx;   // the per-processor index variable, or null
  const char* stat;  // the per-processor status variable, or null
};
constexpr ListVar kNodeMapI{"num_int_node", "node_mapi", "node_mapi_idx", "int_n_stat"};
constexpr ListVar kNodeMapB{"num_bor_node", "node_mapb", "node_mapb_idx", "bor_n_stat"};
constexpr ListVar kElemMapI{"num_int_elem", "elem_mapi", "elem_mapi_idx", "int_e_stat"};
constexpr ListVar kElemMapB{"num_bor_elem", "elem_mapb", "elem_mapb_idx", "bor_e_stat"};

// The processors' counts of one kind.
template <typename Get>
std::vector<int64_t> column(const std::vector<NemesisCounts>& procs, Get&& get) {
  std::vector<int64_t> out;
  for (const NemesisCounts& c : procs) out.push_back(get(c));
  return out;
}

int64_t sum(const std::vector<int64_t>& v) {
  int64_t s = 0;
  for (int64_t x : v) s += x;
  return s;
}

// Cumulative ends: out[p] = v[0] + ... + v[p].
std::vector<int64_t> ends(const std::vector<int64_t>& v) {
  std::vector<int64_t> out(v.size());
  int64_t s = 0;
  for (size_t p = 0; p < v.size(); ++p) out[p] = s += v[p];
  return out;
}

std::vector<int64_t> flags(const std::vector<int64_t>& v) {
  std::vector<int64_t> out;
  for (int64_t x : v) out.push_back(x > 0 ? 1 : 0);
  return out;
}

}  // namespace

BuiltNemesis add_nemesis(Model& m, const Definition& def, const std::vector<NemesisCounts>& procs) {
  const NcType ints = def.int64 ? NcType::kInt64 : NcType::kInt;  // ids, maps, counts, indices
  const int32_t nprocs = static_cast<int32_t>(procs.size());
  const float file_version = 2.6f, api_version = 6.02f;
  m.attributes.push_back(numeric_attribute("nemesis_file_version", NcType::kFloat, &file_version, 1));
  m.attributes.push_back(numeric_attribute("nemesis_api_version", NcType::kFloat, &api_version, 1));
  const int procs_dim = add_dim(m, "num_processors", nprocs);
  (void)procs_dim;
  const int npf = add_dim(m, "num_procs_file", nprocs);
  add_var(m, "nem_ftype", NcType::kInt, {});
  if (def.num_nodes > 0) add_dim(m, "num_nodes_global", def.num_nodes);
  if (def.num_elem > 0) add_dim(m, "num_elems_global", def.num_elem);
  if (!def.blocks.empty()) {
    const int d = add_dim(m, "num_el_blk_global", static_cast<int64_t>(def.blocks.size()));
    add_var(m, "el_blk_ids_global", ints, {d});
    add_var(m, "el_blk_cnt_global", ints, {d});
  }
  if (!def.node_sets.empty()) {
    const int d = add_dim(m, "num_ns_global", static_cast<int64_t>(def.node_sets.size()));
    add_var(m, "ns_ids_global", ints, {d});
    add_var(m, "ns_node_cnt_global", ints, {d});
    add_var(m, "ns_df_cnt_global", ints, {d});
  }
  if (!def.side_sets.empty()) {
    const int d = add_dim(m, "num_ss_global", static_cast<int64_t>(def.side_sets.size()));
    add_var(m, "ss_ids_global", ints, {d});
    add_var(m, "ss_side_cnt_global", ints, {d});
    add_var(m, "ss_df_cnt_global", ints, {d});
  }
  for (const char* stat : {"int_n_stat", "bor_n_stat", "ext_n_stat", "int_e_stat", "bor_e_stat"}) {
    add_var(m, stat, NcType::kInt, {npf});
  }
  BuiltNemesis out;
  auto list = [&](const ListVar& l, int64_t total) {
    if (total == 0) return -1;
    const int d = add_dim(m, l.dim, total);
    const int v = add_var(m, l.var, ints, {d});
    add_var(m, l.idx, ints, {npf});
    return v;
  };
  // The order of ex_put_loadbal_param_cc.
  out.elem_mapi = list(kElemMapI, sum(column(procs, [](const NemesisCounts& c) { return c.int_elems; })));
  out.elem_mapb = list(kElemMapB, sum(column(procs, [](const NemesisCounts& c) { return c.bor_elems; })));
  out.node_mapi = list(kNodeMapI, sum(column(procs, [](const NemesisCounts& c) { return c.int_nodes; })));
  out.node_mapb = list(kNodeMapB, sum(column(procs, [](const NemesisCounts& c) { return c.bor_nodes; })));
  const std::vector<int64_t> ncnt = column(procs, [](const NemesisCounts& c) { return c.node_cmap; });
  const std::vector<int64_t> ecnt = column(procs, [](const NemesisCounts& c) { return c.elem_cmap; });
  const int64_t n_maps = sum(flags(ncnt)), e_maps = sum(flags(ecnt));
  int n_dim = -1, e_dim = -1;
  if (n_maps > 0) {
    n_dim = add_dim(m, "num_n_cmaps", n_maps);
    add_var(m, "n_comm_ids", ints, {n_dim});
    add_var(m, "n_comm_stat", NcType::kInt, {n_dim});
    add_var(m, "n_comm_info_idx", ints, {npf});
  }
  if (e_maps > 0) {
    e_dim = add_dim(m, "num_e_cmaps", e_maps);
    add_var(m, "e_comm_ids", ints, {e_dim});
    add_var(m, "e_comm_stat", NcType::kInt, {e_dim});
    add_var(m, "e_comm_info_idx", ints, {npf});
  }
  // The order of ex_put_cmap_params_cc.
  if (n_maps > 0) {
    add_var(m, "n_comm_data_idx", ints, {n_dim});
    const int d = add_dim(m, "ncnt_cmap", sum(ncnt));
    out.n_comm_nids = add_var(m, "n_comm_nids", ints, {d});
    out.n_comm_proc = add_var(m, "n_comm_proc", NcType::kInt, {d});
  }
  if (e_maps > 0) {
    add_var(m, "e_comm_data_idx", ints, {e_dim});
    const int d = add_dim(m, "ecnt_cmap", sum(ecnt));
    out.e_comm_eids = add_var(m, "e_comm_eids", ints, {d});
    out.e_comm_proc = add_var(m, "e_comm_proc", NcType::kInt, {d});
    out.e_comm_sids = add_var(m, "e_comm_sids", ints, {d});
  }
  return out;
}

std::vector<VarBytes> nemesis_metadata(const Definition& def, const Model& m, const std::vector<NemesisCounts>& procs) {
  const NcType ints = def.int64 ? NcType::kInt64 : NcType::kInt;
  std::vector<VarBytes> out;
  auto put = [&](const char* name, const std::vector<int64_t>& values, NcType type) {
    const int v = m.find_var(name);
    if (v >= 0) out.push_back(VarBytes{v, big_ints(values, type)});
  };
  put("nem_ftype", {1}, NcType::kInt);  // "s": every processor's lists in this one file
  std::vector<int64_t> ids, counts, dfs;
  for (const BlockDef& b : def.blocks) {
    ids.push_back(b.id);
    counts.push_back(b.count);
  }
  put("el_blk_ids_global", ids, ints);
  put("el_blk_cnt_global", counts, ints);
  for (int side = 0; side < 2; ++side) {
    ids.clear();
    counts.clear();
    dfs.clear();
    for (const SetDef& s : side ? def.side_sets : def.node_sets) {
      ids.push_back(s.id);
      counts.push_back(s.count);
      dfs.push_back(s.df_count());
    }
    put(side ? "ss_ids_global" : "ns_ids_global", ids, ints);
    put(side ? "ss_side_cnt_global" : "ns_node_cnt_global", counts, ints);
    put(side ? "ss_df_cnt_global" : "ns_df_cnt_global", dfs, ints);
  }
  const std::pair<ListVar, std::vector<int64_t>> lists[] = {
      {kNodeMapI, column(procs, [](const NemesisCounts& c) { return c.int_nodes; })},
      {kNodeMapB, column(procs, [](const NemesisCounts& c) { return c.bor_nodes; })},
      {kElemMapI, column(procs, [](const NemesisCounts& c) { return c.int_elems; })},
      {kElemMapB, column(procs, [](const NemesisCounts& c) { return c.bor_elems; })},
  };
  for (const auto& [l, n] : lists) {
    put(l.stat, flags(n), NcType::kInt);
    put(l.idx, ends(n), ints);
  }
  put("ext_n_stat", std::vector<int64_t>(procs.size(), 0), NcType::kInt);
  for (int e = 0; e < 2; ++e) {
    const std::vector<int64_t> entries =
        column(procs, [e](const NemesisCounts& c) { return e ? c.elem_cmap : c.node_cmap; });
    const std::vector<int64_t> maps = flags(entries);
    std::vector<int64_t> data_ends, present;
    int64_t at = 0;
    for (int64_t n : entries) {
      if (n > 0) data_ends.push_back(at += n);
    }
    present.assign(data_ends.size(), 1);
    put(e ? "e_comm_ids" : "n_comm_ids", present, ints);  // each processor's one map has id 1
    put(e ? "e_comm_stat" : "n_comm_stat", present, NcType::kInt);
    put(e ? "e_comm_info_idx" : "n_comm_info_idx", ends(maps), ints);
    put(e ? "e_comm_data_idx" : "n_comm_data_idx", data_ends, ints);
  }
  return out;
}

Result<Layout> place_with_room_for_nemesis(const Built& built, const Definition& def, Format format, int nprocs) {
  PARIO_ASSIGN_OR_RETURN(Layout plain, place(built, format));
  // The largest Nemesis header: every dimension and variable present (the
  // numbers in a header have fixed widths, so counts of 1 do).
  Model largest = built.model;
  NemesisCounts one;
  one.int_nodes = one.bor_nodes = one.int_elems = one.bor_elems = one.node_cmap = one.elem_cmap = 1;
  add_nemesis(largest, def, std::vector<NemesisCounts>(static_cast<size_t>(nprocs), one));
  LayoutOptions o;
  o.format = plain.format;
  PARIO_ASSIGN_OR_RETURN(Layout big, layout(largest, o));
  o.header_reserve = big.header_size - plain.header_size;
  return layout(built.model, o);
}

Result<Layout> place_after(const Model& model, const Layout& before) {
  LayoutOptions o;
  o.format = before.format;
  PARIO_ASSIGN_OR_RETURN(Layout probe, layout(model, o));
  if (probe.header_size > before.data_begin) {
    return Status(Code::kInternal, "the Nemesis header needs " + std::to_string(probe.header_size) +
                                       " bytes; room was left for " + std::to_string(before.data_begin));
  }
  o.header_reserve = before.data_begin - probe.header_size;
  PARIO_ASSIGN_OR_RETURN(Layout after, layout(model, o));
  for (size_t v = 0; v < before.vars.size(); ++v) {
    if (!before.vars[v].record && after.vars[v].begin != before.vars[v].begin) {
      return Status(Code::kInternal, "the Nemesis variables would move variable " + model.vars[v].name);
    }
  }
  return after;
}

const std::vector<std::vector<int>>& sides_of_type(const std::string& type, int nodes_per_element, int num_dim) {
  static const std::vector<std::vector<int>> kNone;
  static const std::vector<std::vector<int>> kHex = {{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6},
                                                     {0, 4, 7, 3}, {0, 3, 2, 1}, {4, 5, 6, 7}};
  static const std::vector<std::vector<int>> kTet = {{0, 1, 3}, {1, 2, 3}, {0, 3, 2}, {0, 2, 1}};
  static const std::vector<std::vector<int>> kWedge = {{0, 1, 4, 3}, {1, 2, 5, 4}, {0, 3, 5, 2}, {0, 2, 1}, {3, 4, 5}};
  static const std::vector<std::vector<int>> kPyramid = {{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {0, 4, 3}, {0, 3, 2, 1}};
  static const std::vector<std::vector<int>> kQuad = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  static const std::vector<std::vector<int>> kTri = {{0, 1}, {1, 2}, {2, 0}};
  std::string u;
  for (char c : type) u.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  const std::vector<std::vector<int>>* t = &kNone;
  int corners = 0;
  if (starts_with(u, "HEX")) t = &kHex, corners = 8;
  else if (starts_with(u, "TET")) t = &kTet, corners = 4;
  else if (starts_with(u, "WEDGE")) t = &kWedge, corners = 6;
  else if (starts_with(u, "PYRAMID")) t = &kPyramid, corners = 5;
  else if (num_dim == 2 && starts_with(u, "QUAD")) t = &kQuad, corners = 4;
  else if (num_dim == 2 && starts_with(u, "TRI") && !starts_with(u, "TRIS")) t = &kTri, corners = 3;
  return nodes_per_element >= corners ? *t : kNone;
}

// ---- the writer's part ----------------------------------------------------

Status Writer::nemesis_nodes(const std::vector<int64_t>& positions) {
  const comm::Comm& comm = group_->comm_object();
  const int size = comm.size();
  const int64_t total = def_.num_nodes;
  auto keeper = [&](int64_t p) { return static_cast<int>(static_cast<__int128>(p) * size / total); };
  std::vector<std::vector<int64_t>> out(static_cast<size_t>(size));
  for (int64_t p : positions) out[static_cast<size_t>(keeper(p))].push_back(p);
  std::vector<int64_t> in;
  std::vector<int> from;
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from));
  // (position, rank) pairs, by position.
  std::vector<std::pair<int64_t, int>> held;
  held.reserve(in.size());
  size_t k = 0;
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < from[static_cast<size_t>(r)]; ++i) held.emplace_back(in[k++], r);
  }
  std::sort(held.begin(), held.end());
  for (auto& b : out) b.clear();
  for (size_t a = 0; a < held.size();) {
    size_t z = a;
    while (z < held.size() && held[z].first == held[a].first) ++z;
    for (size_t i = a; z - a > 1 && i < z; ++i) {
      for (size_t j = a; j < z; ++j) {
        if (j == i) continue;
        out[static_cast<size_t>(held[i].second)].push_back(held[i].first);
        out[static_cast<size_t>(held[i].second)].push_back(held[j].second);
      }
    }
    a = z;
  }
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from));
  nem_.shared.clear();
  for (size_t i = 0; i + 1 < in.size(); i += 2) nem_.shared.emplace_back(in[i], static_cast<int>(in[i + 1]));
  std::sort(nem_.shared.begin(), nem_.shared.end());
  nem_.nodes = positions;
  std::sort(nem_.nodes.begin(), nem_.nodes.end());
  return Status::Ok();
}

bool Writer::nemesis_shared(int64_t position) const {
  auto it = std::lower_bound(nem_.shared.begin(), nem_.shared.end(), std::make_pair(position, INT_MIN));
  return it != nem_.shared.end() && it->first == position;
}

void Writer::nemesis_faces(size_t b, const std::vector<int64_t>& nodes1) {
  const BlockDef& def = def_.blocks[b];
  const auto& sides = sides_of_type(def.type, def.nodes_per_element, def_.num_dim);
  const std::vector<int64_t>& positions = blocks_[b].positions;
  const size_t npe = static_cast<size_t>(def.nodes_per_element);
  for (size_t e = 0; e < positions.size(); ++e) {
    for (size_t s = 0; s < sides.size(); ++s) {
      int64_t key[4] = {-1, -1, -1, -1};
      const size_t corners = std::min<size_t>(sides[s].size(), 4);  // the tables' sides have 2..4
      bool border = true;
      for (size_t q = 0; q < corners && border; ++q) {
        key[q] = nodes1[e * npe + static_cast<size_t>(sides[s][q])] - 1;
        border = nemesis_shared(key[q]);
      }
      if (!border) continue;
      for (size_t i = 1; i < corners; ++i) {  // at most 4: an insertion sort
        for (size_t j = i; j > 0 && key[j - 1] > key[j]; --j) std::swap(key[j - 1], key[j]);
      }
      nem_.faces.insert(nem_.faces.end(), key, key + 4);
      nem_.faces.push_back(built_.block_offset[b] + positions[e] + 1);
      nem_.faces.push_back(static_cast<int64_t>(s) + 1);
    }
  }
}

bool Writer::mesh_complete() const {
  if (!have_nodes_) return false;
  for (const LocalBlock& b : blocks_) {
    if (!b.put) return false;
  }
  return true;
}

Status Writer::nemesis_write_list(int var, const std::vector<int64_t>& values, const std::vector<int64_t>& all_counts) {
  if (var < 0) return Status::Ok();  // no processor has any: the file has no such variable
  int64_t start = 0, total = 0;
  for (size_t r = 0; r < all_counts.size(); ++r) {
    if (static_cast<int>(r) < rank_) start += all_counts[r];
    total += all_counts[r];
  }
  std::vector<collective::Run> runs;
  if (!values.empty()) runs.push_back(collective::Run{start, static_cast<int64_t>(values.size()), 0});
  NcType type = built_.model.vars[static_cast<size_t>(var)].type;
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<collective::Decomposition> d, decomposition(std::move(runs), total, type));
  Status s = write_array(*d, var, 0, 0, ElementType::kInt64, values.data());
  Status f = free_decomposition(d);
  return s.ok() ? f : s;
}

Status Writer::nemesis_finish() {
  const comm::Comm& comm = group_->comm_object();
  const int size = comm.size();
  // Shared sides: offers to home(key), matched there, answers back.
  std::vector<std::vector<int64_t>> out(static_cast<size_t>(size));
  for (size_t f = 0; f + kFaceWords <= nem_.faces.size(); f += kFaceWords) {
    const int64_t* k = &nem_.faces[f];
    uint64_t mix = 0;
    for (int q = 0; q < 4; ++q) mix = mix * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(k[q]);
    auto& to = out[static_cast<size_t>(home(static_cast<int64_t>(mix >> 1), size))];
    to.insert(to.end(), k, k + kFaceWords);
  }
  nem_.faces.clear();
  nem_.faces.shrink_to_fit();
  std::vector<int64_t> in;
  std::vector<int> from;
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from));
  struct Offer {
    const int64_t* w;
    int rank;
  };
  std::vector<Offer> offers;
  {
    size_t k = 0;
    for (int r = 0; r < size; ++r) {
      for (int i = 0; i < from[static_cast<size_t>(r)]; i += kFaceWords, k += kFaceWords) offers.push_back(Offer{&in[k], r});
    }
  }
  auto key_less = [](const Offer& a, const Offer& b) {
    return std::lexicographical_compare(a.w, a.w + 4, b.w, b.w + 4) || (std::equal(a.w, a.w + 4, b.w) && a.rank < b.rank);
  };
  std::sort(offers.begin(), offers.end(), key_less);
  for (auto& b : out) b.clear();
  for (size_t a = 0; a < offers.size();) {
    size_t z = a;
    while (z < offers.size() && std::equal(offers[a].w, offers[a].w + 4, offers[z].w)) ++z;
    for (size_t i = a; i < z; ++i) {
      for (size_t j = a; j < z; ++j) {
        if (offers[i].rank == offers[j].rank) continue;
        auto& to = out[static_cast<size_t>(offers[i].rank)];
        to.insert(to.end(), {offers[i].w[4], offers[i].w[5], static_cast<int64_t>(offers[j].rank)});
      }
    }
    a = z;
  }
  offers.clear();
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from));
  out.clear();

  // This processor's lists.
  std::vector<std::array<int64_t, 3>> ecmap;  // (proc, element, side)
  for (size_t i = 0; i + 2 < in.size(); i += 3) ecmap.push_back({in[i + 2], in[i], in[i + 1]});
  std::sort(ecmap.begin(), ecmap.end());
  ecmap.erase(std::unique(ecmap.begin(), ecmap.end()), ecmap.end());
  std::vector<int64_t> bor_elems, int_elems, e_eids, e_sids, e_proc;
  for (const auto& t : ecmap) {
    e_proc.push_back(t[0]);
    e_eids.push_back(t[1]);
    e_sids.push_back(t[2]);
    bor_elems.push_back(t[1]);
  }
  std::sort(bor_elems.begin(), bor_elems.end());
  bor_elems.erase(std::unique(bor_elems.begin(), bor_elems.end()), bor_elems.end());
  for (size_t b = 0; b < blocks_.size(); ++b) {
    for (int64_t p : blocks_[b].positions) {
      const int64_t e = built_.block_offset[b] + p + 1;
      if (!std::binary_search(bor_elems.begin(), bor_elems.end(), e)) int_elems.push_back(e);
    }
  }
  std::sort(int_elems.begin(), int_elems.end());
  std::vector<int64_t> int_nodes, bor_nodes, n_nids, n_proc;
  for (int64_t p : nem_.nodes) (nemesis_shared(p) ? bor_nodes : int_nodes).push_back(p + 1);
  std::vector<std::pair<int64_t, int64_t>> ncmap;  // (proc, node)
  for (const auto& [p, r] : nem_.shared) ncmap.emplace_back(r, p + 1);
  std::sort(ncmap.begin(), ncmap.end());
  for (const auto& [r, n] : ncmap) {
    n_proc.push_back(r);
    n_nids.push_back(n);
  }

  // Every processor's counts, then the model and the layout.
  const int64_t mine[NemesisCounts::kWords] = {
      static_cast<int64_t>(int_nodes.size()), static_cast<int64_t>(bor_nodes.size()),
      static_cast<int64_t>(int_elems.size()), static_cast<int64_t>(bor_elems.size()),
      static_cast<int64_t>(n_nids.size()),    static_cast<int64_t>(e_eids.size())};
  std::vector<int64_t> gathered(static_cast<size_t>(size) * NemesisCounts::kWords);
  PARIO_RETURN_IF_ERROR(comm::mpi_status(MPI_Allgather(mine, NemesisCounts::kWords, MPI_INT64_T, gathered.data(),
                                                       NemesisCounts::kWords, MPI_INT64_T, comm.get()),
                                         "MPI_Allgather"));
  std::vector<NemesisCounts> procs(static_cast<size_t>(size));
  for (size_t r = 0; r < procs.size(); ++r) {
    const int64_t* g = &gathered[r * NemesisCounts::kWords];
    procs[r] = NemesisCounts{g[0], g[1], g[2], g[3], g[4], g[5]};
  }
  Model model = built_.model;
  const BuiltNemesis bn = add_nemesis(model, def_, procs);
  Result<Layout> placed = place_after(model, layout_);
  PARIO_RETURN_IF_ERROR(comm::agree(comm, placed.status()));
  // From here the header changes; a failure below (agreed: every write's
  // status is) puts the plain one back (nemesis_finish).
  const Model plain_model = built_.model;
  const Layout plain_layout = layout_;
  built_.model = std::move(model);
  layout_ = std::move(placed).value();
  Status written = [&]() -> Status {
    // Rank 0: the header (records now after the Nemesis variables, none
    // counted yet) and the small variables. The part counts as written
    // (nem_.done: steps may follow) only once all of it is; after a failure
    // the plain header is written back below and no step may follow.
    Status root;
    if (rank_ == 0) {
      root = [&]() -> Status {
        PARIO_ASSIGN_OR_RETURN(std::vector<unsigned char> header, encode_header(built_.model, layout_, 0));
        PARIO_RETURN_IF_ERROR(device_->write_at(0, header.data(), header.size()));
        for (const VarBytes& v : nemesis_metadata(def_, built_.model, procs)) {
          PARIO_RETURN_IF_ERROR(
              device_->write_at(static_cast<uint64_t>(layout_.vars[v.var].begin), v.bytes.data(), v.bytes.size()));
        }
        return Status::Ok();
      }();
    }
    PARIO_RETURN_IF_ERROR(comm::agree(comm, root));
    auto counts = [&](int w) {
      std::vector<int64_t> c;
      for (size_t r = 0; r < procs.size(); ++r) c.push_back(gathered[r * NemesisCounts::kWords + static_cast<size_t>(w)]);
      return c;
    };
    PARIO_RETURN_IF_ERROR(nemesis_write_list(bn.node_mapi, int_nodes, counts(0)));
    PARIO_RETURN_IF_ERROR(nemesis_write_list(bn.node_mapb, bor_nodes, counts(1)));
    PARIO_RETURN_IF_ERROR(nemesis_write_list(bn.elem_mapi, int_elems, counts(2)));
    PARIO_RETURN_IF_ERROR(nemesis_write_list(bn.elem_mapb, bor_elems, counts(3)));
    PARIO_RETURN_IF_ERROR(nemesis_write_list(bn.n_comm_nids, n_nids, counts(4)));
    PARIO_RETURN_IF_ERROR(nemesis_write_list(bn.n_comm_proc, n_proc, counts(4)));
    PARIO_RETURN_IF_ERROR(nemesis_write_list(bn.e_comm_eids, e_eids, counts(5)));
    PARIO_RETURN_IF_ERROR(nemesis_write_list(bn.e_comm_sids, e_sids, counts(5)));
    PARIO_RETURN_IF_ERROR(nemesis_write_list(bn.e_comm_proc, e_proc, counts(5)));
    return Status::Ok();
  }();
  if (written.ok()) {
    nem_.done = true;
    nem_.nodes = {};
    nem_.shared = {};
    return written;
  }
  // The part is not retried (its lists are gone): the file goes back to
  // the plain header, so that what close leaves is an Exodus file of the
  // mesh without Nemesis information, which libexodusii reads, rather than
  // a header naming lists that hold zeros.
  built_.model = plain_model;
  layout_ = plain_layout;
  Status restored;
  if (rank_ == 0) {
    Result<std::vector<unsigned char>> header = encode_header(built_.model, layout_, 0);
    restored = header.ok() ? device_->write_at(0, header->data(), header->size()) : header.status();
  }
  restored = comm::agree(comm, restored);
  if (restored.ok()) return written;
  return Status(written.code(), written.message() + "; writing the header without the Nemesis variables back: " +
                                    restored.message());
}

Status Writer::nemesis_refusal(const char* what) const {
  return state(std::string(what) + ": the Nemesis information was not written (the put that completed the mesh "
                                   "failed: " + nem_.failure.message() + ") and cannot be written again: no step "
                                   "can follow; close the file (it keeps the mesh, without Nemesis information)");
}

Status Writer::nemesis_ready(const char* what) const {
  if (!options_.nemesis || nem_.done) return Status::Ok();
  if (!nem_.failure.ok()) return nemesis_refusal(what);
  if (mesh_complete()) {
    return state(std::string(what) + ": the Nemesis information failed to be written when the mesh was put "
                                     "(that call's error); no step can follow");
  }
  return state(std::string(what) + ": the Nemesis information is written once the nodes and every element block "
                                   "are put; put them first");
}

}  // namespace pario::exodus
