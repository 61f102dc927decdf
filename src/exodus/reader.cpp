// An Exodus II file read in slices by all ranks (reader.h).
//
// Open: rank 0 reads the header, asking decode_header how many bytes it
// needs until it has all of it, then the small variables (block ids,
// names, variable names) and the times; it broadcasts the header bytes
// and one blob of the rest, so every rank decodes the same view without
// touching the file. Failures on rank 0 (a missing file, a damaged header)
// are agreed before anything else is sent.
//
// A read: one decomposition of every rank's range of the variable (the
// ranges may overlap or leave gaps), one collective read through the
// aggregators, then the decomposition is freed. The file is untrusted:
// the header's offsets were checked against the file's size by
// decode_header, the ranges against the dimensions here.
#include "exodus/reader.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "base/convert.h"
#include "collective/layout.h"
#include "collective/transfer.h"
#include "exodus/directory.h"

namespace pario::exodus {
namespace {

using collective::Decomposition;
using collective::Run;

Status corrupt(const std::string& what) { return Status(Code::kCorrupt, what); }

// Rows of `width` characters, each up to its first NUL.
std::vector<std::string> text_rows(const std::vector<unsigned char>& bytes, int64_t rows, int64_t width) {
  std::vector<std::string> out;
  for (int64_t r = 0; r < rows; ++r) {
    const char* row = reinterpret_cast<const char*>(bytes.data()) + r * width;
    out.emplace_back(row, strnlen(row, static_cast<size_t>(width)));
  }
  return out;
}

bool is_real(NcType t) { return t == NcType::kFloat || t == NcType::kDouble; }
bool is_integer(NcType t) { return t == NcType::kInt || t == NcType::kInt64 || t == NcType::kShort; }

// The checked shape of variable `name`: its dimensions' names must be
// `dims` (the record dimension for "time_step").
Result<int> variable(const Model& m, const std::string& name, const std::vector<std::string>& dims, bool real,
                     bool required) {
  const int v = m.find_var(name);
  if (v < 0) {
    if (required) return corrupt("not an Exodus file: no variable " + name);
    return -1;
  }
  const Variable& var = m.vars[v];
  bool ok = var.dims.size() == dims.size();
  for (size_t k = 0; ok && k < dims.size(); ++k) ok = m.dims[var.dims[k]].name == dims[k];
  if (!ok) return corrupt("variable " + name + " does not have the dimensions Exodus gives it");
  if (real ? !is_real(var.type) : !(is_integer(var.type) || var.type == NcType::kChar)) {
    return corrupt("variable " + name + " has type " + nc_type_name(var.type));
  }
  return v;
}

int64_t dim_length(const Model& m, const std::string& name) {
  const int d = m.find_dim(name);
  return d < 0 ? 0 : m.dims[d].length;
}

// Integers of an integer variable's bytes (big-endian), as int64.
Result<std::vector<int64_t>> integers(const Model& m, int v, const std::vector<unsigned char>& bytes, size_t n) {
  const ElementType t = element_type_of(m.vars[v].type);
  if (bytes.size() / element_size(t) < n) return corrupt("variable " + m.vars[v].name + " is short");
  std::vector<int64_t> out(n);
  PARIO_RETURN_IF_ERROR(convert_from(t, bytes.data(), ByteOrder::kBig, ElementType::kInt64, out.data(), n));
  return out;
}

Result<std::vector<std::string>> names(const Model& m, const std::string& var, int64_t rows,
                                       const std::function<std::vector<unsigned char>(int)>& fetch) {
  const int v = m.find_var(var);
  if (rows == 0) return std::vector<std::string>();
  // rows comes from a dimension, which costs the header nothing: without
  // the variable there is no name to read, and at most one a variable of
  // the file is believed (a 2^31-1 claim made 64 GiB of empty strings).
  if (v < 0) {
    if (rows > static_cast<int64_t>(m.vars.size())) {
      return corrupt(std::to_string(rows) + " names and no variable " + var + " (the file has " +
                     std::to_string(m.vars.size()) + " variables)");
    }
    return std::vector<std::string>(static_cast<size_t>(rows));
  }
  const Variable& x = m.vars[v];
  // A width of 0 would leave rows unbacked by any byte.
  if (x.type != NcType::kChar || x.dims.size() != 2 || m.dims[x.dims[0]].length != rows ||
      m.dims[x.dims[1]].length < 1) {
    return corrupt("variable " + var + " is not " + std::to_string(rows) + " names");
  }
  const int64_t width = m.dims[x.dims[1]].length;
  const std::vector<unsigned char> bytes = fetch(v);
  if (static_cast<int64_t>(bytes.size()) < rows * width) return corrupt("variable " + var + " is short");
  return text_rows(bytes, rows, width);
}

// The Nemesis vectors of one value per processor (or per map) that
// ex_get_loadbal_param and ex_get_cmap_params read: the status and index
// variables, and the communication maps' ids, status and data ends.
constexpr const char* kPerProcessor[] = {"int_n_stat",    "bor_n_stat",    "ext_n_stat",      "int_e_stat",
                                         "bor_e_stat",    "node_mapi_idx", "node_mapb_idx",   "node_mape_idx",
                                         "elem_mapi_idx", "elem_mapb_idx", "n_comm_info_idx", "e_comm_info_idx"};
constexpr const char* kPerMap[] = {"n_comm_ids", "n_comm_stat", "n_comm_data_idx",
                                   "e_comm_ids", "e_comm_stat", "e_comm_data_idx"};

// The load-balance parameters of every processor in the file, as
// ex_get_loadbal_param computes them: a list whose status is 1 spans its
// index variable's [idx[p-1], idx[p]) (without an index variable: all of
// its dimension, as in a one-processor "p" file); the maps, the difference
// of the info index. And where each list and map lies, for reading them
// (ex_get_processor_node_maps, _elem_maps, ex_get_cmap_params,
// ex_get_node_cmap, ex_get_elem_cmap): a map's entries span its data
// index's [data_idx[i-1], data_idx[i]) when its status is 1, none
// otherwise. Untrusted: every range must stay within its dimension and its
// variable, and nothing is allocated per processor or per map unless a
// variable of that many values (bytes in the file) backs it.
Status nemesis_info(const Model& m, const std::function<std::vector<unsigned char>(int)>& fetch, FileInfo* f) {
  if (m.find_dim("num_processors") < 0 || m.find_dim("num_procs_file") < 0) return Status::Ok();
  const int64_t procs = dim_length(m, "num_processors"), in_file = dim_length(m, "num_procs_file");
  if (procs <= 0 || procs > INT_MAX || in_file <= 0 || in_file > procs) {
    return corrupt("Nemesis: num_processors " + std::to_string(procs) + ", num_procs_file " + std::to_string(in_file));
  }
  // A vector of n integers (one per processor or per map), or empty when absent.
  auto vec = [&](const char* name, int64_t n) -> Result<std::vector<int64_t>> {
    const int v = m.find_var(name);
    if (v < 0 || n == 0) return std::vector<int64_t>();
    const Variable& x = m.vars[static_cast<size_t>(v)];
    if (!is_integer(x.type) || x.dims.size() != 1 || m.is_record_var(v) ||
        m.dims[static_cast<size_t>(x.dims[0])].length < n) {
      return corrupt(std::string("Nemesis: variable ") + name + " is not " + std::to_string(n) + " integers");
    }
    return integers(m, v, fetch(v), static_cast<size_t>(n));
  };
  // A list or map data variable holding at least `need` integers (-1 when
  // need is 0 and it is absent).
  auto data = [&](const char* name, int64_t need) -> Result<int> {
    const int v = m.find_var(name);
    if (need == 0) return -1;  // nothing will be read from it
    if (v < 0) return corrupt(std::string("Nemesis: no variable ") + name + " for " + std::to_string(need) + " entries");
    const Variable& x = m.vars[static_cast<size_t>(v)];
    if (!is_integer(x.type) || x.dims.size() != 1 || m.is_record_var(v) ||
        m.dims[static_cast<size_t>(x.dims[0])].length < need) {
      return corrupt(std::string("Nemesis: variable ") + name + " is not " + std::to_string(need) + " integers");
    }
    return v;
  };
  f->nemesis_procs = static_cast<int>(procs);
  f->nemesis_procs_file = static_cast<int>(in_file);
  std::map<std::string, std::vector<int64_t>> per;  // the per-processor vectors present
  for (const char* name : kPerProcessor) {
    PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> v, vec(name, in_file));
    if (!v.empty()) per[name] = std::move(v);
  }
  if (per.empty()) return Status::Ok();  // every count 0, and in_file is not backed by any bytes
  auto get = [&](const char* name) -> const std::vector<int64_t>* {
    auto it = per.find(name);
    return it == per.end() ? nullptr : &it->second;
  };
  struct List {
    const char* stat;
    const char* idx;
    const char* dim;
    const char* var;
  };
  static const List kLists[5] = {{"int_n_stat", "node_mapi_idx", "num_int_node", "node_mapi"},
                                 {"bor_n_stat", "node_mapb_idx", "num_bor_node", "node_mapb"},
                                 {"ext_n_stat", "node_mape_idx", "num_ext_node", "node_mape"},
                                 {"int_e_stat", "elem_mapi_idx", "num_int_elem", "elem_mapi"},
                                 {"bor_e_stat", "elem_mapb_idx", "num_bor_elem", "elem_mapb"}};
  f->loadbal.assign(static_cast<size_t>(in_file), {0, 0, 0, 0, 0, 0, 0});
  f->list_begin.assign(static_cast<size_t>(in_file), {0, 0, 0, 0, 0});
  f->cmap_begin.assign(static_cast<size_t>(in_file), {0, 0});
  for (int k = 0; k < 7; ++k) {
    const bool maps = k >= 5;
    const std::vector<int64_t>* stat = maps ? nullptr : get(kLists[k].stat);
    if (!maps && !stat) continue;  // ex_get_loadbal_param would fail: no such list
    const std::vector<int64_t>* idx = get(maps ? (k == 5 ? "n_comm_info_idx" : "e_comm_info_idx") : kLists[k].idx);
    const char* dim = maps ? (k == 5 ? "num_n_cmaps" : "num_e_cmaps") : kLists[k].dim;
    const int64_t length = dim_length(m, dim);
    int64_t end = 0;  // the furthest entry any processor's part reaches
    for (int64_t p = 0; p < in_file; ++p) {
      if (!maps && (*stat)[static_cast<size_t>(p)] != 1) continue;
      int64_t lo = 0, hi = length;
      if (idx) {
        lo = p > 0 ? (*idx)[static_cast<size_t>(p) - 1] : 0;
        hi = (*idx)[static_cast<size_t>(p)];
      } else if (maps && m.find_dim(dim) < 0) {
        hi = 0;
      }
      if (lo < 0 || hi < lo || hi > length) {
        return corrupt(std::string("Nemesis: processor ") + std::to_string(p) + "'s part of " + dim + " is [" +
                       std::to_string(lo) + ", " + std::to_string(hi) + "), the dimension has " +
                       std::to_string(length));
      }
      f->loadbal[static_cast<size_t>(p)][static_cast<size_t>(k)] = hi - lo;
      if (maps) f->cmap_begin[static_cast<size_t>(p)][static_cast<size_t>(k - 5)] = lo;
      else f->list_begin[static_cast<size_t>(p)][static_cast<size_t>(k)] = lo;
      if (hi > lo) end = std::max(end, hi);
    }
    if (!maps) {
      PARIO_ASSIGN_OR_RETURN(f->nemesis_lists[static_cast<size_t>(k)], data(kLists[k].var, end));
    }
  }
  // The communication maps themselves.
  for (int e = 0; e < 2; ++e) {
    const char* p = e ? "e" : "n";
    const int64_t nmaps = dim_length(m, e ? "num_e_cmaps" : "num_n_cmaps");
    const int64_t entries = dim_length(m, e ? "ecnt_cmap" : "ncnt_cmap");
    PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> ids, vec((std::string(p) + "_comm_ids").c_str(), nmaps));
    PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> stat, vec((std::string(p) + "_comm_stat").c_str(), nmaps));
    PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> ends, vec((std::string(p) + "_comm_data_idx").c_str(), nmaps));
    if (nmaps > 0 && ids.empty()) return corrupt(std::string("Nemesis: no variable ") + p + "_comm_ids");
    std::vector<FileInfo::CommMap>& out = e ? f->elem_cmaps : f->node_cmaps;
    int64_t end = 0;
    for (int64_t i = 0; i < nmaps; ++i) {
      const size_t at = static_cast<size_t>(i);
      int64_t lo = 0, hi = entries;  // no data index: the whole dimension (one map)
      if (!ends.empty()) {
        lo = i > 0 ? ends[at - 1] : 0;
        hi = ends[at];
      }
      if (!stat.empty() && stat[at] != 1) hi = lo;  // a map whose status is 0 has no entries
      if (lo < 0 || hi < lo || hi > entries) {
        return corrupt(std::string("Nemesis: ") + p + "_comm map " + std::to_string(i) + " spans [" +
                       std::to_string(lo) + ", " + std::to_string(hi) + ") of " + std::to_string(entries) +
                       " entries");
      }
      out.push_back(FileInfo::CommMap{ids[at], lo, hi - lo});
      if (hi > lo) end = std::max(end, hi);
    }
    // Each processor's maps lie within the file's. Ranges are checked for
    // duplicate ids once each (without n_comm_info_idx every processor has
    // all the maps), and their total is bounded: a file's processors share
    // its maps out, so overlapping ranges many times the maps are not a
    // model but a way to make this check quadratic.
    std::vector<std::pair<int64_t, int64_t>> checked;
    int64_t budget = 16 * nmaps + (int64_t{1} << 20);
    for (int64_t q = 0; q < in_file; ++q) {
      const auto& lb = f->loadbal[static_cast<size_t>(q)];
      // Compared without a sum: both counts come from the file.
      const int64_t begin = f->cmap_begin[static_cast<size_t>(q)][static_cast<size_t>(e)];
      const int64_t count = lb[static_cast<size_t>(5 + e)];
      if (count > 0 && (begin < 0 || begin > nmaps || count > nmaps - begin)) {
        return corrupt(std::string("Nemesis: processor ") + std::to_string(q) + "'s " + p + "_comm maps run past " +
                       std::to_string(nmaps));
      }
      // A map is found by its id (ex_get_node_cmap, pario_exodus_get_node_cmap):
      // a processor's ids must differ, or a caller sizing its buffers by
      // ex_get_cmap_params's counts gets the first map's entries for the
      // second (more than it made room for).
      if (count <= 0 || (!checked.empty() && checked.back() == std::make_pair(begin, count))) continue;
      checked.emplace_back(begin, count);
      budget -= count;
      if (budget < 0) {
        return Status(Code::kUnsupported, std::string("Nemesis: the processors' ") + p +
                                              "_comm map ranges overlap far beyond the file's " +
                                              std::to_string(nmaps) + " maps");
      }
      std::vector<int64_t> seen;
      for (int64_t i = begin; i < begin + count; ++i) seen.push_back(out[static_cast<size_t>(i)].id);
      std::sort(seen.begin(), seen.end());
      if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) {
        return corrupt(std::string("Nemesis: processor ") + std::to_string(q) + " has two " + p +
                       "_comm maps with the id " + std::to_string(*std::adjacent_find(seen.begin(), seen.end())));
      }
    }
    if (e) {
      PARIO_ASSIGN_OR_RETURN(f->elem_cmap_vars[0], data("e_comm_eids", end));
      PARIO_ASSIGN_OR_RETURN(f->elem_cmap_vars[1], data("e_comm_sids", end));
      PARIO_ASSIGN_OR_RETURN(f->elem_cmap_vars[2], data("e_comm_proc", end));
    } else {
      PARIO_ASSIGN_OR_RETURN(f->node_cmap_vars[0], data("n_comm_nids", end));
      PARIO_ASSIGN_OR_RETURN(f->node_cmap_vars[1], data("n_comm_proc", end));
    }
  }
  return Status::Ok();
}

}  // namespace

