/* The line of hexahedra some Exodus tests write: on P ranks, rank r holds
 * hexahedron r, spanning x in [r, r+1], y and z in [0, 1]; corner v (Exodus
 * order) is node (x, y, z) with global id 1 + x + (P+1) (y + 2 z), so the
 * face x = r+1 is shared with rank r+1 and the ids run 1 .. 4 (P+1). */
#ifndef PARIO_TESTS_LINE_MESH_H
#define PARIO_TESTS_LINE_MESH_H

#include <stdint.h>

static void line_hexahedron(int rank, int size, int64_t ids[8], double x[8], double y[8], double z[8]) {
  static const int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int v = 0; v < 8; ++v) {
    const int cx = rank + corner[v][0], cy = corner[v][1], cz = corner[v][2];
    ids[v] = 1 + cx + (int64_t)(size + 1) * (cy + 2 * cz);
    x[v] = cx;
    y[v] = cy;
    z[v] = cz;
  }
}

#endif /* PARIO_TESTS_LINE_MESH_H */
