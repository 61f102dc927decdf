/* The independent check of the Nemesis load-balance information pario
 * writes (options.nemesis): opens the workload's file with Debian's serial
 * libexodusii (no pario linked), reads every Nemesis list back through its
 * Nemesis functions and compares it with what this program works out on
 * its own from the whole mesh and the writers' partition:
 *   exodus_nemesis_check FILE NX NY NZ HEX|MIXED contiguous|cyclic P
 * The partition is exodus_workload's (rank r = processor r): cell c is
 * rank c*P/C's (contiguous) or rank (c/5) mod P's (cyclic); elements are
 * numbered as the file holds them (block 10 in cell order, then block 20,
 * six tetrahedra per cell in MIXED). From the connectivity: a node is
 * border on each processor whose elements use it when more than one
 * processor does, internal otherwise; two elements of different
 * processors with a side of the same corner nodes make both border
 * elements and one (element, side, processor) entry each. Exit status 0
 * when everything matches, 1 with the first differences printed. */
#include <exodusII.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECKER "exodus_nemesis_check"
#include "libexodusii_check.h"

/* Exodus side numbering (0-based corner indices), HEX8 and TETRA4. */
static const int hex_sides[6][4] = {{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {0, 4, 7, 3}, {0, 3, 2, 1}, {4, 5, 6, 7}};
static const int tet_sides[4][3] = {{0, 1, 3}, {1, 2, 3}, {0, 3, 2}, {0, 2, 1}};

/* A side: its sorted corner nodes (0 padded), element (1-based), side (1-based), processor. */
typedef struct {
  int nodes[4];
  int elem, side, proc;
} Face;

static int cmp_face(const void *a, const void *b) {
  const Face *x = a, *y = b;
  for (int q = 0; q < 4; ++q)
    if (x->nodes[q] != y->nodes[q]) return x->nodes[q] < y->nodes[q] ? -1 : 1;
  return x->elem < y->elem ? -1 : x->elem > y->elem;
}
static int cmp_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}
/* (proc, a, b) triples, ascending. */
static int cmp_triple(const void *a, const void *b) {
  const int *x = a, *y = b;
  for (int q = 0; q < 3; ++q)
    if (x[q] != y[q]) return x[q] < y[q] ? -1 : 1;
  return 0;
}

