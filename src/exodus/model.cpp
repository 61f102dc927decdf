// The Exodus II names and shapes over the netCDF classic model (model.h).
#include "exodus/model.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "base/convert.h"

namespace pario::exodus {
namespace {

constexpr int64_t kLenName = kMaxExodusName + 1;  // with room for the NUL libexodusii keeps
constexpr int64_t kLenLine = kMaxLine + 1;

Status bad(const std::string& what) { return Status(Code::kInvalidArgument, what); }

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

Status check_names(const std::vector<std::string>& names, const std::string& what) {
  std::set<std::string> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    PARIO_RETURN_IF_ERROR(check_name(names[i], what + " " + std::to_string(i + 1)));
    if (names[i].empty()) return bad(what + " " + std::to_string(i + 1) + " has no name");
    if (!seen.insert(names[i]).second) return bad(what + " \"" + names[i] + "\" is given twice");
  }
  return Status::Ok();
}

Status check_sets(const std::vector<SetDef>& sets, bool side, bool int64) {
  std::set<int64_t> ids;
  for (const SetDef& s : sets) {
    PARIO_RETURN_IF_ERROR(check_set(s, side, int64));
    if (!ids.insert(s.id).second) return bad(std::string(side ? "side set " : "node set ") + std::to_string(s.id) + " is defined twice");
  }
  return Status::Ok();
}

// Names padded with NULs to `width` bytes each.
std::vector<unsigned char> text_rows(const std::vector<std::string>& rows, int64_t width) {
  std::vector<unsigned char> out(rows.size() * static_cast<size_t>(width), 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    std::copy(rows[i].begin(), rows[i].end(), out.begin() + static_cast<std::ptrdiff_t>(i * width));
  }
  return out;
}

}  // namespace

int add_dim(Model& m, const std::string& name, int64_t length) {
  m.dims.push_back(Dimension{name, length});
  return static_cast<int>(m.dims.size()) - 1;
}

int add_var(Model& m, const std::string& name, NcType type, std::vector<int> dims, std::vector<Attribute> attributes) {
  m.vars.push_back(Variable{name, std::move(dims), type, std::move(attributes)});
  return static_cast<int>(m.vars.size()) - 1;
}

std::vector<unsigned char> big_ints(const std::vector<int64_t>& values, NcType type) {
  const ElementType t = type == NcType::kInt64 ? ElementType::kInt64 : ElementType::kInt32;
  std::vector<unsigned char> out(values.size() * element_size(t));
  // Every value was checked to fit (ids below 2^31 in build()).
  (void)convert(ElementType::kInt64, values.data(), t, out.data(), values.size(), ByteOrder::kBig);
  return out;
}

Status check_name(const std::string& name, const std::string& what) {
  if (name.size() > kMaxExodusName) {
    return bad(what + " \"" + name + "\" is longer than " + std::to_string(kMaxExodusName) + " characters");
  }
  if (name.find('\0') != std::string::npos) return bad(what + " contains a NUL character");
  return Status::Ok();
}

int nodes_of_type(const std::string& type) {
  static const std::pair<const char*, int> kTable[] = {
      {"HEX", 8},     {"HEX8", 8},     {"HEX20", 20},  {"HEX27", 27}, {"TETRA", 4},  {"TETRA4", 4},
      {"TET4", 4},    {"TETRA10", 10}, {"WEDGE", 6},   {"WEDGE6", 6}, {"WEDGE15", 15}, {"QUAD", 4},
      {"QUAD4", 4},   {"QUAD8", 8},    {"QUAD9", 9},   {"TRI", 3},    {"TRI3", 3},   {"TRI6", 6},
      {"SHELL4", 4},  {"PYRAMID5", 5}, {"BAR2", 2},    {"BEAM2", 2},  {"TRUSS2", 2}, {"SPHERE", 1},
  };
  const std::string u = upper(type);
  for (const auto& [name, n] : kTable) {
    if (u == name) return n;
  }
  return 0;
}

// The largest count the file's integers hold.
static int64_t max_count(bool int64) { return int64 ? (int64_t{1} << 58) : 0x7fffffff; }

