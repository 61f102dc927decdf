// An existing Exodus II file (netCDF classic, any writer: pario,
// libexodusii, meshio) opened by all ranks of a group, each reading the
// slices it asks for: ranges of nodes, of a block's elements, of a step's
// values. The group need not be the one that wrote the file.
//
// open: rank 0 reads the header (netcdf_classic decode_header, the file
// untrusted) and the small variables (ids, names, times), and broadcasts
// the bytes; every rank decodes the same and checks the Exodus shapes
// (kCorrupt naming the variable whose dimensions or type do not fit;
// kUnsupported for a netCDF-4 file or the old single-array layout of
// nodal variables). A read is collective: each rank checks its range,
// all agree, then one decomposition of the ranges (collective/
// decomposition.h) reads through the aggregators, converting from the
// file's type and byte order to the caller's.
//
// Besides ranges of positions: each rank's own entities by global id
// (locate_*, then the *_at reads), and node and side sets by ranges.
//
// Thread safety: one thread per rank calls a reader.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/element_type.h"
#include "base/status.h"
#include "collective/decomposition.h"
#include "collective/target.h"
#include "comm/group.h"
#include "device/async.h"
#include "device/storage.h"
#include "exodus/netcdf_classic.h"

namespace pario::exodus {

struct ReaderOptions {
  collective::CollectiveOptions collective;  // byte order: always big-endian here
  std::shared_ptr<device::Storage> storage;
  device::AsyncEngine* engine = nullptr;     // required
};

// What a file holds, as every rank sees it after open.
struct FileInfo {
  std::string title;
  int num_dim = 0;
  int64_t num_nodes = 0, num_elem = 0;
  int64_t num_node_sets = 0, num_side_sets = 0;
  struct Block {
    int64_t id = 0;
    std::string name, type;
    int64_t count = 0;
    int nodes_per_element = 0;
    int connect = -1;          // netCDF variable, -1 when empty
    int attributes = 0;        // attribute values per element
    int attrib = -1;           // attrib<b>, -1 when none
    std::vector<int> values;   // per element variable, -1 where the truth table has none
  };
  std::vector<Block> blocks;
  struct Set {
    int64_t id = 0;
    std::string name;
    int64_t count = 0;      // entries (nodes, or (element, side) pairs)
    int64_t df_count = 0;   // distribution factors (node sets: 0 or count)
    int entries = -1;       // node_ns<s> / elem_ss<s>, -1 when empty
    int sides = -1;         // side_ss<s>
    int df = -1;            // dist_fact_ns<s> / dist_fact_ss<s>
  };
  std::vector<Set> node_sets, side_sets;
  std::vector<std::string> global_vars, nodal_vars, element_vars;
  std::vector<double> times;   // one per step (numrecs)
  std::vector<int> coords;     // coordx/y/z variables
  int node_map = -1, elem_map = -1, global_values = -1;
  std::vector<int> nodal_values;
  std::vector<int64_t> block_offset;
  // Nemesis load-balance parameters (exodus/nemesis.h), when the file has
  // them: num_processors (0: none), and per processor of the file
  // (num_procs_file of them) what ex_get_loadbal_param gives: internal,
  // border and external nodes, internal and border elements, nodal and
  // elemental communication maps.
  int nemesis_procs = 0;
  int nemesis_procs_file = 0;
  // Per processor (empty when the file has no per-processor variable: every
  // count 0): what ex_get_loadbal_param gives, and where each of its five
  // lists (node_mapi, node_mapb, node_mape, elem_mapi, elem_mapb) begins in
  // its variable (nemesis_lists) and its first nodal and elemental
  // communication map (an index into node_cmaps / elem_cmaps).
  std::vector<std::array<int64_t, 7>> loadbal;
  std::vector<std::array<int64_t, 5>> list_begin;
  std::vector<std::array<int64_t, 2>> cmap_begin;
  std::array<int, 5> nemesis_lists{-1, -1, -1, -1, -1};  // the lists' variables, -1 where absent
  // Every communication map of the file (n_comm_ids / e_comm_ids order):
  // its id and its entries [begin, begin + count) in the data variables
  // (n_comm_nids, n_comm_proc; e_comm_eids, e_comm_sids, e_comm_proc).
  struct CommMap {
    int64_t id = 0, begin = 0, count = 0;
  };
  std::vector<CommMap> node_cmaps, elem_cmaps;
  std::array<int, 2> node_cmap_vars{-1, -1};      // n_comm_nids, n_comm_proc
  std::array<int, 3> elem_cmap_vars{-1, -1, -1};  // e_comm_eids, e_comm_sids, e_comm_proc
};

class Reader {
 public:
  static Result<std::unique_ptr<Reader>> open(std::shared_ptr<const comm::Group> group, const std::string& path,
                                              ReaderOptions options);
  ~Reader();

  const FileInfo& info() const { return info_; }
  const Header& header() const { return header_; }

  // Nodes [start, start + count) (0-based file positions): coordinates
  // (out[d] for each of num_dim dimensions) and global ids.
  Status read_coords(int64_t start, int64_t count, ElementType mem_type, void* const out[3]);
  Status read_node_ids(int64_t start, int64_t count, int64_t* ids);
  // Elements [start, start + count) of block b: global ids (may be null)
  // and connectivity as 1-based node positions (count * nodes per element).
  Status read_block(size_t b, int64_t start, int64_t count, int64_t* ids, int64_t* connectivity);
  // Values of step (1-based) for nodes / block b's elements [start, start + count).
  Status read_nodal_values(int step, size_t v, int64_t start, int64_t count, ElementType mem_type, void* out);
  Status read_element_values(int step, size_t v, size_t b, int64_t start, int64_t count, ElementType mem_type,
                             void* out);
  // Attribute values of block b's elements [start, start + count),
  // attributes per element each (element-major).
  Status read_attributes(size_t b, int64_t start, int64_t count, ElementType mem_type, void* out);
  // Global variables 1..count of step (count <= the file's global
  // variables); every rank reads them.
  Status read_global_values(int step, int64_t count, ElementType mem_type, void* out);
  Status close();

