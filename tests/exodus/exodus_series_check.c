/* One file of exodus_restart's series read by Debian's serial libexodusii
 * (no pario linked), the independent check of appended and resumed series:
 *   exodus_series_check FILE FIRST STEPS
 * FILE must hold STEPS steps, its step s being the run's step
 * r = FIRST + s - 1, with exodus_restart's values by global id: time
 * 0.5 r, global g = 10 r, nodal T(node id) = id / 2 + r, element
 * q(element id) = id + r / 4 on both blocks (10 and 20, HEX8). Exit 0
 * when every value is right, 1 with the first differences printed. */
#include <exodusII.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int wrong = 0;

static void expect(int ok, const char *format, ...) {
  if (ok || wrong++ >= 20) return;
  va_list args;
  va_start(args, format);
  fputs("exodus_series_check: ", stderr);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s FILE FIRST STEPS\n", argv[0]);
    return 2;
  }
  const int first = atoi(argv[2]), want_steps = atoi(argv[3]);
  int cpu = 8, io = 0;
  float version = 0;
  const int id = ex_open(argv[1], EX_READ, &cpu, &io, &version);
  if (id < 0) {
    fprintf(stderr, "exodus_series_check: ex_open(%s) failed\n", argv[1]);
    return 1;
  }
  char title[MAX_LINE_LENGTH + 1];
  int dim = 0, nodes = 0, elems = 0, nblk = 0, nns = 0, nss = 0;
  expect(ex_get_init(id, title, &dim, &nodes, &elems, &nblk, &nns, &nss) >= 0, "ex_get_init failed");
  expect(dim == 3 && nblk == 2 && nns == 1 && nss == 1 && nodes > 0 && elems > 0,
         "init: dim %d, %d nodes, %d elements, %d blocks, %d node sets, %d side sets", dim, nodes, elems, nblk, nns,
         nss);
  const int steps = (int)ex_inquire_int(id, EX_INQ_TIME);
  expect(steps == want_steps, "%d steps, not %d", steps, want_steps);
  if (wrong) return 1;

  int *node_map = calloc((size_t)nodes, sizeof(int)), *elem_map = calloc((size_t)elems, sizeof(int));
  double *v = calloc((size_t)(nodes > elems ? nodes : elems), sizeof(double));
  if (!node_map || !elem_map || !v) return 3;
  expect(ex_get_node_num_map(id, node_map) >= 0 && ex_get_elem_num_map(id, elem_map) >= 0, "the id maps");
  int blocks[2] = {0, 0}, counts[2] = {0, 0};
  expect(ex_get_elem_blk_ids(id, blocks) >= 0 && blocks[0] == 10 && blocks[1] == 20, "block ids %d %d", blocks[0],
         blocks[1]);
  for (int b = 0; b < 2; ++b) {
    char type[MAX_STR_LENGTH + 1];
    int npe = 0, attributes = 0;
    expect(ex_get_elem_block(id, blocks[b], type, &counts[b], &npe, &attributes) >= 0 && npe == 8,
           "block %d: %d elements of %d nodes", blocks[b], counts[b], npe);
  }
  expect(counts[0] + counts[1] == elems, "the blocks hold %d + %d elements, not %d", counts[0], counts[1], elems);
  for (int s = 1; s <= steps && !wrong; ++s) {
    const int r = first + s - 1;
    double time = -1, g = -1;
    expect(ex_get_time(id, s, &time) >= 0 && time == 0.5 * r, "step %d: time %g, not %g", s, time, 0.5 * r);
    expect(ex_get_glob_vars(id, s, 1, &g) >= 0 && g == 10.0 * r, "step %d: g = %g, not %g", s, g, 10.0 * r);
    expect(ex_get_nodal_var(id, s, 1, nodes, v) >= 0, "step %d: ex_get_nodal_var failed", s);
    for (int k = 0; k < nodes; ++k) {
      expect(v[k] == node_map[k] / 2.0 + r, "step %d: T of node %d = %.17g", s, node_map[k], v[k]);
    }
    for (int b = 0, at = 0; b < 2; at += counts[b], ++b) {
      expect(ex_get_elem_var(id, s, 1, blocks[b], counts[b], v) >= 0, "step %d: ex_get_elem_var failed", s);
      for (int k = 0; k < counts[b]; ++k) {
        expect(v[k] == elem_map[at + k] + r / 4.0, "step %d: q of element %d = %.17g", s, elem_map[at + k], v[k]);
      }
    }
  }
  ex_close(id);
  free(node_map);
  free(elem_map);
  free(v);
  if (wrong) {
    fprintf(stderr, "exodus_series_check: %s: %d differences\n", argv[1], wrong);
    return 1;
  }
  printf("exodus_series_check: %s: steps %d..%d right (libexodusii %.2f)\n", argv[1], first, first + steps - 1,
         version);
  return 0;
}