Status check_block(const BlockDef& k, bool int64) {
  constexpr int64_t kMaxInt = 0x7fffffff;
  const std::string what = "element block " + std::to_string(k.id);
  if (k.id <= 0 || k.id > kMaxInt) return bad("element block id " + std::to_string(k.id) + " is not in 1..2^31-1");
  if (k.count < 0 || k.count > max_count(int64)) {
    return bad(what + ": count " + std::to_string(k.count) + " is not in 0.." + std::to_string(max_count(int64)));
  }
  if (k.type.empty() || k.type.size() > kMaxExodusName) return bad(what + ": type \"" + k.type + "\" is empty or too long");
  PARIO_RETURN_IF_ERROR(check_name(k.name, what + ": name"));
  if (k.nodes_per_element < 0 || k.nodes_per_element > 4096 || (k.count > 0 && k.nodes_per_element == 0)) {
    return bad(what + ": nodes per element " + std::to_string(k.nodes_per_element) + " is not in 1..4096");
  }
  const int expected = nodes_of_type(k.type);
  if (expected > 0 && k.nodes_per_element != expected) {
    return bad(what + ": type " + k.type + " has " + std::to_string(expected) + " nodes per element, not " +
               std::to_string(k.nodes_per_element));
  }
  if (k.attributes < 0 || k.attributes > 4096) {
    return bad(what + ": attributes " + std::to_string(k.attributes) + " is not in 0..4096");
  }
  return Status::Ok();
}

Status check_set(const SetDef& s, bool side, bool int64) {
  const std::string what = std::string(side ? "side set " : "node set ") + std::to_string(s.id);
  if (s.id <= 0 || s.id > 0x7fffffff) return bad(what + ": id is not in 1..2^31-1");
  if (s.count < 0 || s.count > max_count(int64)) {
    return bad(what + ": count " + std::to_string(s.count) + " is not in 0.." + std::to_string(max_count(int64)));
  }
  PARIO_RETURN_IF_ERROR(check_name(s.name, what + ": name"));
  if (s.df_per_entry < 0 || (!side && s.df_per_entry > 1) || (side && s.df_per_entry > 64)) {
    return bad(what + ": distribution factors per entry " + std::to_string(s.df_per_entry) + " is not in 0.." +
               (side ? "64" : "1"));
  }
  if (s.varying_df()) {
    if (!side) return bad(what + ": a varying number of distribution factors is for side sets");
    if (s.df_per_entry != 0) return bad(what + ": a varying number of distribution factors has no df_per_side");
    if (s.df_total > max_count(int64)) {
      return bad(what + ": num_df " + std::to_string(s.df_total) + " is not in 0.." + std::to_string(max_count(int64)));
    }
    if (s.count == 0 && s.df_total > 0) return bad(what + ": " + std::to_string(s.df_total) + " distribution factors for no sides");
  } else if (s.df_total < -1) {
    return bad(what + ": num_df " + std::to_string(s.df_total) + " is negative");
  } else if (s.df_per_entry > 0 && s.count > max_count(int64) / s.df_per_entry) {
    // count * df_per_entry (df_count) must itself be a count the file
    // holds: once it wrapped to 0 and the factors were dropped unsaid.
    return bad(what + ": " + std::to_string(s.count) + " entries x " + std::to_string(s.df_per_entry) +
               " distribution factors is more than " + std::to_string(max_count(int64)));
  }
  return Status::Ok();
}

