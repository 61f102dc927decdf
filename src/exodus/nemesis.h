// Nemesis I load-balance information in one (un-decomposed) Exodus file:
// the partition the writing ranks have (rank r = processor r), as SEACAS's
// nem_slice records an elemental decomposition with ex_put_init_info(P, P,
// "s"), ex_put_init_global, ex_put_eb/ns/ss_info_global,
// ex_put_loadbal_param_cc, ex_put_cmap_params_cc and, per processor,
// ex_put_processor_node_maps, ex_put_processor_elem_maps, ex_put_node_cmap
// and ex_put_elem_cmap (names from libexodusii 6.02's exodusII_int.h).
//
// What a processor's lists hold (nem_slice's elemental decomposition):
//   - internal nodes: the nodes only its elements use; border nodes: the
//     nodes its elements and another processor's use (each processor that
//     uses a shared node lists it as border); external nodes: none;
//   - border elements: its elements with a side that is also a side of
//     another processor's element (the same corner nodes: a conforming
//     mesh; a quadrilateral face against two triangles is not paired);
//     internal elements: the others;
//   - one nodal communication map (id 1) when it has border nodes: a
//     (node, processor) pair for each border node and each other processor
//     using it, ordered by processor, then node;
//   - one elemental communication map (id 1) when it has border elements:
//     an (element, side, processor) triple for each side shared with an
//     element of another processor, ordered by processor, element, side.
// Nodes are 1-based node numbers (file positions: node_num_map gives the
// global id), elements 1-based element numbers (elem_num_map's positions),
// sides 1-based in Exodus's numbering (sides_of_type).
//
// The file (classic netCDF, all vectors concatenated over the processors,
// each *_idx[p] the end of processor p's slice):
//   attributes nemesis_file_version (2.6), nemesis_api_version;
//   dims num_processors, num_procs_file (both P), num_nodes_global,
//   num_elems_global, num_el_blk_global, num_ns_global, num_ss_global,
//   num_int_node, num_bor_node, num_int_elem, num_bor_elem, num_n_cmaps,
//   num_e_cmaps, ncnt_cmap, ecnt_cmap (a dimension of length 0 and its
//   variables are left out, as libexodusii does);
//   vars nem_ftype (scalar, 1: a "scalar" load-balance file of all
//   processors), el_blk_ids_global, el_blk_cnt_global, ns_ids_global,
//   ns_node_cnt_global, ns_df_cnt_global, ss_ids_global,
//   ss_side_cnt_global, ss_df_cnt_global, int_n_stat, bor_n_stat,
//   ext_n_stat, int_e_stat, bor_e_stat (per processor: 1 when its list is
//   not empty), node_mapi(_idx), node_mapb(_idx), elem_mapi(_idx),
//   elem_mapb(_idx), n_comm_ids, n_comm_stat, n_comm_info_idx,
//   n_comm_data_idx, n_comm_nids, n_comm_proc, and e_comm_* likewise with
//   e_comm_eids, e_comm_sids, e_comm_proc.
// Integers are the file's (int64 files: ids, maps, counts and indices
// 64-bit, status and processor numbers 32-bit, as libexodusii).
//
// The sizes depend on the partition, known only once the mesh is in, so
// the writer leaves room in the header for the largest Nemesis header
// (room_for_nemesis), places the Exodus variables after it, and appends the
// Nemesis variables after the Exodus ones when the last block is put; the
// records move behind them before any step is written.
//
// Thread safety: pure functions on values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "exodus/model.h"
#include "exodus/netcdf_classic.h"

namespace pario::exodus {

// One processor's counts, as they travel between the ranks (kWords int64s).
struct NemesisCounts {
  static constexpr int kWords = 6;
  int64_t int_nodes = 0, bor_nodes = 0, int_elems = 0, bor_elems = 0;
  int64_t node_cmap = 0, elem_cmap = 0;  // entries of its one node / element communication map
};

// Where the per-processor lists go in the model (-1 where the file has none).
struct BuiltNemesis {
  int node_mapi = -1, node_mapb = -1, elem_mapi = -1, elem_mapb = -1;
  int n_comm_nids = -1, n_comm_proc = -1, e_comm_eids = -1, e_comm_sids = -1, e_comm_proc = -1;
};

// Appends the Nemesis attributes, dimensions and variables for the
// processors' counts (one entry per processor) to model (built from def).
BuiltNemesis add_nemesis(Model& model, const Definition& def, const std::vector<NemesisCounts>& procs);

// The small Nemesis variables rank 0 writes: global parameters, status
// and index vectors, map ids and nem_ftype (model: with add_nemesis's part).
std::vector<VarBytes> nemesis_metadata(const Definition& def, const Model& model,
                                       const std::vector<NemesisCounts>& procs);

// The layout of built's model with room in the header for the Nemesis
// part of `nprocs` processors, whatever their counts: add_nemesis's part
// can later be appended without moving any Exodus variable.
Result<Layout> place_with_room_for_nemesis(const Built& built, const Definition& def, Format format, int nprocs);

// The layout of `model` (the Exodus model of `before` plus add_nemesis's
// part) with the fixed Exodus variables where `before` put them: the data
// begins at before.data_begin. kInternal if they would move.
Result<Layout> place_after(const Model& model, const Layout& before);

// The sides of an element type in Exodus's numbering: side s (1-based) is
// sides[s - 1], the 0-based indices of its corner nodes in the
// connectivity. HEX*, TET*, WEDGE*, PYRAMID* (faces), and in a 2-D mesh
// QUAD*, TRI* (edges); empty for any other type, and for QUAD*/TRI* in 3-D
// (shells: faces and edges both; their elements are never border elements).
const std::vector<std::vector<int>>& sides_of_type(const std::string& type, int nodes_per_element, int num_dim);

}  // namespace pario::exodus