std::vector<int> small_variables(const Model& model) {
  std::vector<int> out;
  for (const char* n : kPerProcessor) {
    const int v = model.find_var(n);
    if (v >= 0 && !model.is_record_var(v)) out.push_back(v);
  }
  for (const char* n : kPerMap) {
    const int v = model.find_var(n);
    if (v >= 0 && !model.is_record_var(v)) out.push_back(v);
  }
  for (const char* n : {"eb_prop1", "eb_names", "name_glo_var", "name_nod_var", "name_elem_var", "ns_prop1",
                        "ns_names", "ss_prop1", "ss_names"}) {
    const int v = model.find_var(n);
    if (v >= 0 && !model.is_record_var(v)) out.push_back(v);
  }
  return out;
}

Result<FileInfo> exodus_info(const Header& header, const std::function<std::vector<unsigned char>(int)>& fetch) {
  const Model& m = header.model;
  FileInfo f;
  for (const Attribute& a : m.attributes) {
    if (a.name == "title" && a.type == NcType::kChar) {
      const std::string t = a.text();
      f.title = t.substr(0, t.find('\0'));
    }
  }
  if (m.find_dim("num_dim") < 0) return corrupt("not an Exodus file: no dimension num_dim");
  f.num_dim = static_cast<int>(dim_length(m, "num_dim"));
  if (f.num_dim < 1 || f.num_dim > 3) return corrupt("num_dim is " + std::to_string(f.num_dim));
  f.num_nodes = dim_length(m, "num_nodes");
  f.num_elem = dim_length(m, "num_elem");
  f.num_node_sets = dim_length(m, "num_node_sets");
  f.num_side_sets = dim_length(m, "num_side_sets");
  if (m.find_var("coord") >= 0 || m.find_var("vals_nod_var") >= 0) {
    return Status(Code::kUnsupported, "the old Exodus layout (one coord or vals_nod_var array) is not read yet");
  }
  if (f.num_nodes > 0) {
    static const char* kCoord[3] = {"coordx", "coordy", "coordz"};
    for (int d = 0; d < f.num_dim; ++d) {
      PARIO_ASSIGN_OR_RETURN(int v, variable(m, kCoord[d], {"num_nodes"}, true, true));
      f.coords.push_back(v);
    }
    PARIO_ASSIGN_OR_RETURN(f.node_map, variable(m, "node_num_map", {"num_nodes"}, false, false));
  }
  if (f.num_elem > 0) {
    PARIO_ASSIGN_OR_RETURN(f.elem_map, variable(m, "elem_num_map", {"num_elem"}, false, false));
  }

  for (int side = 0; side < 2; ++side) {
    const int64_t nsets = side ? f.num_side_sets : f.num_node_sets;
    if (nsets <= 0) continue;
    const std::string p = side ? "ss" : "ns";
    // Sets without ids (a writer that leaves out *_prop1) are numbered from
    // 1. nsets is a dimension's length: nothing is allocated for it before
    // bytes back it (the ids), or, without ids, beyond one set a variable
    // of the file (a claim of 2^31-1 sets made 16 GiB of ids at once).
    PARIO_ASSIGN_OR_RETURN(int ids_var, variable(m, p + "_prop1", {side ? "num_side_sets" : "num_node_sets"}, false, false));
    std::vector<int64_t> ids;
    if (ids_var >= 0) {
      PARIO_ASSIGN_OR_RETURN(ids, integers(m, ids_var, fetch(ids_var), static_cast<size_t>(nsets)));
    } else if (nsets > static_cast<int64_t>(m.vars.size())) {
      return corrupt(std::string(side ? "num_side_sets " : "num_node_sets ") + std::to_string(nsets) + " with no " +
                     p + "_prop1 (the file has " + std::to_string(m.vars.size()) + " variables)");
    } else {
      for (int64_t s = 0; s < nsets; ++s) ids.push_back(s + 1);
    }
    PARIO_ASSIGN_OR_RETURN(std::vector<std::string> set_names, names(m, p + "_names", nsets, fetch));
    for (int64_t s = 0; s < nsets; ++s) {
      FileInfo::Set x;
      const std::string n = std::to_string(s + 1);
      x.id = ids[static_cast<size_t>(s)];
      x.name = set_names[static_cast<size_t>(s)];
      const std::string count_dim = (side ? "num_side_ss" : "num_nod_ns") + n;
      PARIO_ASSIGN_OR_RETURN(x.entries, variable(m, (side ? "elem_ss" : "node_ns") + n, {count_dim}, false, false));
      if (x.entries >= 0) {
        x.count = dim_length(m, count_dim);
        if (side) {
          PARIO_ASSIGN_OR_RETURN(x.sides, variable(m, "side_ss" + n, {count_dim}, false, true));
        }
        const std::string df_dim = side ? "num_df_ss" + n : count_dim;
        PARIO_ASSIGN_OR_RETURN(x.df, variable(m, (side ? "dist_fact_ss" : "dist_fact_ns") + n, {df_dim}, true, false));
        if (x.df >= 0) x.df_count = dim_length(m, df_dim);
      }
      (side ? f.side_sets : f.node_sets).push_back(std::move(x));
    }
  }

  const int64_t nblk = dim_length(m, "num_el_blk");
  PARIO_ASSIGN_OR_RETURN(f.global_vars, names(m, "name_glo_var", dim_length(m, "num_glo_var"), fetch));
  PARIO_ASSIGN_OR_RETURN(f.nodal_vars, names(m, "name_nod_var", dim_length(m, "num_nod_var"), fetch));
  PARIO_ASSIGN_OR_RETURN(f.element_vars, names(m, "name_elem_var", dim_length(m, "num_elem_var"), fetch));
  if (!f.global_vars.empty()) {
    PARIO_ASSIGN_OR_RETURN(f.global_values, variable(m, "vals_glo_var", {"time_step", "num_glo_var"}, true, true));
  }
  for (size_t v = 0; v < f.nodal_vars.size(); ++v) {
    PARIO_ASSIGN_OR_RETURN(int x, variable(m, "vals_nod_var" + std::to_string(v + 1), {"time_step", "num_nodes"},
                                           true, true));
    f.nodal_values.push_back(x);
  }
  if (nblk > 0) {
    // Every block keeps one entry per element variable: a header's two
    // counts (each one byte of file at least) must not multiply into more
    // memory than any model needs.
    constexpr int64_t kMaxBlockVariables = int64_t{1} << 26;
    const int64_t nvars = static_cast<int64_t>(f.element_vars.size());
    if (nblk > kMaxBlockVariables / std::max<int64_t>(nvars, 1)) {
      return Status(Code::kUnsupported, std::to_string(nblk) + " element blocks times " +
                                            std::to_string(std::max<int64_t>(nvars, 1)) +
                                            " element variables (or none) is more than " +
                                            std::to_string(kMaxBlockVariables) + " block variables");
    }
    PARIO_ASSIGN_OR_RETURN(int ids_var, variable(m, "eb_prop1", {"num_el_blk"}, false, true));
    PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> ids, integers(m, ids_var, fetch(ids_var), static_cast<size_t>(nblk)));
    PARIO_ASSIGN_OR_RETURN(std::vector<std::string> block_names, names(m, "eb_names", nblk, fetch));
    int64_t offset = 0;
    for (int64_t b = 0; b < nblk; ++b) {
      FileInfo::Block k;
      const std::string n = std::to_string(b + 1);
      k.id = ids[b];
      k.name = block_names[b];
      const std::string in_blk = "num_el_in_blk" + n, per_el = "num_nod_per_el" + n;
      PARIO_ASSIGN_OR_RETURN(k.connect, variable(m, "connect" + n, {in_blk, per_el}, false, false));
      if (k.connect >= 0) {
        k.count = dim_length(m, in_blk);
        const int64_t per_element = dim_length(m, per_el);  // CDF-5 dimensions reach 2^63
        if (per_element > INT32_MAX) {
          return corrupt(per_el + " is " + std::to_string(per_element) + " nodes per element");
        }
        k.nodes_per_element = static_cast<int>(per_element);
        for (const Attribute& a : m.vars[k.connect].attributes) {
          if (a.name == "elem_type") k.type = a.text().substr(0, a.text().find('\0'));
        }
        const std::string per_att = "num_att_in_blk" + n;
        PARIO_ASSIGN_OR_RETURN(k.attrib, variable(m, "attrib" + n, {in_blk, per_att}, true, false));
        if (k.attrib >= 0) {
          const int64_t per = dim_length(m, per_att);  // the layout bounds in_blk * per by the file
          if (per > INT32_MAX) return corrupt(per_att + " is " + std::to_string(per) + " attributes per element");
          k.attributes = static_cast<int>(per);
        }
      }
      for (size_t v = 0; v < f.element_vars.size(); ++v) {
        int x = -1;
        if (k.connect >= 0) {
          PARIO_ASSIGN_OR_RETURN(x, variable(m, "vals_elem_var" + std::to_string(v + 1) + "eb" + n,
                                             {"time_step", in_blk}, true, false));
        }
        k.values.push_back(x);
      }
      f.block_offset.push_back(offset);
      offset += k.count;
      f.blocks.push_back(std::move(k));
    }
    if (offset != f.num_elem) {
      return corrupt("the blocks hold " + std::to_string(offset) + " elements, num_elem is " +
                     std::to_string(f.num_elem));
    }
  }
  // time_whole: one real a record (the reader's count of steps rests on it).
  PARIO_RETURN_IF_ERROR(variable(m, "time_whole", {"time_step"}, true, false).status());
  PARIO_RETURN_IF_ERROR(nemesis_info(m, fetch, &f));
  return f;
}