Result<Built> build(const Definition& def) {
  // The checks, in the order a caller fixes them.
  if (def.title.size() > kMaxLine) return bad("title is longer than " + std::to_string(kMaxLine) + " characters");
  if (def.title.find('\0') != std::string::npos) return bad("title contains a NUL character");
  if (def.num_dim < 1 || def.num_dim > 3) return bad("num_dim " + std::to_string(def.num_dim) + " is not 1, 2 or 3");
  if (def.num_nodes < 0) return bad("num_nodes " + std::to_string(def.num_nodes) + " is negative");
  if (def.num_elem < 0) return bad("num_elem " + std::to_string(def.num_elem) + " is negative");
  // The file's integers hold positions and counts (32-bit unless int64).
  const int64_t kMaxInt = max_count(def.int64);
  if (def.num_nodes > kMaxInt || def.num_elem > kMaxInt) {
    return bad(def.int64 ? "num_nodes and num_elem must be below 2^58"
                         : "num_nodes and num_elem must be below 2^31 (the file's integers are 32-bit; ask for int64)");
  }
  if (!def.coord_names.empty()) {
    if (def.coord_names.size() != static_cast<size_t>(def.num_dim)) {
      return bad("coordinate names: " + std::to_string(def.coord_names.size()) + " given for num_dim " +
                 std::to_string(def.num_dim));
    }
    for (const std::string& n : def.coord_names) PARIO_RETURN_IF_ERROR(check_name(n, "coordinate name"));
  }
  if (def.float_size != 4 && def.float_size != 8) {
    return bad("float word size " + std::to_string(def.float_size) + " is not 4 or 8");
  }
  int64_t elements = 0;
  std::set<int64_t> block_ids;
  for (size_t b = 0; b < def.blocks.size(); ++b) {
    const BlockDef& k = def.blocks[b];
    PARIO_RETURN_IF_ERROR(check_block(k, def.int64));
    if (!block_ids.insert(k.id).second) return bad("element block " + std::to_string(k.id) + " is defined twice");
    elements += k.count;
    if (elements > kMaxInt) return bad("the blocks hold more than " + std::to_string(kMaxInt) + " elements");
  }
  if (elements != def.num_elem) {
    return bad("the blocks hold " + std::to_string(elements) + " elements, num_elem is " + std::to_string(def.num_elem));
  }
  PARIO_RETURN_IF_ERROR(check_sets(def.node_sets, false, def.int64));
  PARIO_RETURN_IF_ERROR(check_sets(def.side_sets, true, def.int64));
  for (size_t q = 0; q < def.qa.size(); ++q) {
    for (const std::string& f : def.qa[q]) PARIO_RETURN_IF_ERROR(check_name(f, "QA record " + std::to_string(q + 1)));
  }
  for (size_t i = 0; i < def.info.size(); ++i) {
    if (def.info[i].size() > kMaxLine) {
      return bad("info record " + std::to_string(i + 1) + " is longer than " + std::to_string(kMaxLine) + " characters");
    }
  }
  PARIO_RETURN_IF_ERROR(check_names(def.global_vars, "global variable"));
  PARIO_RETURN_IF_ERROR(check_names(def.nodal_vars, "nodal variable"));
  PARIO_RETURN_IF_ERROR(check_names(def.element_vars, "element variable"));
  if (!def.truth.empty() && def.truth.size() != def.blocks.size() * def.element_vars.size()) {
    return bad("the truth table has " + std::to_string(def.truth.size()) + " entries, not blocks x element variables = " +
               std::to_string(def.blocks.size() * def.element_vars.size()));
  }
  if (!def.nodal_vars.empty() && def.num_nodes == 0) return bad("nodal variables need nodes");

  Built out;
  Model& m = out.model;
  out.real = def.float_size == 4 ? NcType::kFloat : NcType::kDouble;
  out.integer = def.int64 ? NcType::kInt64 : NcType::kInt;
  const NcType real = out.real, ints = out.integer;
  const float version = 6.02f;
  const int32_t word = def.float_size, file_size = 1, max_name = static_cast<int32_t>(kMaxExodusName),
                int64_status = def.int64 ? 0x1C00 : 0;  // EX_ALL_INT64_DB
  m.attributes.push_back(numeric_attribute("api_version", NcType::kFloat, &version, 1));
  m.attributes.push_back(numeric_attribute("version", NcType::kFloat, &version, 1));
  m.attributes.push_back(numeric_attribute("floating_point_word_size", NcType::kInt, &word, 1));
  m.attributes.push_back(numeric_attribute("file_size", NcType::kInt, &file_size, 1));
  m.attributes.push_back(numeric_attribute("maximum_name_length", NcType::kInt, &max_name, 1));
  m.attributes.push_back(numeric_attribute("int64_status", NcType::kInt, &int64_status, 1));
  m.attributes.push_back(text_attribute("title", def.title));

  const int len_string = add_dim(m, "len_string", kLenName);
  const int len_line = add_dim(m, "len_line", kLenLine);
  const int four = add_dim(m, "four", 4);
  const int len_name = add_dim(m, "len_name", kLenName);
  const int time_step = add_dim(m, "time_step", kUnlimited);
  const int num_dim = add_dim(m, "num_dim", def.num_dim);
  const int num_nodes = def.num_nodes > 0 ? add_dim(m, "num_nodes", def.num_nodes) : -1;
  const int num_elem = def.num_elem > 0 ? add_dim(m, "num_elem", def.num_elem) : -1;
  const int nblk = def.blocks.empty() ? -1 : add_dim(m, "num_el_blk", static_cast<int64_t>(def.blocks.size()));
  const int nns = def.node_sets.empty() ? -1 : add_dim(m, "num_node_sets", static_cast<int64_t>(def.node_sets.size()));
  const int nss = def.side_sets.empty() ? -1 : add_dim(m, "num_side_sets", static_cast<int64_t>(def.side_sets.size()));

  out.time = add_var(m, "time_whole", real, {time_step});
  const std::vector<Attribute> id_name = {text_attribute("name", "ID")};
  if (nblk >= 0) {
    add_var(m, "eb_status", NcType::kInt, {nblk});
    add_var(m, "eb_prop1", ints, {nblk}, id_name);
  }
  if (nns >= 0) {
    add_var(m, "ns_status", NcType::kInt, {nns});
    add_var(m, "ns_prop1", ints, {nns}, id_name);
  }
  if (nss >= 0) {
    add_var(m, "ss_status", NcType::kInt, {nss});
    add_var(m, "ss_prop1", ints, {nss}, id_name);
  }
  if (nblk >= 0) add_var(m, "eb_names", NcType::kChar, {nblk, len_name});
  if (nns >= 0) add_var(m, "ns_names", NcType::kChar, {nns, len_name});
  if (nss >= 0) add_var(m, "ss_names", NcType::kChar, {nss, len_name});
  add_var(m, "coor_names", NcType::kChar, {num_dim, len_name});
  if (!def.qa.empty()) {
    const int nqa = add_dim(m, "num_qa_rec", static_cast<int64_t>(def.qa.size()));
    add_var(m, "qa_records", NcType::kChar, {nqa, four, len_string});
  }
  if (!def.info.empty()) {
    const int ninfo = add_dim(m, "num_info", static_cast<int64_t>(def.info.size()));
    add_var(m, "info_records", NcType::kChar, {ninfo, len_line});
  }
  int nglo = -1, nnod = -1, nelv = -1;
  if (!def.global_vars.empty()) {
    nglo = add_dim(m, "num_glo_var", static_cast<int64_t>(def.global_vars.size()));
    add_var(m, "name_glo_var", NcType::kChar, {nglo, len_name});
  }
  if (!def.nodal_vars.empty()) {
    nnod = add_dim(m, "num_nod_var", static_cast<int64_t>(def.nodal_vars.size()));
    add_var(m, "name_nod_var", NcType::kChar, {nnod, len_name});
  }
  if (!def.element_vars.empty()) {
    nelv = add_dim(m, "num_elem_var", static_cast<int64_t>(def.element_vars.size()));
    add_var(m, "name_elem_var", NcType::kChar, {nelv, len_name});
    if (nblk >= 0) add_var(m, "elem_var_tab", NcType::kInt, {nblk, nelv});
  }

  // The sets, then the big fixed variables: coordinates, maps, connectivity.
  for (size_t s = 0; s < def.node_sets.size(); ++s) {
    const SetDef& d = def.node_sets[s];
    BuiltSet b;
    if (d.count > 0) {
      const std::string k = std::to_string(s + 1);
      const int dim = add_dim(m, "num_nod_ns" + k, d.count);
      b.entries = add_var(m, "node_ns" + k, ints, {dim});
      if (d.df_per_entry > 0) b.df = add_var(m, "dist_fact_ns" + k, real, {dim});
    }
    out.node_sets.push_back(b);
  }
  for (size_t s = 0; s < def.side_sets.size(); ++s) {
    const SetDef& d = def.side_sets[s];
    BuiltSet b;
    if (d.count > 0) {
      const std::string k = std::to_string(s + 1);
      const int dim = add_dim(m, "num_side_ss" + k, d.count);
      b.entries = add_var(m, "elem_ss" + k, ints, {dim});
      b.sides = add_var(m, "side_ss" + k, ints, {dim});
      if (d.df_count() > 0) {
        const int df = add_dim(m, "num_df_ss" + k, d.df_count());
        b.df = add_var(m, "dist_fact_ss" + k, real, {df});
      }
    }
    out.side_sets.push_back(b);
  }
  if (num_nodes >= 0) {
    static const char* kCoord[3] = {"coordx", "coordy", "coordz"};
    for (int d = 0; d < def.num_dim; ++d) out.coords[d] = add_var(m, kCoord[d], real, {num_nodes});
    out.node_map = add_var(m, "node_num_map", ints, {num_nodes});
  }
  if (num_elem >= 0) out.elem_map = add_var(m, "elem_num_map", ints, {num_elem});
  int64_t offset = 0;
  for (size_t b = 0; b < def.blocks.size(); ++b) {
    const BlockDef& d = def.blocks[b];
    BuiltBlock k;
    out.block_offset.push_back(offset);
    offset += d.count;
    if (d.count > 0) {
      const std::string n = std::to_string(b + 1);
      const int in_blk = add_dim(m, "num_el_in_blk" + n, d.count);
      const int per_el = add_dim(m, "num_nod_per_el" + n, d.nodes_per_element);
      k.connect = add_var(m, "connect" + n, ints, {in_blk, per_el}, {text_attribute("elem_type", d.type)});
      if (d.attributes > 0) {
        const int natt = add_dim(m, "num_att_in_blk" + n, d.attributes);
        k.attrib = add_var(m, "attrib" + n, real, {in_blk, natt});
      }
    }
    out.blocks.push_back(std::move(k));
  }

  // Per step: the global values, the nodal variables, the element variables.
  if (nglo >= 0) out.global_values = add_var(m, "vals_glo_var", real, {time_step, nglo});
  for (size_t v = 0; v < def.nodal_vars.size(); ++v) {
    out.nodal_values.push_back(add_var(m, "vals_nod_var" + std::to_string(v + 1), real, {time_step, num_nodes}));
  }
  for (size_t b = 0; b < def.blocks.size(); ++b) {
    const BlockDef& d = def.blocks[b];
    out.blocks[b].values.assign(def.element_vars.size(), -1);
    if (d.count == 0) continue;
    const int in_blk = m.find_dim("num_el_in_blk" + std::to_string(b + 1));
    for (size_t v = 0; v < def.element_vars.size(); ++v) {
      if (!def.truth_at(b, v)) continue;
      out.blocks[b].values[v] = add_var(
          m, "vals_elem_var" + std::to_string(v + 1) + "eb" + std::to_string(b + 1), real, {time_step, in_blk});
    }
  }
  return out;
}

