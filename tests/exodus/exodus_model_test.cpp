// The Exodus II model over the netCDF classic container, serially: the
// names and shapes libexodusii expects, the checks of a definition, and
// the small variables' bytes.
#include "exodus/model.h"

#include <gtest/gtest.h>

#include "exodus/nemesis.h"
#include "exodus/reader.h"
#include "exodus/series.h"
#include "exodus/writer.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "exodus/directory.h"

namespace pario::exodus {
namespace {

// The workload's definition at NX x NY x NZ (HEX: 2 HEX8 blocks).
Definition workload(int nx, int ny, int nz, bool mixed) {
  Definition d;
  d.title = "pario-exodus-workload";
  d.num_dim = 3;
  d.num_nodes = int64_t{nx + 1} * (ny + 1) * (nz + 1);
  const int64_t c1 = int64_t{nx} * ny * (nz / 2), c2 = int64_t{nx} * ny * nz - c1;
  d.blocks.push_back(BlockDef{10, "lower", "HEX8", c1, 8, 0});
  d.blocks.push_back(mixed ? BlockDef{20, "upper", "TETRA4", 6 * c2, 4, 0} : BlockDef{20, "upper", "HEX8", c2, 8, 0});
  d.num_elem = d.blocks[0].count + d.blocks[1].count;
  d.node_sets.push_back(SetDef{100, "x0", int64_t{ny + 1} * (nz + 1), 0});
  d.side_sets.push_back(SetDef{200, "z0", int64_t{nx} * ny, 0});
  d.qa.push_back({"pario", "1", "2024-01-01", "00:00:00"});
  d.info.push_back("generator=pario-exodus-v1");
  d.global_vars = {"energy"};
  d.nodal_vars = {"temperature", "displacement_x"};
  d.element_vars = {"stress"};
  return d;
}

int64_t dim(const Model& m, const std::string& name) {
  const int d = m.find_dim(name);
  return d < 0 ? -2 : m.dims[d].length;
}

TEST(ExodusModel, WorkloadHasLibexodusiiNames) {
  Result<Built> b = build(workload(6, 5, 4, false));
  ASSERT_TRUE(b.ok()) << b.status().message();
  const Model& m = b->model;
  EXPECT_EQ(dim(m, "num_nodes"), 7 * 6 * 5);
  EXPECT_EQ(dim(m, "num_elem"), 120);
  EXPECT_EQ(dim(m, "num_el_blk"), 2);
  EXPECT_EQ(dim(m, "num_el_in_blk1"), 60);
  EXPECT_EQ(dim(m, "num_nod_per_el2"), 8);
  EXPECT_EQ(dim(m, "num_nod_ns1"), 30);
  EXPECT_EQ(dim(m, "num_side_ss1"), 30);
  EXPECT_EQ(dim(m, "len_name"), 33);
  EXPECT_EQ(dim(m, "len_line"), 81);
  EXPECT_EQ(dim(m, "four"), 4);
  EXPECT_EQ(m.record_dim(), m.find_dim("time_step"));
  for (const char* v : {"time_whole", "coordx", "coordy", "coordz", "coor_names", "eb_names", "eb_status", "eb_prop1",
                        "connect1", "connect2", "node_num_map", "elem_num_map", "node_ns1", "elem_ss1", "side_ss1",
                        "qa_records", "info_records", "name_glo_var", "vals_glo_var", "vals_nod_var1",
                        "vals_nod_var2", "name_nod_var", "name_elem_var", "vals_elem_var1eb1", "vals_elem_var1eb2",
                        "elem_var_tab", "ns_prop1", "ss_prop1", "ns_names", "ss_names"}) {
    EXPECT_GE(m.find_var(v), 0) << v;
  }
  EXPECT_LT(m.find_var("dist_fact_ns1"), 0);  // no factors defined
  EXPECT_LT(m.find_var("coordw"), 0);
  const Variable& conn = m.vars[m.find_var("connect2")];
  ASSERT_EQ(conn.attributes.size(), 1u);
  EXPECT_EQ(conn.attributes[0].name, "elem_type");
  EXPECT_EQ(conn.attributes[0].text(), "HEX8");
  EXPECT_TRUE(m.is_record_var(m.find_var("vals_nod_var2")));
  EXPECT_FALSE(m.is_record_var(m.find_var("coordz")));
  bool have_version = false;
  for (const Attribute& a : m.attributes) {
    if (a.name == "version") {
      have_version = true;
      float v = 0;
      std::memcpy(&v, a.data.data(), 4);
      EXPECT_FLOAT_EQ(v, 6.02f);
    }
  }
  EXPECT_TRUE(have_version);
  // The variables' indices point at what their names say.
  EXPECT_EQ(m.vars[b->coords[2]].name, "coordz");
  EXPECT_EQ(m.vars[b->blocks[1].values[0]].name, "vals_elem_var1eb2");
  EXPECT_EQ(m.vars[b->node_sets[0].entries].name, "node_ns1");
  EXPECT_EQ(m.vars[b->side_sets[0].sides].name, "side_ss1");
  EXPECT_EQ(b->block_offset[1], 60);
}

TEST(ExodusModel, PlacesAsCdf2AndHeaderRoundTrips) {
  Definition d = workload(6, 5, 4, true);
  Result<Built> b = build(d);
  ASSERT_TRUE(b.ok()) << b.status().message();
  Result<Layout> l = place(*b, Format::kAuto);
  ASSERT_TRUE(l.ok()) << l.status().message();
  EXPECT_EQ(l->format, Format::kCdf2);
  Result<std::vector<unsigned char>> h = encode_header(b->model, *l, 3);
  ASSERT_TRUE(h.ok());
  Result<int64_t> size = l->file_size(3);
  ASSERT_TRUE(size.ok());
  Result<Decoded> back = decode_header(h->data(), h->size(), *size);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back->complete());
  EXPECT_TRUE(back->header.model == b->model);
  EXPECT_EQ(back->header.numrecs, 3);
  // Each small variable's bytes fill it exactly.
  for (const VarBytes& v : metadata(d, *b)) {
    EXPECT_EQ(static_cast<int64_t>(v.bytes.size()), l->vars[v.var].bytes) << b->model.vars[v.var].name;
  }
}

TEST(ExodusModel, MetadataBytesAreBigEndianAndPadded) {
  Definition d = workload(2, 2, 2, false);
  d.truth = {1, 0};
  Result<Built> b = build(d);
  ASSERT_TRUE(b.ok());
  EXPECT_LT(b->blocks[1].values[0], 0);  // the truth table leaves it out
  for (const VarBytes& v : metadata(d, *b)) {
    const std::string& name = b->model.vars[v.var].name;
    if (name == "eb_prop1") {
      ASSERT_EQ(v.bytes.size(), 8u);
      EXPECT_EQ(v.bytes[3], 10);
      EXPECT_EQ(v.bytes[7], 20);
      EXPECT_EQ(v.bytes[0], 0);
    } else if (name == "elem_var_tab") {
      ASSERT_EQ(v.bytes.size(), 8u);
      EXPECT_EQ(v.bytes[3], 1);
      EXPECT_EQ(v.bytes[7], 0);
    } else if (name == "eb_names") {
      ASSERT_EQ(v.bytes.size(), 66u);
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(v.bytes.data())), "lower");
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(v.bytes.data() + 33)), "upper");
    }
  }
}