// Whether the file's time_whole is one value a record: then each record
// holds at least its 4 bytes, so numrecs is bounded by the file's size (the
// decoder checked that the records lie in the file; with only records of
// 0 bytes, a header's numrecs of 2^31-1 needs no byte behind it, and every
// rank allocated 8 bytes a claimed step, rank 0 reading each).
static bool timed(const Model& m) {
  const int t = m.find_var("time_whole");
  return t >= 0 && m.is_record_var(t) && m.vars[static_cast<size_t>(t)].dims.size() == 1;
}

// What a reader holds of a file beyond its header on every rank: the
// small variables (names, ids, the Nemesis tables) and one time a step.
constexpr int64_t kMaxSmallBytes = int64_t{256} << 20;
constexpr int64_t kMaxSteps = int64_t{1} << 24;

// fn's status, or kNoMemory when an allocation in it failed (a size a file
// claimed): a collective step must not leave one rank by an exception.
template <typename Fn>
Status guard_allocation(const std::string& what, Fn&& fn) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return Status(Code::kNoMemory, what + ": out of memory for what the file's header claims");
  } catch (const std::length_error&) {
    return Status(Code::kNoMemory, what + ": a size the file's header claims is too large");
  }
}

Result<Header> read_header(device::Device& device, int64_t file_size, std::vector<unsigned char>* head) {
  size_t want = static_cast<size_t>(std::min<int64_t>(file_size, 1 << 16));
  for (;;) {
    head->resize(want);
    size_t got = 0;
    PARIO_RETURN_IF_ERROR(device.read_at(0, head->data(), want, &got));
    head->resize(got);
    PARIO_ASSIGN_OR_RETURN(Decoded d, decode_header(head->data(), head->size(), file_size));
    if (d.complete()) return std::move(d.header);
    want = static_cast<size_t>(d.need);
  }
}

