// The Exodus II model and its netCDF classic container: which dimensions,
// variables and attributes an Exodus II file holds, by the names Debian's
// libexodusii 6.02 and SEACAS use (exodusII_int.h), as a netcdf_classic
// Model, and the bytes of the small variables one rank writes (ids,
// status flags, names, QA and info records, the truth table).
//
// A Definition is what every rank of a writer declares alike before any
// data moves: the counts (global, the sum over all ranks' parts), the
// blocks and sets with their global sizes, the records and the variable
// names. build() checks it and names every netCDF variable; the writer
// (exodus/writer.h) places them with netcdf_classic's layout() and moves
// the big ones (coordinates, connectivity, maps, sets, values per step)
// through the collective engine.
//
// The file, as libexodusii writes it (dimension and variable names):
//   len_string 33, len_line 81, four 4, len_name 33 (names up to 32),
//   time_step UNLIMITED, num_dim, num_nodes, num_elem, num_el_blk,
//   num_node_sets, num_side_sets, num_el_in_blk<b>, num_nod_per_el<b>,
//   num_att_in_blk<b>, num_nod_ns<s>, num_side_ss<s>, num_df_ss<s>,
//   num_qa_rec, num_info, num_glo_var, num_nod_var, num_elem_var;
//   time_whole(time_step); eb_status, eb_prop1 (attribute name = "ID"),
//   ns_*, ss_* likewise; coordx/y/z(num_nodes); eb_names, ns_names,
//   ss_names, coor_names (…, len_name); connect<b>(num_el_in_blk<b>,
//   num_nod_per_el<b>) with attribute elem_type; attrib<b>; node_num_map,
//   elem_num_map; node_ns<s>, dist_fact_ns<s>; elem_ss<s>, side_ss<s>,
//   dist_fact_ss<s>; qa_records(num_qa_rec, four, len_string);
//   info_records(num_info, len_line); name_glo_var, vals_glo_var(time_step,
//   num_glo_var); vals_nod_var<v>(time_step, num_nodes), name_nod_var;
//   name_elem_var, vals_elem_var<v>eb<b>(time_step, num_el_in_blk<b>) where
//   the truth table says so, elem_var_tab(num_el_blk, num_elem_var).
// Blocks, sets and variables are numbered from 1 in definition order. A
// block or set with no entries has no dimension or data variable (netCDF
// has no fixed dimension of length 0) and status 0, as libexodusii does.
// Global attributes: api_version, version (float 6.02),
// floating_point_word_size, file_size (1), maximum_name_length (32),
// int64_status (0: every integer in the file is 32-bit; 0x1C00 =
// EX_ALL_INT64_DB with Definition::int64: ids, maps and bulk integers are
// int64, the file CDF-5), title.
//
// Thread safety: pure functions on values.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "exodus/netcdf_classic.h"

namespace pario::exodus {

// Longest name (block, set, variable, coordinate) and QA field; the file's
// maximum_name_length. Info lines hold up to kMaxLine characters.
constexpr size_t kMaxExodusName = 32;
constexpr size_t kMaxLine = 80;

struct BlockDef {
  int64_t id = 0;            // > 0, unique among blocks
  std::string name;          // may be empty
  std::string type;          // "HEX8", "TETRA4", ...; checked against nodes_per_element when known
  int64_t count = 0;         // elements in the block, all ranks together
  int nodes_per_element = 0; // > 0 when count > 0
  int attributes = 0;        // attribute values per element (attrib<b>)
};

struct SetDef {
  int64_t id = 0;           // > 0, unique among sets of the kind
  std::string name;
  int64_t count = 0;        // entries, all ranks together
  // Node sets: 0 or 1 (one factor per node). Side sets: factors per side
  // (e.g. 4 for the faces of a HEX8), 0 for none or a varying number.
  int df_per_entry = 0;
  // Side sets whose sides have different numbers of factors (one per node
  // of each side, as ex_put_set_dist_fact takes them: a set over mixed
  // element or face types): the factors in all, df_per_entry 0. -1: a
  // fixed number per side (count * df_per_entry in all).
  int64_t df_total = -1;