TEST(ExodusModel, EmptyBlockAndFactorsAndFloat) {
  Definition d = workload(2, 2, 2, false);
  d.blocks.push_back(BlockDef{30, "empty", "QUAD4", 0, 4, 0});
  d.node_sets[0].df_per_entry = 1;
  d.side_sets[0].df_per_entry = 4;
  d.blocks[0].attributes = 2;
  d.float_size = 4;
  Result<Built> b = build(d);
  ASSERT_TRUE(b.ok()) << b.status().message();
  const Model& m = b->model;
  EXPECT_LT(m.find_var("connect3"), 0);  // no data for an empty block
  EXPECT_LT(dim(m, "num_el_in_blk3"), -1);
  EXPECT_GE(m.find_var("dist_fact_ns1"), 0);
  EXPECT_EQ(dim(m, "num_df_ss1"), 4 * 4);
  EXPECT_EQ(dim(m, "num_att_in_blk1"), 2);
  EXPECT_EQ(m.vars[m.find_var("coordx")].type, NcType::kFloat);
  EXPECT_EQ(m.vars[m.find_var("attrib1")].type, NcType::kFloat);
  for (const VarBytes& v : metadata(d, *b)) {
    if (m.vars[v.var].name == "eb_status") {
      EXPECT_EQ(v.bytes[11], 0);  // the empty block's status
    }
  }
}

