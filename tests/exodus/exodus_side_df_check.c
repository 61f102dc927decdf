/* The independent check of exodus_side_df's file with Debian's serial
 * libexodusii (no pario linked):
 *   exodus_side_df_check FILE P
 * Side set 7 holds the P hexahedra's side 5 (4 nodes, 4 factors), then the
 * P tetrahedra's side 1 (3 nodes, 3 factors): libexodusii's own node count
 * per side must match, and factor q of a side is its element's id + q/10.
 * Exit status 0 when all is as expected. */
#include <exodusII.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECKER "exodus_side_df_check"
#include "libexodusii_check.h"

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  const int P = atoi(argv[2]);
  int cpu = 8, io = 0;
  float version;
  const int id = ex_open(argv[1], EX_READ, &cpu, &io, &version);
  if (id < 0 || P < 1 || P > 64) return 1;
  int sides = 0, num_df = 0;
  EXPECT(ex_get_side_set_param(id, 7, &sides, &num_df) >= 0, "ex_get_side_set_param failed");
  EXPECT(sides == 2 * P && num_df == 7 * P, "side set 7: %d sides, %d factors; expected %d, %d", sides, num_df, 2 * P,
         7 * P);
  if (sides == 2 * P && num_df == 7 * P) {
    int elems[128], side[128], per_side[128], map[128];
    double df[7 * 64];
    EXPECT(ex_get_side_set(id, 7, elems, side) >= 0, "ex_get_side_set failed");
    EXPECT(ex_get_side_set_node_count(id, 7, per_side) >= 0, "ex_get_side_set_node_count failed");
    EXPECT(ex_get_side_set_dist_fact(id, 7, df) >= 0, "ex_get_side_set_dist_fact failed");
    EXPECT(ex_get_elem_num_map(id, map) >= 0, "ex_get_elem_num_map failed");
    int at = 0;
    for (int k = 0; k < sides; ++k) {
      const int hex = k < P, want_elem = k + 1, want_id = hex ? k + 1 : 101 + k - P;
      EXPECT(elems[k] == want_elem && side[k] == (hex ? 5 : 1), "entry %d is (%d, %d), expected (%d, %d)", k, elems[k],
             side[k], want_elem, hex ? 5 : 1);
      EXPECT(per_side[k] == (hex ? 4 : 3), "entry %d: libexodusii counts %d nodes", k, per_side[k]);
      EXPECT(map[elems[k] - 1] == want_id, "element %d has id %d, expected %d", elems[k], map[elems[k] - 1], want_id);
      for (int q = 0; q < (hex ? 4 : 3); ++q, ++at) {
        EXPECT(df[at] == want_id + q / 10.0, "factor %d is %g, expected %g", at, df[at], want_id + q / 10.0);
      }
    }
  }
  ex_close(id);
  if (!failures) printf("exodus_side_df_check: %s: %d sides, %d factors as expected\n", argv[1], sides, num_df);
  return failures ? 1 : 0;
}