/* Compares n ints of what the file says with what was expected. */
static void same(const char *what, int proc, const int *got, const int *want, int n) {
  for (int i = 0; i < n; ++i) {
    EXPECT(got[i] == want[i], "processor %d: %s[%d] is %d, expected %d", proc, what, i, got[i], want[i]);
  }
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: %s FILE NX NY NZ HEX|MIXED contiguous|cyclic P\n", argv[0]);
    return 2;
  }
  const int NX = atoi(argv[2]), NY = atoi(argv[3]), NZ = atoi(argv[4]), P = atoi(argv[7]);
  const int mixed = strcmp(argv[5], "MIXED") == 0, cyclic = strcmp(argv[6], "cyclic") == 0;
  const int C = NX * NY * NZ, C1 = NX * NY * (NZ / 2), per = mixed ? 6 : 1;
  int cpu = 8, io = 0;
  float version;
  const int id = ex_open(argv[1], EX_READ, &cpu, &io, &version);
  if (id < 0) {
    fprintf(stderr, "exodus_nemesis_check: ex_open(%s) failed\n", argv[1]);
    return 1;
  }
  char title[MAX_LINE_LENGTH + 1];
  int dim, N, E, nblk, nns, nss;
  OK(ex_get_init(id, title, &dim, &N, &E, &nblk, &nns, &nss));

  /* The initial and global information. */
  int nproc = 0, nproc_f = 0;
  char ftype[4] = {0};
  OK(ex_get_init_info(id, &nproc, &nproc_f, ftype));
  EXPECT(nproc == P && nproc_f == P && ftype[0] == 's', "init info: %d processors, %d in the file, type '%s'", nproc,
         nproc_f, ftype);
  int gN = 0, gE = 0, gblk = 0, gns = 0, gss = 0;
  OK(ex_get_init_global(id, &gN, &gE, &gblk, &gns, &gss));
  EXPECT(gN == N && gE == E && gblk == nblk && gns == nns && gss == nss,
         "global parameters %d %d %d %d %d, the file has %d %d %d %d %d", gN, gE, gblk, gns, gss, N, E, nblk, nns, nss);
  int *blk_ids = xcalloc(nblk, sizeof(int)), *g_ids = xcalloc(nblk, sizeof(int)), *g_cnt = xcalloc(nblk, sizeof(int));
  OK(ex_get_elem_blk_ids(id, blk_ids));
  OK(ex_get_eb_info_global(id, g_ids, g_cnt));
  int *conn[2] = {NULL, NULL}, count[2] = {0, 0}, npe[2] = {0, 0};
  for (int b = 0; b < nblk && b < 2; ++b) {
    char type[MAX_STR_LENGTH + 1];
    int nattr;
    OK(ex_get_elem_block(id, blk_ids[b], type, &count[b], &npe[b], &nattr));
    EXPECT(g_ids[b] == blk_ids[b] && g_cnt[b] == count[b], "block %d: global id %d, count %d; the file has %d, %d", b,
           g_ids[b], g_cnt[b], blk_ids[b], count[b]);
    conn[b] = xcalloc((size_t)count[b] * npe[b], sizeof(int));
    OK(ex_get_elem_conn(id, blk_ids[b], conn[b]));
  }
  /* The workload's one node set and one side set: global parameters as the file's. */
  for (int side = 0; side < 2; ++side) {
    if ((side ? nss : nns) != 1) continue;
    const ex_entity_type kind = side ? EX_SIDE_SET : EX_NODE_SET;
    int gid = 0, gcnt = 0, gdf = 0, lid = 0, lcnt = 0, ldf = 0;
    OK(side ? ex_get_ss_param_global(id, &gid, &gcnt, &gdf) : ex_get_ns_param_global(id, &gid, &gcnt, &gdf));
    OK(ex_get_ids(id, kind, &lid));
    OK(ex_get_set_param(id, kind, lid, &lcnt, &ldf));
    EXPECT(gid == lid && gcnt == lcnt && gdf == ldf, "%s set: global %d %d %d, the file's %d %d %d",
           side ? "side" : "node", gid, gcnt, gdf, lid, lcnt, ldf);
  }

  /* The partition: each element's processor. */
  int *owner = xcalloc(E, sizeof(int));
  for (int k = 0; k < E; ++k) {
    const int cell = k < count[0] ? k : C1 + (k - count[0]) / per;
    owner[k] = cyclic ? (cell / 5) % P : (int)((int64_t)cell * P / C);
  }
  /* Which processors use each node (a bit each, P <= 32). */
  unsigned *users = xcalloc(N, sizeof(unsigned));
  Face *faces = xcalloc((size_t)E * 6, sizeof(Face));
  int nfaces = 0;
  for (int b = 0, first = 0; b < nblk && b < 2; first += count[b], ++b) {
    const int tet = npe[b] == 4;
    for (int e = 0; e < count[b]; ++e) {
      const int *c = conn[b] + (size_t)e * npe[b];
      for (int q = 0; q < npe[b]; ++q) users[c[q] - 1] |= 1u << owner[first + e];
      for (int s = 0; s < (tet ? 4 : 6); ++s) {
        Face *f = &faces[nfaces++];
        const int corners = tet ? 3 : 4;
        memset(f->nodes, 0, sizeof f->nodes);
        for (int q = 0; q < corners; ++q) f->nodes[q] = c[tet ? tet_sides[s][q] : hex_sides[s][q]];
        qsort(f->nodes, corners, sizeof(int), cmp_int);
        f->elem = first + e + 1;
        f->side = s + 1;
        f->proc = owner[first + e];
      }
    }
  }
  qsort(faces, nfaces, sizeof(Face), cmp_face);
  /* (proc, element, side, other proc) of every side two processors share. */
  int *shared = xcalloc((size_t)nfaces * 4, sizeof(int)), nshared = 0;
  for (int a = 0; a < nfaces;) {
    int z = a;
    while (z < nfaces && !memcmp(faces[z].nodes, faces[a].nodes, sizeof faces[a].nodes)) ++z;
    for (int i = a; i < z; ++i) {
      for (int j = a; j < z; ++j) {
        if (faces[i].proc == faces[j].proc) continue;
        int *t = &shared[4 * nshared++];
        t[0] = faces[i].proc;
        t[1] = faces[j].proc;
        t[2] = faces[i].elem;
        t[3] = faces[i].side;
      }
    }
    a = z;
  }

  int64_t total[5] = {0, 0, 0, 0, 0};
  for (int p = 0; p < P; ++p) {
    /* Expected lists of processor p. */
    int *want_int_n = xcalloc(N, sizeof(int)), *want_bor_n = xcalloc(N, sizeof(int)), nin = 0, nbn = 0;
    int *want_ncmap = xcalloc((size_t)N * P * 3, sizeof(int)), nnc = 0;
    for (int n = 0; n < N; ++n) {
      if (!(users[n] >> p & 1)) continue;
      if (users[n] == 1u << p) {
        want_int_n[nin++] = n + 1;
        continue;
      }
      want_bor_n[nbn++] = n + 1;
      for (int q = 0; q < P; ++q) {
        if (q == p || !(users[n] >> q & 1)) continue;
        int *t = &want_ncmap[3 * nnc++];
        t[0] = q;
        t[1] = n + 1;
        t[2] = 0;
      }
    }
    qsort(want_ncmap, nnc, 3 * sizeof(int), cmp_triple);
    int *want_ecmap = xcalloc((size_t)nshared * 3 + 3, sizeof(int)), nec = 0;
    char *border = xcalloc(E, 1);
    for (int i = 0; i < nshared; ++i) {
      if (shared[4 * i] != p) continue;
      int *t = &want_ecmap[3 * nec++];
      t[0] = shared[4 * i + 1];
      t[1] = shared[4 * i + 2];
      t[2] = shared[4 * i + 3];
      border[t[1] - 1] = 1;
    }
    qsort(want_ecmap, nec, 3 * sizeof(int), cmp_triple);
    int *want_int_e = xcalloc(E, sizeof(int)), *want_bor_e = xcalloc(E, sizeof(int)), nie = 0, nbe = 0;
    for (int k = 0; k < E; ++k) {
      if (owner[k] != p) continue;
      if (border[k]) want_bor_e[nbe++] = k + 1;
      else want_int_e[nie++] = k + 1;
    }

    /* What the file says. */
    int gin = -1, gbn = -1, gen = -1, gie = -1, gbe = -1, gnc = -1, gec = -1;
    OK(ex_get_loadbal_param(id, &gin, &gbn, &gen, &gie, &gbe, &gnc, &gec, p));
    EXPECT(gin == nin && gbn == nbn && gen == 0 && gie == nie && gbe == nbe && gnc == (nnc > 0) && gec == (nec > 0),
           "processor %d: load balance %d %d %d %d %d %d %d, expected %d %d 0 %d %d %d %d", p, gin, gbn, gen, gie, gbe,
           gnc, gec, nin, nbn, nie, nbe, nnc > 0, nec > 0);
    total[0] += gin;
    total[1] += gbn;
    total[2] += gie;
    total[3] += gbe;
    total[4] += nnc;
    if (gin == nin && gbn == nbn && gen == 0) {
      int *mi = xcalloc(nin, sizeof(int)), *mb = xcalloc(nbn, sizeof(int)), *me = xcalloc(1, sizeof(int));
      OK(ex_get_processor_node_maps(id, mi, mb, me, p));
      same("node_mapi", p, mi, want_int_n, nin);
      same("node_mapb", p, mb, want_bor_n, nbn);
      free(mi);
      free(mb);
      free(me);
    }
    if (gie == nie && gbe == nbe) {
      int *mi = xcalloc(nie, sizeof(int)), *mb = xcalloc(nbe, sizeof(int));
      OK(ex_get_processor_elem_maps(id, mi, mb, p));
      same("elem_mapi", p, mi, want_int_e, nie);
      same("elem_mapb", p, mb, want_bor_e, nbe);
      free(mi);
      free(mb);
    }
    if (gnc == (nnc > 0) && gec == (nec > 0) && (nnc > 0 || nec > 0)) {
      /* The maps' ids and sizes (null for a kind the processor has none of). */
      int n_id = 0, n_cnt = 0, e_id = 0, e_cnt = 0;
      OK(ex_get_cmap_params(id, nnc > 0 ? &n_id : NULL, nnc > 0 ? &n_cnt : NULL, nec > 0 ? &e_id : NULL,
                            nec > 0 ? &e_cnt : NULL, p));
      if (nnc > 0) {
        EXPECT(n_id == 1 && n_cnt == nnc, "processor %d: node map %d of %d entries, expected 1 of %d", p, n_id, n_cnt, nnc);
        int *nodes = xcalloc(nnc, sizeof(int)), *procs = xcalloc(nnc, sizeof(int));
        OK(ex_get_node_cmap(id, 1, nodes, procs, p));
        for (int i = 0; i < nnc; ++i) {
          EXPECT(procs[i] == want_ncmap[3 * i] && nodes[i] == want_ncmap[3 * i + 1],
                 "processor %d: node map entry %d is (%d, %d), expected (%d, %d)", p, i, nodes[i], procs[i],
                 want_ncmap[3 * i + 1], want_ncmap[3 * i]);
        }
        free(nodes);
        free(procs);
      }
      if (nec > 0) {
        EXPECT(e_id == 1 && e_cnt == nec, "processor %d: element map %d of %d entries, expected 1 of %d", p, e_id, e_cnt,
               nec);
        int *elems = xcalloc(nec, sizeof(int)), *sides = xcalloc(nec, sizeof(int)), *procs = xcalloc(nec, sizeof(int));
        OK(ex_get_elem_cmap(id, 1, elems, sides, procs, p));
        for (int i = 0; i < nec; ++i) {
          EXPECT(procs[i] == want_ecmap[3 * i] && elems[i] == want_ecmap[3 * i + 1] && sides[i] == want_ecmap[3 * i + 2],
                 "processor %d: element map entry %d is (%d, %d, %d), expected (%d, %d, %d)", p, i, elems[i], sides[i],
                 procs[i], want_ecmap[3 * i + 1], want_ecmap[3 * i + 2], want_ecmap[3 * i]);
        }
        free(elems);
        free(sides);
        free(procs);
      }
    }
    free(want_int_n);
    free(want_bor_n);
    free(want_ncmap);
    free(want_ecmap);
    free(border);
    free(want_int_e);
    free(want_bor_e);
  }
  ex_close(id);
  if (failures == 0) {
    printf("exodus_nemesis_check: %s: %d processors, %lld internal and %lld border nodes, %lld internal and %lld border "
           "elements, %lld node map entries: all as expected\n",
           argv[1], P, (long long)total[0], (long long)total[1], (long long)total[2], (long long)total[3],
           (long long)total[4]);
  }
  free(blk_ids);
  free(g_ids);
  free(g_cnt);
  free(conn[0]);
  free(conn[1]);
  free(owner);
  free(users);
  free(faces);
  free(shared);
  return failures ? 1 : 0;
}