TEST(ExodusModel, RefusesBadDefinitions) {
  auto fails = [](Definition d, const char* text) {
    Result<Built> b = build(d);
    ASSERT_FALSE(b.ok()) << text;
    EXPECT_EQ(b.status().code(), Code::kInvalidArgument);
    EXPECT_NE(b.status().message().find(text), std::string::npos) << b.status().message();
  };
  Definition d = workload(2, 2, 2, false);
  d.num_elem += 1;
  fails(d, "num_elem");
  d = workload(2, 2, 2, false);
  d.blocks[1].id = 10;
  fails(d, "defined twice");
  d = workload(2, 2, 2, false);
  d.blocks[1].nodes_per_element = 6;
  fails(d, "has 8 nodes per element");
  d = workload(2, 2, 2, false);
  d.blocks[0].name = std::string(33, 'a');
  fails(d, "longer than 32");
  d = workload(2, 2, 2, false);
  d.nodal_vars.push_back("temperature");
  fails(d, "given twice");
  d = workload(2, 2, 2, false);
  d.truth = {1};
  fails(d, "truth table");
  d = workload(2, 2, 2, false);
  d.node_sets[0].id = 0;
  fails(d, "not in 1..2^31-1");
  d = workload(2, 2, 2, false);
  d.num_dim = 4;
  fails(d, "num_dim");
  d = workload(2, 2, 2, false);
  d.info.push_back(std::string(81, 'i'));
  fails(d, "info record 2");
  d = workload(2, 2, 2, false);
  d.num_nodes = int64_t{1} << 31;
  fails(d, "2^31");
}

TEST(ExodusModel, ElementTypes) {
  EXPECT_EQ(nodes_of_type("HEX8"), 8);
  EXPECT_EQ(nodes_of_type("hex"), 8);
  EXPECT_EQ(nodes_of_type("TETRA4"), 4);
  EXPECT_EQ(nodes_of_type("WEDGE6"), 6);
  EXPECT_EQ(nodes_of_type("QUAD4"), 4);
  EXPECT_EQ(nodes_of_type("TRI3"), 3);
  EXPECT_EQ(nodes_of_type("MYPOLY"), 0);  // unknown: any count
}