Result<std::unique_ptr<Reader>> Reader::open(std::shared_ptr<const comm::Group> group, const std::string& path,
                                             ReaderOptions options) {
  std::unique_ptr<Reader> r(new Reader);
  const comm::Comm& comm = group->comm_object();
  r->group_ = group;
  r->options_ = std::move(options);
  r->options_.collective.byte_order = ByteOrder::kBig;
  Status local;
  if (!r->options_.storage || !r->options_.engine) local = Status(Code::kInvalidArgument, "the reader needs a storage and an engine");
  device::OpenOptions o;
  o.write = false;
  if (local.ok()) {
    Result<std::unique_ptr<device::Device>> d = r->options_.storage->open(path, o);
    local = d.status();
    if (d.ok()) r->device_ = std::move(d).value();
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));

  // Rank 0: the header's bytes, then the small variables and the times.
  // What the file claims is bounded before rank 0 acts on it, and an
  // allocation that fails becomes its status: the other ranks wait in the
  // agreement below, so nothing may leave this block another way.
  std::vector<unsigned char> head, blob;
  int64_t sizes[3] = {0, 0, 0};  // header bytes, blob bytes, file size
  if (comm.rank() == 0) {
    local = guard_allocation("exodus::Reader::open: " + path, [&]() -> Status {
      PARIO_ASSIGN_OR_RETURN(uint64_t file_size, r->device_->size());
      sizes[2] = static_cast<int64_t>(file_size);
      PARIO_ASSIGN_OR_RETURN(r->header_, read_header(*r->device_, sizes[2], &head));
      const Model& m = r->header_.model;
      for (int v : small_variables(m)) {
        const VarLayout& l = r->header_.layout.vars[v];
        const size_t at = blob.size();
        if (l.bytes > kMaxSmallBytes - static_cast<int64_t>(at)) {
          return Status(Code::kUnsupported, path + ": the names, ids and per-processor tables (" + m.vars[v].name +
                                                " and those before it) take more than " +
                                                std::to_string(kMaxSmallBytes >> 20) + " MiB");
        }
        blob.resize(at + static_cast<size_t>(l.bytes));
        size_t got = 0;
        PARIO_RETURN_IF_ERROR(r->device_->read_at(static_cast<uint64_t>(l.begin), blob.data() + at,
                                                  static_cast<size_t>(l.bytes), &got));
      }
      const int t = m.find_var("time_whole");
      if (timed(m)) {
        if (r->header_.numrecs > kMaxSteps) {
          return Status(Code::kUnsupported, path + ": " + std::to_string(r->header_.numrecs) +
                                                " time steps, more than " + std::to_string(kMaxSteps));
        }
        const VarLayout& l = r->header_.layout.vars[t];
        const size_t size = nc_type_size(m.vars[t].type);
        for (int64_t k = 0; k < r->header_.numrecs; ++k) {
          unsigned char bytes[8] = {0};
          size_t got = 0;
          PARIO_RETURN_IF_ERROR(r->device_->read_at(
              static_cast<uint64_t>(l.begin + k * r->header_.layout.recsize), bytes, size, &got));
          double time = 0;
          PARIO_RETURN_IF_ERROR(convert_from(element_type_of(m.vars[t].type), bytes, ByteOrder::kBig,
                                             ElementType::kDouble, &time, 1));
          r->info_.times.push_back(time);
        }
      }
      return Status::Ok();
    });
    sizes[0] = static_cast<int64_t>(head.size());
    sizes[1] = static_cast<int64_t>(blob.size());
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  PARIO_RETURN_IF_ERROR(group->broadcast(sizes, sizeof sizes, 0));
  // Every rank makes room for what rank 0 read, and says whether it could.
  local = guard_allocation("exodus::Reader::open: " + path, [&]() -> Status {
    head.resize(static_cast<size_t>(sizes[0]));
    blob.resize(static_cast<size_t>(sizes[1]));
    return Status::Ok();
  });
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  std::vector<double> times = r->info_.times;
  PARIO_RETURN_IF_ERROR(group->broadcast(head.data(), head.size(), 0));
  PARIO_RETURN_IF_ERROR(group->broadcast(blob.data(), blob.size(), 0));
  if (comm.rank() != 0) {
    Result<Decoded> d = decode_header(head.data(), head.size(), sizes[2]);
    local = d.status();
    if (d.ok()) r->header_ = std::move(d->header);
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  int64_t steps = timed(r->header_.model) ? r->header_.numrecs : 0;  // else exodus_info refuses the file
  times.resize(static_cast<size_t>(std::max<int64_t>(steps, 0)));
  PARIO_RETURN_IF_ERROR(group->broadcast(times.data(), times.size() * sizeof(double), 0));

  // Every rank: the Exodus view, from the blob.
  std::vector<int> smalls = small_variables(r->header_.model);
  Result<FileInfo> info = exodus_info(r->header_, [&](int v) {
    size_t at = 0;
    for (int s : smalls) {
      const size_t len = static_cast<size_t>(r->header_.layout.vars[s].bytes);
      if (s == v) return std::vector<unsigned char>(blob.begin() + static_cast<std::ptrdiff_t>(at),
                                                    blob.begin() + static_cast<std::ptrdiff_t>(at + len));
      at += len;
    }
    return std::vector<unsigned char>();
  });
  PARIO_RETURN_IF_ERROR(info.status());  // the same on every rank: the same bytes
  r->info_ = std::move(info).value();
  r->info_.times = std::move(times);
  r->target_ = std::make_unique<collective::DeviceTarget>(r->device_.get(), r->options_.engine);
  return r;
}

Reader::~Reader() {
  if (device_) (void)device_->close();
}

Status Reader::check_range(int64_t start, int64_t count, int64_t size, const char* what) const {
  if (closed_) return Status(Code::kState, "the file is closed");
  if (start < 0 || count < 0 || start > size || count > size - start) {
    return Status(Code::kOutOfRange, std::string(what) + " [" + std::to_string(start) + ", " + std::to_string(start) +
                                         " + " + std::to_string(count) + ") is not within 0.." + std::to_string(size));
  }
  return Status::Ok();
}

template <typename Items>
Status Reader::check_item(const Items& items, size_t i, const char* kind, int64_t start, int64_t count,
                          const char* what) const {
  if (i >= items.size()) {
    return Status(Code::kInvalidArgument, std::string(kind) + " index " + std::to_string(i) + " is not in the file");
  }
  return check_range(start, count, items[i].count, what);
}

Status Reader::check_step(int step) const {
  if (step < 1 || static_cast<size_t>(step) > info_.times.size()) {
    return Status(Code::kOutOfRange, "step " + std::to_string(step) + " is not in 1.." + std::to_string(info_.times.size()));
  }
  return Status::Ok();
}

namespace {
// One collective read of this rank's runs of var's (record) slab of `global` values.
Status read_runs(const comm::Group& group, const collective::CollectiveOptions& options, collective::Target& target,
                 const Header& header, int var, int64_t record, int64_t first, int64_t global,
                 std::vector<Run> runs, ElementType mem_type, void* out) {
  const NcType type = header.model.vars[static_cast<size_t>(var)].type;
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> d,
                         Decomposition::create(group, collective::sort_runs(std::move(runs)), global,
                                               element_type_of(type), options));
  const VarLayout& l = header.layout.vars[static_cast<size_t>(var)];
  const uint64_t offset = static_cast<uint64_t>(l.begin + record * header.layout.recsize +
                                                first * static_cast<int64_t>(nc_type_size(type)));
  Status s;
  Result<std::unique_ptr<collective::Transfer>> t = collective::Transfer::start_read(*d, target, offset, mem_type, out);
  s = t.ok() ? (*t)->wait() : t.status();
  Status f = d->free();
  return s.ok() ? f : s;
}
}  // namespace