  bool varying_df() const { return df_total >= 0; }
  int64_t df_count() const { return varying_df() ? df_total : count * df_per_entry; }
};

enum class VarKind { kGlobal = 0, kNodal = 1, kElement = 2 };

struct Definition {
  std::string title;
  int num_dim = 3;            // 1, 2 or 3
  int64_t num_nodes = 0;
  int64_t num_elem = 0;       // the sum of the blocks' counts
  std::vector<std::string> coord_names;  // num_dim names, or none
  std::vector<BlockDef> blocks;
  std::vector<SetDef> node_sets, side_sets;
  std::vector<std::array<std::string, 4>> qa;  // code name, version, date, time
  std::vector<std::string> info;
  std::vector<std::string> global_vars, nodal_vars, element_vars;
  // blocks.size() x element_vars.size(), row per block; empty: all 1.
  std::vector<int> truth;
  int float_size = 8;         // bytes of a real in the file: 8 (double) or 4 (float)
  // 64-bit integers in the file (libexodusii's EX_ALL_INT64_DB: ids, maps,
  // connectivity and set entries as int64, int64_status 0x1C00), which
  // needs CDF-5; counts and node/element ids may then exceed 2^31.
  bool int64 = false;
  Format format = Format::kAuto;

  bool truth_at(size_t block, size_t var) const {
    return truth.empty() || truth[block * element_vars.size() + var] != 0;
  }
};

// Nodes an element type has, or 0 for a type not in the table (then any
// count is taken). Case-insensitive; "HEX" alone is HEX8, as in Exodus.
int nodes_of_type(const std::string& type);

// The checks build() applies to one name (at most kMaxExodusName
// characters, no NUL), one block and one set (kInvalidArgument naming it),
// for callers that check each definition as it comes.
Status check_name(const std::string& name, const std::string& what);
// int64: the file's integers are 64-bit (counts may exceed 2^31-1; ids of
// blocks and sets stay below 2^31 either way).
Status check_block(const BlockDef& block, bool int64 = false);
Status check_set(const SetDef& set, bool side, bool int64 = false);

// Where each Exodus entity's data is in the netCDF model (variable
// indices; -1 where the file has none).
struct BuiltBlock {
  int connect = -1, attrib = -1;
  std::vector<int> values;  // per element variable: vals_elem_var<v>eb<b>, or -1
};
struct BuiltSet {
  int entries = -1;         // node_ns<s> / elem_ss<s>
  int sides = -1;           // side_ss<s>
  int df = -1;              // dist_fact_*<s>
};
struct Built {
  Model model;
  int time = -1;
  std::array<int, 3> coords{-1, -1, -1};
  int node_map = -1, elem_map = -1;
  int global_values = -1;
  std::vector<int> nodal_values;  // per nodal variable
  std::vector<BuiltBlock> blocks;
  std::vector<BuiltSet> node_sets, side_sets;
  std::vector<int64_t> block_offset;  // first element (0-based) of each block in the element numbering
  NcType real = NcType::kDouble;
  NcType integer = NcType::kInt;  // ids, maps, connectivity, set entries: kInt64 when def.int64
};

// Appends a dimension or a variable to a model; returns its index.
int add_dim(Model& m, const std::string& name, int64_t length);
int add_var(Model& m, const std::string& name, NcType type, std::vector<int> dims,
            std::vector<Attribute> attributes = {});
// values as the file's big-endian kInt (or kInt64) integers; the caller
// knows they fit.
std::vector<unsigned char> big_ints(const std::vector<int64_t>& values, NcType type = NcType::kInt);

// Checks a definition (kInvalidArgument naming the field: counts,
// ids, names too long, types, the truth table's size) and builds the model.
Result<Built> build(const Definition& def);

// The bytes of one fixed variable, as they go in the file (big-endian).
struct VarBytes {
  int var = -1;
  std::vector<unsigned char> bytes;
};
// The small variables rank 0 writes after the header: status and id
// flags, names, coordinate names, QA and info records, variable names, the
// truth table. Everything else (coordinates, connectivity, maps, sets,
// values) comes from the ranks' parts.
std::vector<VarBytes> metadata(const Definition& def, const Built& built);

// The header's numbers for a model and a layout: the error of a model
// that names a variable the layout has not placed never happens (both come
// from build), so this is a convenience for writers and tests.
Result<Layout> place(const Built& built, Format format);

}  // namespace pario::exodus