// Nemesis: room left at end_define for any counts; appending the part
// for real counts moves no Exodus variable, only the records; the names,
// shapes and the small variables' values.
TEST(ExodusNemesis, RoomInTheHeaderAndNamesAndSmallVariables) {
  Definition d = workload(6, 5, 4, true);
  Result<Built> b = build(d);
  ASSERT_TRUE(b.ok()) << b.status().message();
  Result<Layout> before = place_with_room_for_nemesis(*b, d, Format::kAuto, 3);
  ASSERT_TRUE(before.ok()) << before.status().message();
  Result<Layout> plain = place(*b, Format::kAuto);
  ASSERT_TRUE(plain.ok());
  EXPECT_GT(before->data_begin, plain->data_begin);  // the room
  // Processor 1 has no border elements, nobody has internal nodes.
  std::vector<NemesisCounts> procs(3);
  procs[0] = NemesisCounts{0, 40, 20, 10, 44, 12};
  procs[1] = NemesisCounts{0, 30, 90, 0, 30, 0};
  procs[2] = NemesisCounts{0, 25, 30, 5, 26, 6};
  Model m = b->model;
  const BuiltNemesis bn = add_nemesis(m, d, procs);
  Result<Layout> after = place_after(m, *before);
  ASSERT_TRUE(after.ok()) << after.status().message();
  EXPECT_EQ(after->data_begin, before->data_begin);
  EXPECT_GT(after->record_begin, before->record_begin);
  EXPECT_EQ(after->recsize, before->recsize);
  // No internal nodes anywhere: no num_int_node (-2 here), no node_mapi.
  const std::pair<const char*, int64_t> dims[] = {
      {"num_processors", 3}, {"num_procs_file", 3}, {"num_nodes_global", d.num_nodes},
      {"num_elems_global", d.num_elem}, {"num_el_blk_global", 2}, {"num_int_node", -2}, {"num_bor_node", 95},
      {"num_int_elem", 140}, {"num_bor_elem", 15}, {"num_n_cmaps", 3}, {"num_e_cmaps", 2}, {"ncnt_cmap", 100},
      {"ecnt_cmap", 18}};
  for (const auto& [name, length] : dims) EXPECT_EQ(dim(m, name), length) << name;
  EXPECT_LT(bn.node_mapi, 0);
  EXPECT_GE(bn.node_mapb, 0);
  EXPECT_GE(bn.e_comm_sids, 0);
  // The small variables, decoded back.
  auto ints = [&](const char* name) {
    std::vector<int64_t> out;
    for (const VarBytes& v : nemesis_metadata(d, m, procs)) {
      if (m.vars[static_cast<size_t>(v.var)].name != name) continue;
      for (size_t i = 0; i + 4 <= v.bytes.size(); i += 4) {
        out.push_back(int32_t(uint32_t(v.bytes[i]) << 24 | uint32_t(v.bytes[i + 1]) << 16 |
                              uint32_t(v.bytes[i + 2]) << 8 | v.bytes[i + 3]));
      }
    }
    return out;
  };
  EXPECT_EQ(ints("nem_ftype"), std::vector<int64_t>{1});
  EXPECT_EQ(ints("el_blk_ids_global"), (std::vector<int64_t>{10, 20}));
  EXPECT_EQ(ints("el_blk_cnt_global"), (std::vector<int64_t>{60, 360}));
  EXPECT_EQ(ints("int_n_stat"), (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(ints("bor_e_stat"), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(ints("node_mapb_idx"), (std::vector<int64_t>{40, 70, 95}));
  EXPECT_EQ(ints("elem_mapi_idx"), (std::vector<int64_t>{20, 110, 140}));
  EXPECT_EQ(ints("n_comm_info_idx"), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(ints("n_comm_data_idx"), (std::vector<int64_t>{44, 74, 100}));
  EXPECT_EQ(ints("e_comm_info_idx"), (std::vector<int64_t>{1, 1, 2}));
  EXPECT_EQ(ints("e_comm_data_idx"), (std::vector<int64_t>{12, 18}));
  EXPECT_EQ(ints("e_comm_ids"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(ints("ns_df_cnt_global"), std::vector<int64_t>{0});

  // pario's reader finds each processor's parameters from these bytes, as
  // ex_get_loadbal_param would.
  std::vector<VarBytes> small = metadata(d, *b);
  for (VarBytes& v : nemesis_metadata(d, m, procs)) small.push_back(std::move(v));
  Header h;
  h.model = m;
  h.layout = *after;
  Result<FileInfo> info = exodus_info(h, [&](int v) {
    for (const VarBytes& x : small) {
      if (x.var == v) return x.bytes;
    }
    return std::vector<unsigned char>();
  });
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->nemesis_procs, 3);
  ASSERT_EQ(info->loadbal.size(), 3u);
  for (size_t p = 0; p < 3; ++p) {
    const NemesisCounts& c = procs[p];
    const std::array<int64_t, 7> want = {c.int_nodes, c.bor_nodes, 0, c.int_elems, c.bor_elems,
                                         c.node_cmap > 0 ? 1 : 0, c.elem_cmap > 0 ? 1 : 0};
    EXPECT_EQ(info->loadbal[p], want) << "processor " << p;
  }
  // Where the lists and maps lie (pario_exodus_get_node_maps and the
  // others read there): processor p's part of each list begins at the end
  // of p - 1's, and every map spans its data index.
  EXPECT_EQ(info->nemesis_procs_file, 3);
  EXPECT_EQ(info->list_begin[1][1], 40);   // processor 1's border nodes
  EXPECT_EQ(info->list_begin[2][3], 110);  // processor 2's internal elements
  EXPECT_EQ(info->list_begin[2][4], 10);   // processor 2's border elements (processor 1 has none)
  EXPECT_LT(info->nemesis_lists[0], 0);    // no node_mapi at all
  EXPECT_EQ(info->nemesis_lists[1], m.find_var("node_mapb"));
  ASSERT_EQ(info->node_cmaps.size(), 3u);
  EXPECT_EQ(info->node_cmaps[1].id, 1);
  EXPECT_EQ(info->node_cmaps[1].begin, 44);
  EXPECT_EQ(info->node_cmaps[1].count, 30);
  ASSERT_EQ(info->elem_cmaps.size(), 2u);
  EXPECT_EQ(info->elem_cmaps[1].begin, 12);
  EXPECT_EQ(info->elem_cmaps[1].count, 6);
  EXPECT_EQ(info->cmap_begin[2][1], 1);  // processor 2's element map is the file's second
  EXPECT_EQ(info->elem_cmap_vars[1], m.find_var("e_comm_sids"));

  // Untrusted: a map's data index past its dimension is refused.
  auto with = [&](const char* name, size_t at, int32_t value) {
    std::vector<VarBytes> changed = small;
    for (VarBytes& x : changed) {
      if (m.vars[static_cast<size_t>(x.var)].name != name) continue;
      for (int k = 0; k < 4; ++k) x.bytes[at * 4 + k] = static_cast<unsigned char>(uint32_t(value) >> (24 - 8 * k));
    }
    return exodus_info(h, [changed](int v) {
      for (const VarBytes& x : changed) {
        if (x.var == v) return x.bytes;
      }
      return std::vector<unsigned char>();
    });
  };
  // Two maps of one processor with one id (processor 1 given maps 1 and 2,
  // both of id 1): ex_get_node_cmap finds a map by id, so a caller sizing
  // its buffers by the second map's count (26) got the first's 30 entries.
  Result<FileInfo> twice = with("n_comm_info_idx", 1, 3);
  EXPECT_EQ(twice.status().code(), Code::kCorrupt);
  EXPECT_NE(twice.status().message().find("processor 1 has two n_comm maps with the id 1"), std::string::npos)
      << twice.status().message();
  Result<FileInfo> past = with("n_comm_data_idx", 2, 101);
  EXPECT_EQ(past.status().code(), Code::kCorrupt);
  EXPECT_NE(past.status().message().find("n_comm map 2 spans [74, 101) of 100"), std::string::npos)
      << past.status().message();
  EXPECT_EQ(with("node_mapb_idx", 1, 96).status().code(), Code::kCorrupt);

  // A header that claims 2^31 - 1 processors and has no per-processor
  // variable (no bytes behind the claim): no per-processor table is made
  // (it was 56 bytes a processor, 112 GiB here, before any check).
  Header huge;
  huge.model = b->model;
  huge.model.dims.push_back(Dimension{"num_processors", INT_MAX});
  huge.model.dims.push_back(Dimension{"num_procs_file", INT_MAX});
  Result<FileInfo> claimed = exodus_info(huge, [&](int v) {
    for (const VarBytes& x : small) {
      if (x.var == v) return x.bytes;
    }
    return std::vector<unsigned char>();
  });
  ASSERT_TRUE(claimed.ok()) << claimed.status().message();
  EXPECT_EQ(claimed->nemesis_procs_file, INT_MAX);
  EXPECT_TRUE(claimed->loadbal.empty());
}

// A header's dimensions cost it nothing: counts that no bytes of the file
// back are refused before anything is allocated for them (each case below
// allocated 16 to 64 GiB before its check, or looped 2^31 times).
TEST(ExodusReader, CountsNoBytesBackAreRefused) {
  const Definition d = workload(3, 3, 2, false);
  Result<Built> b = build(d);
  ASSERT_TRUE(b.ok()) << b.status().message();
  Result<Layout> placed = place(*b, Format::kAuto);
  ASSERT_TRUE(placed.ok()) << placed.status().message();
  const std::vector<VarBytes> small = metadata(d, *b);
  auto info = [&](const Model& m) {
    Header h;
    h.model = m;
    h.layout = *placed;
    return exodus_info(h, [&](int v) {
      for (const VarBytes& x : small) {
        if (x.var == v) return x.bytes;
      }
      return std::vector<unsigned char>();
    });
  };
  ASSERT_TRUE(info(b->model).ok());
  auto with_dim = [&](Model m, const char* name, int64_t length) {
    m.dims[static_cast<size_t>(m.find_dim(name))].length = length;
    return m;
  };
  auto renamed = [](Model m, const char* from, const char* to) {
    m.vars[static_cast<size_t>(m.find_var(from))].name = to;
    return m;
  };
  auto refused = [&](const Model& m, const std::string& words) {
    Result<FileInfo> r = info(m);
    EXPECT_EQ(r.status().code(), Code::kCorrupt) << words;
    EXPECT_NE(r.status().message().find(words), std::string::npos) << r.status().message();
  };
  // 2^31-1 node sets: their ids (4 bytes) are short.
  refused(with_dim(b->model, "num_node_sets", INT_MAX), "ns_prop1 is short");
  // ... and without ids: at most one set a variable of the file.
  refused(renamed(with_dim(b->model, "num_side_sets", INT_MAX), "ss_prop1", "ss_prop9"),
          "num_side_sets 2147483647 with no ss_prop1");
  // 2^31-1 global variables and no names for them.
  refused(renamed(with_dim(b->model, "num_glo_var", INT_MAX), "name_glo_var", "name_glo_varX"),
          "2147483647 names and no variable name_glo_var");
  // Names 0 characters wide: no byte behind any row.
  refused(with_dim(with_dim(b->model, "num_nod_var", INT_MAX), "len_name", 0), "names");
  // time_whole of 0 bytes a record: numrecs would rest on nothing.
  Model zero = b->model;
  zero.dims.push_back(Dimension{"zero", 0});
  Variable& t = zero.vars[static_cast<size_t>(zero.find_var("time_whole"))];
  t.dims.push_back(static_cast<int>(zero.dims.size()) - 1);
  refused(zero, "time_whole does not have the dimensions");
}

TEST(ExodusNemesis, SidesOfTypes) {
  EXPECT_EQ(sides_of_type("HEX8", 8, 3).size(), 6u);
  EXPECT_EQ(sides_of_type("hex20", 20, 3)[4], (std::vector<int>{0, 3, 2, 1}));
  EXPECT_EQ(sides_of_type("TETRA4", 4, 3)[0], (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(sides_of_type("WEDGE6", 6, 3).size(), 5u);
  EXPECT_EQ(sides_of_type("QUAD4", 4, 2)[3], (std::vector<int>{3, 0}));
  EXPECT_TRUE(sides_of_type("QUAD4", 4, 3).empty());  // a shell
  EXPECT_TRUE(sides_of_type("SPHERE", 1, 3).empty());
  EXPECT_TRUE(sides_of_type("HEX", 4, 3).empty());  // too few nodes for its corners
}

TEST(ExodusModel, SideSetWithAVaryingNumberOfFactors) {
  Definition d = workload(2, 2, 2, true);
  d.side_sets[0].df_total = 14;  // e.g. two quadrilateral sides and two triangles
  Result<Built> b = build(d);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(dim(b->model, "num_df_ss1"), 14);
  EXPECT_GE(b->side_sets[0].df, 0);
  d.side_sets[0].df_per_entry = 4;  // both: refused
  EXPECT_EQ(build(d).status().code(), Code::kInvalidArgument);
  d.side_sets[0].df_per_entry = 0;
  d.side_sets[0].df_total = -3;
  EXPECT_EQ(build(d).status().code(), Code::kInvalidArgument);
}

// Entries times factors per entry is itself a count the file holds: 2^58
// sides x 64 once wrapped to 0 factors, and they were dropped unsaid.
TEST(ExodusModel, SideSetFactorCountMustFit) {
  SetDef s{200, "z0", int64_t{1} << 58, 64};
  EXPECT_EQ(check_set(s, /*side=*/true, /*int64=*/true).code(), Code::kInvalidArgument);
  s.count = int64_t{1} << 52;  // 2^58 factors: the most an int64 file holds
  EXPECT_TRUE(check_set(s, true, true).ok());
  s.count = int64_t{1} << 30;  // 2^32 factors: not in a 32-bit file
  s.df_per_entry = 4;
  EXPECT_EQ(check_set(s, true, false).code(), Code::kInvalidArgument);
  EXPECT_TRUE(check_set(s, true, true).ok());
}

// A directory entry's place in a series (exodus/series.h): members only
// as the writer spells them; look-alikes refused, other files ignored.
TEST(ExodusSeries, MemberNames) {
  EXPECT_EQ(series_name("out.e", 1), "out.e");
  EXPECT_EQ(series_name("out.e", 2), "out.e-s0002");
  EXPECT_EQ(series_name("out.e", 12345), "out.e-s12345");
  EXPECT_EQ(*series_member("out.e", "out.e-s0002"), 2);
  EXPECT_EQ(*series_member("out.e", "out.e-s12345"), 12345);
  for (const char* other : {"out.e", "out.e-s", "out.e-s0002.bak", "out.e-s0002-s0002", "out.ex-s0002", "x.e-s0002",
                            "out.e-S0002"}) {
    Result<int> k = series_member("out.e", other);
    ASSERT_TRUE(k.ok()) << other;
    EXPECT_EQ(*k, 0) << other;
  }
  for (const char* wrong : {"out.e-s2", "out.e-s0001", "out.e-s0000", "out.e-s00002", "out.e-s1234567890"}) {
    Result<int> k = series_member("out.e", wrong);
    EXPECT_EQ(k.status().code(), Code::kCorrupt) << wrong;
    EXPECT_NE(k.status().message().find(wrong), std::string::npos) << k.status().message();
  }
}

// The writer's id -> position table (directory.h), its bucket index
// against a std::map: ids with a stride, sparse over the whole positive
// range, clustered far apart, added in several parts (merged), looked up
// at, between, below and above them.
TEST(IdTable, FindsWhatWasAddedAndNothingElse) {
  std::mt19937_64 g(27);
  const std::vector<std::vector<int64_t>> cases = {
      [] { std::vector<int64_t> v; for (int64_t n = 0; n < 5000; ++n) v.push_back(2 * (n + 1)); return v; }(),
      [&] { std::vector<int64_t> v; for (int k = 0; k < 3000; ++k) v.push_back(static_cast<int64_t>(g() >> 1) | 1); return v; }(),
      [] {
        std::vector<int64_t> v;
        for (int64_t k = 0; k < 400; ++k) v.push_back(10 + k);
        for (int64_t k = 0; k < 400; ++k) v.push_back(INT64_MAX - 1000 + 2 * k - 1);
        return v;
      }(),
      {5, 7, 9},  // too small for an index
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    std::vector<int64_t> ids = cases[c];
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::shuffle(ids.begin(), ids.end(), g);
    IdTable table;
    std::map<int64_t, int64_t> want;
    std::vector<int64_t> positions(ids.size());
    std::unique_ptr<bool[]> flags(new bool[ids.size()]);
    for (size_t k = 0; k < ids.size(); ++k) {
      positions[k] = static_cast<int64_t>(k) * 3;
      flags[k] = k % 3 != 0;
      want[ids[k]] = positions[k];
    }
    // Three parts (the last all owned): each is merged into the table.
    const size_t cut1 = ids.size() / 3, cut2 = ids.size() / 2;
    table.add(ids.data(), positions.data(), flags.get(), cut1);
    table.add(ids.data() + cut1, positions.data() + cut1, flags.get() + cut1, cut2 - cut1);
    table.add(ids.data() + cut2, positions.data() + cut2, nullptr, ids.size() - cut2);
    ASSERT_EQ(table.size(), ids.size());
    size_t wrong = 0;
    for (int64_t id : ids) {
      for (int64_t probe : {id, id - 1, id + 1}) {
        if (probe <= 0) continue;
        auto it = want.find(probe);
        wrong += table.find(probe) != (it == want.end() ? kUnknownId : it->second);
      }
    }
    for (int64_t probe : {int64_t{1}, int64_t{2}, INT64_MAX, INT64_MAX - 1, int64_t{-5}, INT64_MIN}) {
      auto it = want.find(probe);
      wrong += table.find(probe) != (it == want.end() ? kUnknownId : it->second);
    }
    EXPECT_EQ(wrong, 0u) << "case " << c;
    size_t owned_seen = 0, owned_want = 0;
    table.for_each_owned([&](int64_t id, int64_t position) {
      owned_seen += want.at(id) == position;
    });
    for (size_t k = 0; k < ids.size(); ++k) owned_want += k >= cut2 || flags[k];
    EXPECT_EQ(owned_seen, owned_want) << "case " << c;
  }
}

// Runs (ids by one stride, positions by one, one owned flag) kept as one
// Run each, against a std::map: the number of runs, every id at, between,
// below and above them, the owned ones in id order; runs of two adds that
// interleave (back to entries), a run ending at INT64_MAX, runs cut short
// by a repeated id (a reader's map), and short runs left as entries.
TEST(IdTable, KeepsRunsOfIdsAndAnswersAsAnEntryTableWould) {
  struct Part {
    std::vector<int64_t> ids, positions;
    std::vector<char> owned;
  };
  auto run = [](int64_t id, int64_t stride, int64_t position, int64_t count, bool owned, Part* p) {
    for (int64_t k = 0; k < count; ++k) {
      p->ids.push_back(id + stride * k);
      p->positions.push_back(position + k);
      p->owned.push_back(owned);
    }
  };
  struct Case {
    std::vector<Part> parts;
    size_t runs;  // expected after every part
  };
  std::vector<Case> cases(5);
  // Node ids 2 (n + 1) of a rank whose first 1000 are another rank's: two runs.
  run(2, 2, 0, 1000, false, &(cases[0].parts.emplace_back()));
  run(2002, 2, 1000, 9000, true, &cases[0].parts[0]);
  cases[0].runs = 2;
  // Two adds whose runs interleave (even, then odd ids): entries.
  run(2, 2, 0, 500, true, &(cases[1].parts.emplace_back()));
  run(3, 2, 500, 500, true, &(cases[1].parts.emplace_back()));
  cases[1].runs = 0;
  // Disjoint adds: runs merged; one ends at INT64_MAX, one starts below 0.
  run(INT64_MAX - 3 * 99, 3, 7, 100, true, &(cases[2].parts.emplace_back()));
  run(-1000, 7, 200, 50, false, &(cases[2].parts.emplace_back()));
  run(10, 1, 300, 16, true, &cases[2].parts[1]);
  cases[2].runs = 3;
  // A map repeating an id (a reader's): the runs stop there; a run of 15
  // (one short of kMinRun) stays entries; then entries in no order, one
  // of them repeating an id inside a run.
  run(100, 1, 0, 40, true, &(cases[3].parts.emplace_back()));
  run(139, 1, 40, 30, true, &cases[3].parts[0]);
  run(1000, 5, 70, 15, true, &cases[3].parts[0]);
  cases[3].parts.emplace_back();
  for (int64_t id : {77777, 5, 99999, 123}) run(id, 1, 900 + id % 7, 1, true, &cases[3].parts[1]);
  cases[3].runs = 2;
  // Shuffled positions: no run.
  run(2, 2, 0, 300, true, &(cases[4].parts.emplace_back()));
  std::shuffle(cases[4].parts[0].positions.begin(), cases[4].parts[0].positions.end(), std::mt19937_64(5));
  cases[4].runs = 0;
  static_assert(IdTable::kMinRun == 16, "the cases above are cut for 16");
  for (size_t c = 0; c < cases.size(); ++c) {
    IdTable table;
    std::map<int64_t, std::vector<int64_t>> want;  // every position of each id
    std::map<int64_t, int64_t> owned_want;
    size_t added = 0;
    for (Part& p : cases[c].parts) {
      std::unique_ptr<bool[]> flags(new bool[p.ids.size()]);
      for (size_t k = 0; k < p.ids.size(); ++k) {
        flags[k] = p.owned[k] != 0;
        want[p.ids[k]].push_back(p.positions[k]);
        if (flags[k]) owned_want.emplace(p.ids[k], p.positions[k]);
      }
      table.add(p.ids.data(), p.positions.data(), flags.get(), p.ids.size());
      added += p.ids.size();
    }
    EXPECT_EQ(table.runs(), cases[c].runs) << "case " << c;
    EXPECT_EQ(table.size(), added) << "case " << c;
    size_t wrong = 0;
    auto probe = [&](int64_t id) {
      auto it = want.find(id);
      const int64_t got = table.find(id);
      if (it == want.end() ? got != kUnknownId : std::find(it->second.begin(), it->second.end(), got) == it->second.end()) {
        ++wrong;
      }
    };
    for (const auto& [id, unused] : want) {
      probe(id);
      if (id > INT64_MIN) probe(id - 1);
      if (id < INT64_MAX) probe(id + 1);
    }
    for (int64_t id : {INT64_MIN, int64_t{-1}, int64_t{0}, INT64_MAX}) probe(id);
    EXPECT_EQ(wrong, 0u) << "case " << c;
    std::vector<std::pair<int64_t, int64_t>> owned_seen;
    table.for_each_owned([&](int64_t id, int64_t position) { owned_seen.emplace_back(id, position); });
    // In id order; a repeated id may come twice (each of its owned entries).
    EXPECT_TRUE(std::is_sorted(owned_seen.begin(), owned_seen.end(),
                               [](const auto& a, const auto& b) { return a.first < b.first; })) << "case " << c;
    owned_seen.erase(std::unique(owned_seen.begin(), owned_seen.end(),
                                 [](const auto& a, const auto& b) { return a.first == b.first; }),
                     owned_seen.end());
    ASSERT_EQ(owned_seen.size(), owned_want.size()) << "case " << c;
    for (const auto& [id, position] : owned_seen) {
      const std::vector<int64_t>& all = want.at(id);
      wrong += std::find(all.begin(), all.end(), position) == all.end();
    }
    EXPECT_EQ(wrong, 0u) << "case " << c;
  }
}

}  // namespace
}  // namespace pario::exodus