std::vector<VarBytes> metadata(const Definition& def, const Built& built) {
  const Model& m = built.model;
  std::vector<VarBytes> out;
  auto put = [&](const char* name, std::vector<unsigned char> bytes) {
    const int v = m.find_var(name);
    if (v >= 0) out.push_back(VarBytes{v, std::move(bytes)});
  };
  auto status_and_ids = [&](const char* status, const char* ids, const char* names, auto& list) {
    std::vector<int64_t> st, id;
    std::vector<std::string> nm;
    for (const auto& x : list) {
      st.push_back(x.count > 0 ? 1 : 0);
      id.push_back(x.id);
      nm.push_back(x.name);
    }
    put(status, big_ints(st));
    put(ids, big_ints(id, built.integer));
    put(names, text_rows(nm, kLenName));
  };
  status_and_ids("eb_status", "eb_prop1", "eb_names", def.blocks);
  status_and_ids("ns_status", "ns_prop1", "ns_names", def.node_sets);
  status_and_ids("ss_status", "ss_prop1", "ss_names", def.side_sets);
  std::vector<std::string> coords = def.coord_names;
  if (coords.empty()) {
    static const char* kDefault[3] = {"x", "y", "z"};
    for (int d = 0; d < def.num_dim; ++d) coords.push_back(kDefault[d]);
  }
  put("coor_names", text_rows(coords, kLenName));
  std::vector<std::string> qa;
  for (const auto& r : def.qa) qa.insert(qa.end(), r.begin(), r.end());
  put("qa_records", text_rows(qa, kLenName));
  put("info_records", text_rows(def.info, kLenLine));
  put("name_glo_var", text_rows(def.global_vars, kLenName));
  put("name_nod_var", text_rows(def.nodal_vars, kLenName));
  put("name_elem_var", text_rows(def.element_vars, kLenName));
  std::vector<int64_t> truth;
  for (size_t b = 0; b < def.blocks.size(); ++b) {
    for (size_t v = 0; v < def.element_vars.size(); ++v) truth.push_back(def.truth_at(b, v) ? 1 : 0);
  }
  put("elem_var_tab", big_ints(truth));
  return out;
}

Result<Layout> place(const Built& built, Format format) {
  LayoutOptions o;
  o.format = format;
  return layout(built.model, o);
}

}  // namespace pario::exodus