Status Reader::read_range(int var, int64_t record, int64_t first, int64_t size, int64_t start, int64_t count,
                          int64_t per, ElementType mem_type, void* out) {
  std::vector<Run> runs;
  if (count > 0) runs.push_back(Run{start * per, count * per, 0});
  return read_runs(*group_, options_.collective, *target_, header_, var, record, first, size * per, std::move(runs),
                   mem_type, out);
}

Status Reader::read_at(int var, int64_t record, int64_t first, int64_t size, const std::vector<int64_t>& positions,
                       int64_t per, ElementType mem_type, void* out) {
  std::vector<Run> runs;
  runs.reserve(positions.size());
  for (size_t k = 0; k < positions.size(); ++k) {
    runs.push_back(Run{positions[k] * per, per, static_cast<int64_t>(k) * per});
  }
  return read_runs(*group_, options_.collective, *target_, header_, var, record, first, size * per, std::move(runs),
                   mem_type, out);
}

Result<std::vector<int64_t>> Reader::locate(int map, int64_t first, int64_t size, const int64_t* ids, int64_t n,
                                            const std::string& what) {
  const comm::Comm& comm = group_->comm_object();
  Status local;
  if (closed_) local = Status(Code::kState, "the file is closed");
  else if (n < 0) local = Status(Code::kInvalidArgument, "n is negative");
  else if (n > 0 && !ids) local = Status(Code::kInvalidArgument, "ids is null");
  std::unordered_set<int64_t> seen;
  for (int64_t k = 0; local.ok() && k < n; ++k) {
    if (!seen.insert(ids[k]).second) {
      local = Status(Code::kInvalidArgument, "ids[" + std::to_string(k) + "]: " + what + " id " +
                                                 std::to_string(ids[k]) + " is given twice on this rank");
    }
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  // This rank's slice of the map: [lo, hi).
  const int64_t p = comm.size(), r = comm.rank();
  const int64_t lo = size / p * r + std::min(r, size % p);
  const int64_t hi = lo + size / p + (r < size % p ? 1 : 0);
  std::vector<int64_t> slice(static_cast<size_t>(hi - lo)), positions(static_cast<size_t>(hi - lo));
  for (int64_t k = lo; k < hi; ++k) {
    positions[static_cast<size_t>(k - lo)] = k;
    slice[static_cast<size_t>(k - lo)] = first + k + 1;
  }
  if (map >= 0 && size > 0) {
    PARIO_RETURN_IF_ERROR(read_range(map, 0, first, size, lo, hi - lo, 1, ElementType::kInt64, slice.data()));
  }
  // This rank owns its slice's ids in the directory (a map read from the
  // file may repeat an id: the table answers one of its positions).
  IdTable table;
  table.add(slice.data(), positions.data(), nullptr, slice.size());
  slice = {};
  positions = {};
  PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> found, resolve(comm, table, ids, static_cast<size_t>(n)));
  for (int64_t k = 0; local.ok() && k < n; ++k) {
    if (found[static_cast<size_t>(k)] == kUnknownId) {
      local = Status(Code::kInvalidArgument, "ids[" + std::to_string(k) + "]: the file has no " + what + " with id " +
                                                 std::to_string(ids[k]));
    }
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  return found;
}

Result<std::vector<int64_t>> Reader::locate_nodes(const int64_t* ids, int64_t n) {
  return locate(info_.node_map, 0, info_.num_nodes, ids, n, "node");
}

Result<std::vector<int64_t>> Reader::locate_elements(size_t b, const int64_t* ids, int64_t n) {
  Status local = b < info_.blocks.size() ? Status::Ok()
                                         : Status(Code::kInvalidArgument, "block index " + std::to_string(b) + " is not in the file");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  return locate(info_.elem_map, info_.block_offset[b], info_.blocks[b].count, ids, n,
                "element of block " + std::to_string(info_.blocks[b].id));
}

Status Reader::read_coords_at(const std::vector<int64_t>& positions, ElementType mem_type, void* const out[3]) {
  Status local = closed_ ? Status(Code::kState, "the file is closed") : Status::Ok();
  for (int d = 0; local.ok() && !positions.empty() && d < info_.num_dim; ++d) {
    if (!out || !out[d]) local = Status(Code::kInvalidArgument, "the output of dimension " + std::to_string(d + 1) + " is null");
  }
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  for (int d = 0; d < info_.num_dim && info_.num_nodes > 0; ++d) {
    PARIO_RETURN_IF_ERROR(read_at(info_.coords[d], 0, 0, info_.num_nodes, positions, 1, mem_type,
                                  positions.empty() ? nullptr : out[d]));
  }
  return Status::Ok();
}

Status Reader::read_block_at(size_t b, const std::vector<int64_t>& positions, int64_t* connectivity) {
  Status local = closed_ ? Status(Code::kState, "the file is closed") : Status::Ok();
  if (local.ok() && b >= info_.blocks.size()) local = Status(Code::kInvalidArgument, "block index " + std::to_string(b) + " is not in the file");
  if (local.ok() && !positions.empty() && !connectivity) local = Status(Code::kInvalidArgument, "connectivity is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  const FileInfo::Block& k = info_.blocks[b];
  if (k.count == 0) return Status::Ok();
  const int64_t npe = k.nodes_per_element;
  PARIO_RETURN_IF_ERROR(read_at(k.connect, 0, 0, k.count, positions, npe, ElementType::kInt64, connectivity));
  return to_ids(info_.node_map, info_.num_nodes, connectivity, positions.size() * static_cast<size_t>(npe),
                "connect" + std::to_string(b + 1));
}

Status Reader::to_ids(int map, int64_t size, int64_t* values, size_t n, const std::string& what) {
  // The distinct positions, read once each.
  std::vector<int64_t> at(values, values + n);
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  Status local;
  if (!at.empty() && (at.front() < 1 || at.back() > size)) {
    local = Status(Code::kCorrupt, what + " names entry " + std::to_string(at.front() < 1 ? at.front() : at.back()) +
                                       "; there are " + std::to_string(size));
  }
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  for (int64_t& x : at) --x;
  std::vector<int64_t> ids(at.size());
  if (map >= 0) {
    PARIO_RETURN_IF_ERROR(read_at(map, 0, 0, size, at, 1, ElementType::kInt64, ids.data()));
  } else {
    for (size_t i = 0; i < at.size(); ++i) ids[i] = at[i] + 1;
  }
  for (size_t i = 0; i < n; ++i) {
    values[i] = ids[static_cast<size_t>(std::lower_bound(at.begin(), at.end(), values[i] - 1) - at.begin())];
  }
  return Status::Ok();
}

Status Reader::read_node_set(size_t s, int64_t start, int64_t count, int64_t* node_ids) {
  Status local = check_item(info_.node_sets, s, "node set", start, count, "entries");
  if (local.ok() && count > 0 && !node_ids) local = Status(Code::kInvalidArgument, "node_ids is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  const FileInfo::Set& x = info_.node_sets[s];
  if (x.count == 0) return Status::Ok();
  PARIO_RETURN_IF_ERROR(read_range(x.entries, 0, 0, x.count, start, count, 1, ElementType::kInt64, node_ids));
  return to_ids(info_.node_map, info_.num_nodes, node_ids, static_cast<size_t>(count), "node_ns" + std::to_string(s + 1));
}

Status Reader::read_side_set(size_t s, int64_t start, int64_t count, int64_t* elem_ids, int64_t* sides) {
  Status local = check_item(info_.side_sets, s, "side set", start, count, "entries");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  const FileInfo::Set& x = info_.side_sets[s];
  if (x.count == 0) return Status::Ok();
  // Every rank takes part in both reads; a null output reads into scratch.
  std::vector<int64_t> elems(static_cast<size_t>(count)), side_scratch;
  PARIO_RETURN_IF_ERROR(read_range(x.entries, 0, 0, x.count, start, count, 1, ElementType::kInt64, elems.data()));
  if (!sides) side_scratch.resize(static_cast<size_t>(count));
  PARIO_RETURN_IF_ERROR(read_range(x.sides, 0, 0, x.count, start, count, 1, ElementType::kInt64,
                                   sides ? sides : side_scratch.data()));
  PARIO_RETURN_IF_ERROR(to_ids(info_.elem_map, info_.num_elem, elems.data(), elems.size(), "elem_ss" + std::to_string(s + 1)));
  if (elem_ids) std::copy(elems.begin(), elems.end(), elem_ids);
  return Status::Ok();
}

Status Reader::read_set_df(bool side, size_t s, int64_t start, int64_t count, ElementType mem_type, void* df) {
  const std::vector<FileInfo::Set>& sets = side ? info_.side_sets : info_.node_sets;
  const char* kind = side ? "side set" : "node set";
  Status local = s < sets.size() ? Status::Ok()
                                 : Status(Code::kInvalidArgument, std::string(kind) + " index " + std::to_string(s) + " is not in the file");
  if (local.ok()) local = check_range(start, count, sets[s].df_count, "distribution factors");
  if (local.ok() && count > 0 && !df) local = Status(Code::kInvalidArgument, "df is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  if (sets[s].df_count == 0) return Status::Ok();
  return read_range(sets[s].df, 0, 0, sets[s].df_count, start, count, 1, mem_type, df);
}

Status Reader::read_nodal_values_at(int step, size_t v, const std::vector<int64_t>& positions, ElementType mem_type,
                                    void* out) {
  Status local = check_step(step);
  if (local.ok() && v >= info_.nodal_vars.size()) local = Status(Code::kInvalidArgument, "nodal variable " + std::to_string(v + 1) + " is not in the file");
  if (local.ok() && !positions.empty() && !out) local = Status(Code::kInvalidArgument, "values is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  return read_at(info_.nodal_values[v], step - 1, 0, info_.num_nodes, positions, 1, mem_type, out);
}

Status Reader::read_element_values_at(int step, size_t v, size_t b, const std::vector<int64_t>& positions,
                                      ElementType mem_type, void* out) {
  Status local = check_step(step);
  if (local.ok() && v >= info_.element_vars.size()) local = Status(Code::kInvalidArgument, "element variable " + std::to_string(v + 1) + " is not in the file");
  if (local.ok() && b >= info_.blocks.size()) local = Status(Code::kInvalidArgument, "block index " + std::to_string(b) + " is not in the file");
  if (local.ok() && info_.blocks[b].count > 0 && info_.blocks[b].values[v] < 0) {
    local = Status(Code::kNotFound, "block " + std::to_string(info_.blocks[b].id) + " has no element variable " + std::to_string(v + 1));
  }
  if (local.ok() && !positions.empty() && !out) local = Status(Code::kInvalidArgument, "values is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  if (info_.blocks[b].count == 0) return Status::Ok();
  return read_at(info_.blocks[b].values[v], step - 1, 0, info_.blocks[b].count, positions, 1, mem_type, out);
}

Status Reader::read_coords(int64_t start, int64_t count, ElementType mem_type, void* const out[3]) {
  Status local = check_range(start, count, info_.num_nodes, "nodes");
  for (int d = 0; local.ok() && count > 0 && d < info_.num_dim; ++d) {
    if (!out || !out[d]) local = Status(Code::kInvalidArgument, "the output of dimension " + std::to_string(d + 1) + " is null");
  }
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  for (int d = 0; d < info_.num_dim && info_.num_nodes > 0; ++d) {
    PARIO_RETURN_IF_ERROR(read_range(info_.coords[d], 0, 0, info_.num_nodes, start, count, 1, mem_type,
                                     count > 0 ? out[d] : nullptr));
  }
  return Status::Ok();
}

Status Reader::read_node_ids(int64_t start, int64_t count, int64_t* ids) {
  Status local = check_range(start, count, info_.num_nodes, "nodes");
  if (local.ok() && count > 0 && !ids) local = Status(Code::kInvalidArgument, "ids is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  if (info_.node_map < 0) {  // no map: ids are positions + 1
    for (int64_t k = 0; k < count; ++k) ids[k] = start + k + 1;
    return Status::Ok();
  }
  return read_range(info_.node_map, 0, 0, info_.num_nodes, start, count, 1, ElementType::kInt64, ids);
}

Status Reader::read_block(size_t b, int64_t start, int64_t count, int64_t* ids, int64_t* connectivity) {
  Status local = check_item(info_.blocks, b, "block", start, count, "elements");
  if (local.ok() && count > 0 && !connectivity) local = Status(Code::kInvalidArgument, "connectivity is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  const FileInfo::Block& k = info_.blocks[b];
  if (k.count == 0) return Status::Ok();
  // Every rank takes part in both reads; ids == null reads into a scratch array.
  std::vector<int64_t> scratch;
  int64_t* id_out = ids;
  if (!id_out) {
    scratch.resize(static_cast<size_t>(count));
    id_out = scratch.data();
  }
  if (info_.elem_map >= 0) {
    PARIO_RETURN_IF_ERROR(read_range(info_.elem_map, 0, info_.block_offset[b], k.count, start, count, 1,
                                     ElementType::kInt64, id_out));
  } else {
    for (int64_t e = 0; e < count; ++e) id_out[e] = info_.block_offset[b] + start + e + 1;
  }
  return read_range(k.connect, 0, 0, k.count, start, count, k.nodes_per_element, ElementType::kInt64, connectivity);
}

Status Reader::read_nodal_values(int step, size_t v, int64_t start, int64_t count, ElementType mem_type, void* out) {
  Status local = check_step(step);
  if (local.ok() && v >= info_.nodal_vars.size()) local = Status(Code::kInvalidArgument, "nodal variable " + std::to_string(v + 1) + " is not in the file");
  if (local.ok()) local = check_range(start, count, info_.num_nodes, "nodes");
  if (local.ok() && count > 0 && !out) local = Status(Code::kInvalidArgument, "values is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  return read_range(info_.nodal_values[v], step - 1, 0, info_.num_nodes, start, count, 1, mem_type, out);
}

Status Reader::read_element_values(int step, size_t v, size_t b, int64_t start, int64_t count, ElementType mem_type,
                                   void* out) {
  Status local = check_step(step);
  if (local.ok() && v >= info_.element_vars.size()) local = Status(Code::kInvalidArgument, "element variable " + std::to_string(v + 1) + " is not in the file");
  if (local.ok() && b >= info_.blocks.size()) local = Status(Code::kInvalidArgument, "block index " + std::to_string(b) + " is not in the file");
  if (local.ok()) local = check_range(start, count, info_.blocks[b].count, "elements");
  if (local.ok() && info_.blocks[b].count > 0 && info_.blocks[b].values[v] < 0) {
    local = Status(Code::kNotFound, "block " + std::to_string(info_.blocks[b].id) + " has no element variable " + std::to_string(v + 1));
  }
  if (local.ok() && count > 0 && !out) local = Status(Code::kInvalidArgument, "values is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  if (info_.blocks[b].count == 0) return Status::Ok();
  return read_range(info_.blocks[b].values[v], step - 1, 0, info_.blocks[b].count, start, count, 1, mem_type, out);
}

std::vector<std::pair<int64_t, int64_t>> element_partition(const FileInfo& info, int rank, int size) {
  // [lo, hi) of the concatenated elements; 128-bit products: num_elem * size may pass 2^63.
  const auto cut = [&](int r) {
    return static_cast<int64_t>(static_cast<__int128>(info.num_elem) * r / std::max(size, 1));
  };
  const int64_t lo = cut(rank), hi = cut(rank + 1);
  std::vector<std::pair<int64_t, int64_t>> part;
  int64_t offset = 0;
  for (const FileInfo::Block& b : info.blocks) {
    const int64_t from = std::clamp(lo - offset, int64_t{0}, b.count), to = std::clamp(hi - offset, int64_t{0}, b.count);
    part.emplace_back(to > from ? from : 0, std::max<int64_t>(0, to - from));
    offset += b.count;
  }
  return part;
}

Status Reader::read_attributes(size_t b, int64_t start, int64_t count, ElementType mem_type, void* out) {
  Status local = check_item(info_.blocks, b, "block", start, count, "elements");
  if (local.ok() && count > 0 && info_.blocks[b].attrib < 0) {
    local = Status(Code::kNotFound, "block " + std::to_string(info_.blocks[b].id) + " has no attributes");
  }
  if (local.ok() && count > 0 && !out) local = Status(Code::kInvalidArgument, "values is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  const FileInfo::Block& k = info_.blocks[b];
  if (k.attrib < 0) return Status::Ok();  // the same on every rank: nothing asked (counts of 0)
  return read_range(k.attrib, 0, 0, k.count, start, count, k.attributes, mem_type, out);
}

Status Reader::read_global_values(int step, int64_t count, ElementType mem_type, void* out) {
  const auto globals = static_cast<int64_t>(info_.global_vars.size());
  Status local = check_step(step);
  if (local.ok()) local = check_range(0, count, globals, "global variables");
  if (local.ok() && count > 0 && !out) local = Status(Code::kInvalidArgument, "values is null");
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), local));
  if (globals == 0) return Status::Ok();  // the same on every rank; a rank's count of 0 still takes part
  return read_range(info_.global_values, step - 1, 0, globals, 0, count, 1, mem_type, out);
}

Status Reader::read_integers(int var, int64_t begin, int64_t count, int64_t* out) {
  if (closed_) return Status(Code::kState, "the file is closed");
  if (count == 0) return Status::Ok();
  if (var < 0 || static_cast<size_t>(var) >= header_.model.vars.size()) {
    return Status(Code::kInternal, "read_integers: no variable " + std::to_string(var));
  }
  const Variable& x = header_.model.vars[static_cast<size_t>(var)];
  const VarLayout& l = header_.layout.vars[static_cast<size_t>(var)];
  const int64_t size = static_cast<int64_t>(nc_type_size(x.type));
  if (!is_integer(x.type) || begin < 0 || count < 0 || begin > l.bytes / size || count > l.bytes / size - begin) {
    return Status(Code::kInternal, "read_integers: entries [" + std::to_string(begin) + ", +" + std::to_string(count) +
                                       ") are not within variable " + x.name);
  }
  std::vector<unsigned char> bytes(static_cast<size_t>(count * size));
  size_t got = 0;
  PARIO_RETURN_IF_ERROR(device_->read_at(static_cast<uint64_t>(l.begin + begin * size), bytes.data(), bytes.size(), &got));
  if (got != bytes.size()) return corrupt("variable " + x.name + " is cut short (a truncated file)");
  return convert_from(element_type_of(x.type), bytes.data(), ByteOrder::kBig, ElementType::kInt64, out,
                      static_cast<size_t>(count));
}

Status Reader::close() {
  if (closed_) return Status(Code::kState, "the file is closed");
  closed_ = true;
  Status s = device_->close();
  device_.reset();
  return comm::agree(group_->comm_object(), s);
}

}  // namespace pario::exodus