  // Local: entries [begin, begin + count) of a one-dimensional integer
  // variable (the Nemesis lists and maps FileInfo places; checked at open
  // to lie within it) read by this rank alone, as int64. They are small
  // and each rank asks for its own processor's, as libexodusii's
  // ex_get_processor_node_maps and the like do.
  Status read_integers(int var, int64_t begin, int64_t count, int64_t* out);

  // Entries [start, start + count) of node set s: global node ids
  // (node_num_map's values). Of side set s: global element ids and sides
  // (either may be null). Distribution factors [start, start + count) of
  // the set's df_count (side sets: in the order of their sides, any
  // number per side).
  Status read_node_set(size_t s, int64_t start, int64_t count, int64_t* node_ids);
  Status read_side_set(size_t s, int64_t start, int64_t count, int64_t* elem_ids, int64_t* sides);
  Status read_set_df(bool side, size_t s, int64_t start, int64_t count, ElementType mem_type, void* df);

  // A caller's partition (issue 27): collective; each rank names its own
  // entities by global id (as node_num_map / elem_num_map hold them; a file
  // without a map numbers them from 1). The id -> position lookup reads the
  // map in one slice per rank and answers through the distributed
  // directory (exodus/directory.h); no rank holds the whole map.
  // kInvalidArgument names an id the file does not have or one repeated on
  // the rank. Positions out: 0-based, of the nodes / within block b.
  Result<std::vector<int64_t>> locate_nodes(const int64_t* ids, int64_t n);
  Result<std::vector<int64_t>> locate_elements(size_t b, const int64_t* ids, int64_t n);
  // The same reads as above at a list of positions (from locate_*): the
  // k-th output entry is position[k]'s. read_block_at gives connectivity as
  // global node ids (the node map's values), not positions.
  Status read_coords_at(const std::vector<int64_t>& positions, ElementType mem_type, void* const out[3]);
  Status read_block_at(size_t b, const std::vector<int64_t>& positions, int64_t* connectivity);
  Status read_nodal_values_at(int step, size_t v, const std::vector<int64_t>& positions, ElementType mem_type,
                              void* out);
  Status read_element_values_at(int step, size_t v, size_t b, const std::vector<int64_t>& positions,
                                ElementType mem_type, void* out);

 private:
  Reader() = default;
  // Collective: every rank's range [start, start + count) of var's
  // (record) slab, `per` values per entry, into out.
  Status read_range(int var, int64_t record, int64_t first, int64_t size, int64_t start, int64_t count, int64_t per,
                    ElementType mem_type, void* out);
  // read_range for a list of positions (each `per` values) in [0, size).
  Status read_at(int var, int64_t record, int64_t first, int64_t size, const std::vector<int64_t>& positions,
                 int64_t per, ElementType mem_type, void* out);
  // The positions of ids in a map variable's slab [first, first + size)
  // (map < 0: ids are first + position + 1).
  Result<std::vector<int64_t>> locate(int map, int64_t first, int64_t size, const int64_t* ids, int64_t n,
                                      const std::string& what);
  // Turns n 1-based positions of a map's entities (nodes or elements, of
  // `size`) into their global ids, in place; kCorrupt (naming `what`) for
  // a position outside 1..size. Collective.
  Status to_ids(int map, int64_t size, int64_t* values, size_t n, const std::string& what);
  // Item i of items (blocks or sets, named `kind`) exists and [start,
  // start + count) is within its count (`what` names the entries).
  template <typename Items>
  Status check_item(const Items& items, size_t i, const char* kind, int64_t start, int64_t count,
                    const char* what) const;
  Status check_range(int64_t start, int64_t count, int64_t size, const char* what) const;
  Status check_step(int step) const;

  std::shared_ptr<const comm::Group> group_;
  ReaderOptions options_;
  std::unique_ptr<device::Device> device_;
  std::unique_ptr<collective::Target> target_;
  Header header_;
  FileInfo info_;
  bool closed_ = false;
};

// Pure: pario's own read partition. The file's elements split evenly over
// `size` ranks in file order (blocks one after another): rank's share of
// each block as [first, first + count), a contiguous stretch of the file.
std::vector<std::pair<int64_t, int64_t>> element_partition(const FileInfo& info, int rank, int size);
// Local: the header of a netCDF classic file of file_size bytes on device,
// read in O(log header) reads and decoded as untrusted input
// (decode_header's errors); head gets the header's bytes.
Result<Header> read_header(device::Device& device, int64_t file_size, std::vector<unsigned char>* head);
// The small variables the Exodus view needs (ids, names), by index.
std::vector<int> small_variables(const Model& model);
// The Exodus view of a decoded header and its small variables' bytes
// (fetch(v): variable v's bytes as the file holds them, for v among
// small_variables); pure, for tests. kCorrupt names a variable whose shape
// or type does not fit; kUnsupported for layouts not read yet.
Result<FileInfo> exodus_info(const Header& header, const std::function<std::vector<unsigned char>(int)>& fetch);

}  // namespace pario::exodus
