/* Datasets from C at 1, 2 and 4 ranks: segments in time order (and the
 * orders refused), variables of each item kind, rank-ordered sections
 * (pieces of different sizes, read back by even split and by writer, put
 * and get types converted, a value that does not fit), global-ordered
 * sections through blocks and index decompositions, infos of every type
 * on the dataset, a variable and a segment, truncation, reopening read
 * only. The file is kept at argv[1] for pds_check.py (h5py, no pario).
 * Then the collective engine's hints at create and open reaching
 * write_array and read_array (aggregator rounds counted: CTest sets
 * PARIO_STATS=1), in two more files removed at the end.
 *   dataset_capi_test FILE.h5 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static int rank, size;
static pario_group_t world;

/* Rank r's piece of a rank-ordered section: r + 1 items, item i of rank r
 * has words 1000 r + 10 i + j. */
static double ranked_word(int r, int64_t i, int64_t j) { return 1000.0 * r + 10.0 * (double)i + (double)j; }

static void segments(pario_dataset_t ds) {
  int64_t seg = -1;
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_TOPOLOGY, 0, 0.0, &seg) == PARIO_OK && seg == 0);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0, 0.0, &seg) == PARIO_OK && seg == 1);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 1, 0.5, &seg) == PARIO_OK && seg == 2);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 2, 1.0, &seg) == PARIO_OK && seg == 3);
  /* Out of order, on every rank: each names why. */
  CHECK_FAILS(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 2, 1.5, NULL), PARIO_ERR_INVALID_ARGUMENT,
              "a second state segment");
  CHECK_FAILS(pario_dataset_segment_append(ds, PARIO_SEGMENT_TOPOLOGY, 2, 1.0, NULL), PARIO_ERR_INVALID_ARGUMENT,
              "topology segment after the state segment");
  CHECK_FAILS(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 1, 2.0, NULL), PARIO_ERR_INVALID_ARGUMENT,
              "time index before");
  CHECK_FAILS(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 3, 0.9, NULL), PARIO_ERR_INVALID_ARGUMENT,
              "time value before");
  CHECK_FAILS(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 3, NAN, NULL), PARIO_ERR_INVALID_ARGUMENT,
              "not finite");
  CHECK_FAILS(pario_dataset_segment_append(ds, 7, 3, 2.0, NULL), PARIO_ERR_INVALID_ARGUMENT, "kind 7");
  int64_t n = 0;
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 4);
  int kind = 0;
  int64_t ti = 0;
  double tv = 0;
  CHECK(pario_dataset_segment_info(ds, 2, &kind, &ti, &tv) == PARIO_OK && kind == PARIO_SEGMENT_STATE && ti == 1 &&
        tv == 0.5);
  CHECK(pario_dataset_segment_find_index(ds, PARIO_SEGMENT_STATE, 0, &seg) == PARIO_OK && seg == 1);
  CHECK(pario_dataset_segment_find_index(ds, PARIO_SEGMENT_ANY, 0, &seg) == PARIO_OK && seg == 0);
  CHECK(pario_dataset_segment_find_index(ds, PARIO_SEGMENT_TOPOLOGY, 1, &seg) == PARIO_ERR_NOT_FOUND);
  CHECK(pario_dataset_segment_find_time(ds, PARIO_SEGMENT_STATE, 0.75, &seg) == PARIO_OK && seg == 2);
  CHECK(pario_dataset_segment_find_time(ds, PARIO_SEGMENT_STATE, -1.0, &seg) == PARIO_ERR_NOT_FOUND);
  CHECK(pario_dataset_segment_info(ds, 4, &kind, NULL, NULL) == PARIO_ERR_INVALID_ARGUMENT);
}

/* Variables: 0 temp (scalar double), 1 vel (3-vector float), 2 stress
 * (2x2 tensor double), 3 id (scalar int32), 4 grid (scalar double, global),
 * 5 disp (3-vector double, global). */
static void variables(pario_dataset_t ds) {
  const int64_t three[1] = {3}, two_by_two[2] = {2, 2};
  int v = -1;
  CHECK(pario_dataset_variable_register(ds, "temp", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK &&
        v == 0);
  CHECK(pario_dataset_variable_register(ds, "vel", PARIO_ITEM_VECTOR, three, PARIO_TYPE_FLOAT, &v) == PARIO_OK &&
        v == 1);
  CHECK(pario_dataset_variable_register(ds, "stress", PARIO_ITEM_TENSOR, two_by_two, PARIO_TYPE_DOUBLE, &v) ==
            PARIO_OK && v == 2);
  CHECK(pario_dataset_variable_register(ds, "id", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_INT32, &v) == PARIO_OK &&
        v == 3);
  CHECK(pario_dataset_variable_register(ds, "grid", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK &&
        v == 4);
  CHECK(pario_dataset_variable_register(ds, "disp", PARIO_ITEM_VECTOR, three, PARIO_TYPE_DOUBLE, &v) == PARIO_OK &&
        v == 5);
  /* Again alike: its id; differently: refused. */
  CHECK(pario_dataset_variable_register(ds, "temp", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK &&
        v == 0);
  CHECK_FAILS(pario_dataset_variable_register(ds, "temp", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_FLOAT, &v),
              PARIO_ERR_EXISTS, "registered already");
  CHECK_FAILS(pario_dataset_variable_register(ds, "a/b", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_FLOAT, &v),
              PARIO_ERR_INVALID_ARGUMENT, "'/'");
  int count = 0, kind = -1, word = 0;
  int64_t dims[2] = {0, 0};
  char name[16];
  CHECK(pario_dataset_variable_count(ds, &count) == PARIO_OK && count == 6);
  CHECK(pario_dataset_variable_find(ds, "stress", &v) == PARIO_OK && v == 2);
  CHECK(pario_dataset_variable_find(ds, "nope", &v) == PARIO_ERR_NOT_FOUND);
  CHECK(pario_dataset_variable_info(ds, 2, name, sizeof name, &kind, dims, &word) == PARIO_OK &&
        strcmp(name, "stress") == 0 && kind == PARIO_ITEM_TENSOR && dims[0] == 2 && dims[1] == 2 &&
        word == PARIO_TYPE_DOUBLE);
  CHECK_FAILS(pario_dataset_variable_info(ds, 2, name, 3, NULL, NULL, NULL), PARIO_ERR_INVALID_ARGUMENT, "needs 7");
}

static void ranked(pario_dataset_t ds) {
  /* temp in segments 1 and 2 (not 3): rank r writes r + 1 items. */
  double mine[8];
  for (int i = 0; i <= rank; ++i) mine[i] = ranked_word(rank, i, 0);
  CHECK(pario_dataset_write_ranked(ds, 1, 0, rank + 1, mine) == PARIO_OK);
  CHECK_FAILS(pario_dataset_write_ranked(ds, 1, 0, rank + 1, mine), PARIO_ERR_EXISTS, "already");
  /* As int64 put type: converted to the double words. */
  int64_t as_int[8];
  for (int i = 0; i <= rank; ++i) as_int[i] = (int64_t)ranked_word(rank, i, 0) + 1;
  CHECK(pario_dataset_variable_set_types(ds, 0, PARIO_TYPE_INT64, 0) == PARIO_OK);
  CHECK(pario_dataset_write_ranked(ds, 2, 0, rank + 1, as_int) == PARIO_OK);
  CHECK(pario_dataset_variable_set_types(ds, 0, 0, 0) == PARIO_OK);

  /* vel: a 3-vector of floats, rank r writes 2 r items (rank 0 none). */
  float v[3 * 8];
  for (int i = 0; i < 2 * rank; ++i)
    for (int j = 0; j < 3; ++j) v[3 * i + j] = (float)ranked_word(rank, i, j);
  CHECK(pario_dataset_write_ranked(ds, 2, 1, 2 * rank, v) == PARIO_OK);
  /* stress: one 2x2 tensor per rank. */
  double t[4];
  for (int j = 0; j < 4; ++j) t[j] = ranked_word(rank, 0, j);
  CHECK(pario_dataset_write_ranked(ds, 3, 2, 1, t) == PARIO_OK);

  /* id: int32 words from int64 memory; a value that does not fit on the
   * last rank fails everywhere and makes nothing. */
  int64_t ids[2] = {rank, rank == size - 1 ? (int64_t)1 << 40 : 7};
  CHECK(pario_dataset_variable_set_types(ds, 3, PARIO_TYPE_INT64, PARIO_TYPE_INT64) == PARIO_OK);
  const int rc = pario_dataset_write_ranked(ds, 3, 3, 2, ids);
  CHECK(rc == (rank == size - 1 ? PARIO_ERR_OUT_OF_RANGE : PARIO_ERR_REMOTE));
  pario_dataset_section_t info;
  CHECK(pario_dataset_section_info(ds, 3, 3, 0, &info) == PARIO_ERR_NOT_FOUND);
  ids[1] = 7;
  CHECK(pario_dataset_write_ranked(ds, 3, 3, 2, ids) == PARIO_OK);

  /* What was stored: pieces, sum and max; every rank may ask any writer. */
  const int64_t total = (int64_t)size * (size + 1) / 2;
  const int writer = size - 1 - rank;
  CHECK(pario_dataset_section_info(ds, 1, 0, writer, &info) == PARIO_OK);
  CHECK(info.layout == PARIO_SECTION_RANK_ORDERED && info.writers == size && info.items == total &&
        info.max_piece == size && info.piece_start == (int64_t)writer * (writer + 1) / 2 &&
        info.piece_count == writer + 1 && info.ndim == 1 && info.dims[0] == total);
  CHECK(pario_dataset_section_info(ds, 2, 1, 0, &info) == PARIO_OK && info.ndim == 2 && info.dims[1] == 3 &&
        info.items == (int64_t)size * (size - 1));
  CHECK(pario_dataset_section_info(ds, 3, 2, 0, &info) == PARIO_OK && info.ndim == 3 && info.dims[0] == size &&
        info.dims[1] == 2 && info.dims[2] == 2);
  CHECK_FAILS(pario_dataset_section_info(ds, 3, 0, 0, &info), PARIO_ERR_NOT_FOUND, "no section of variable temp");

  /* Read back: the writer's own piece (as float), then an even split. */
  CHECK(pario_dataset_section_info(ds, 2, 0, writer, &info) == PARIO_OK);
  float back[64];
  CHECK(pario_dataset_variable_set_types(ds, 0, 0, PARIO_TYPE_FLOAT) == PARIO_OK);
  CHECK(pario_dataset_read_items(ds, 2, 0, info.piece_start, info.piece_count, back) == PARIO_OK);
  int good = 1;
  for (int64_t i = 0; i < info.piece_count; ++i) good &= back[i] == (float)(ranked_word(writer, i, 0) + 1);
  CHECK(good);
  CHECK(pario_dataset_variable_set_types(ds, 0, 0, 0) == PARIO_OK);
  int64_t start = 0, n = 0;
  CHECK(pario_dataset_even_split(total, size, rank, &start, &n) == PARIO_OK);
  double whole[64];
  CHECK(pario_dataset_read_items(ds, 1, 0, start, n, whole) == PARIO_OK);
  good = 1;
  for (int64_t k = 0; k < n; ++k) {
    int64_t item = start + k;
    int w = 0;
    while (item >= w + 1) item -= ++w; /* writer w holds w + 1 items */
    good &= whole[k] == ranked_word(w, item, 0);
  }
  CHECK(good);
  CHECK_FAILS(pario_dataset_read_items(ds, 1, 0, total - 1, 2, whole), PARIO_ERR_OUT_OF_RANGE, "outside");
  /* A vector's items read as whole items: item 0 of writer 1 is 3 words. */
  if (size > 1) {
    float w3[3];
    CHECK(pario_dataset_read_items(ds, 2, 1, 0, 1, w3) == PARIO_OK && w3[0] == 1000.0f && w3[2] == 1002.0f);
  }
}

/* grid: a 6 x 10 C-order array in row blocks; read back through an index
 * decomposition in reverse order. disp: blocks of {n, 3}. */
static void global(pario_dataset_t ds) {
  const int64_t dims[2] = {6, 10};
  int64_t rows = 6 / size + (rank < 6 % size), row0 = rank * (6 / size) + (rank < 6 % size ? rank : 6 % size);
  const int64_t start[2] = {row0, 0}, count[2] = {rows, 10};
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 2, dims, PARIO_ORDER_C, 1, start, count, NULL, &d) ==
        PARIO_OK);
  double vals[60];
  for (int64_t k = 0; k < rows * 10; ++k) vals[k] = 0.5 * (double)(row0 * 10 + k);
  CHECK(pario_dataset_write_decomp(ds, 1, 4, d, vals) == PARIO_OK);
  CHECK_FAILS(pario_dataset_write_decomp(ds, 1, 4, d, vals), PARIO_ERR_EXISTS, "already");
  /* A decomposition of another file type than the word type. */
  pario_decomp_t f = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_FLOAT, 2, dims, PARIO_ORDER_C, 1, start, count, NULL, &f) ==
        PARIO_OK);
  CHECK_FAILS(pario_dataset_write_decomp(ds, 2, 4, f, vals), PARIO_ERR_INVALID_ARGUMENT, "word type");
  CHECK(pario_decomp_free(&f) == PARIO_OK);
  pario_dataset_section_t info;
  CHECK(pario_dataset_section_info(ds, 1, 4, 0, &info) == PARIO_OK && info.layout == PARIO_SECTION_GLOBAL_ORDERED &&
        info.items == 60 && info.ndim == 2 && info.dims[0] == 6 && info.dims[1] == 10 && info.writers == 0);
  CHECK(pario_decomp_free(&d) == PARIO_OK);

  /* Rank r reads every size-th word from the end. */
  int64_t idx[60], n = 0;
  for (int64_t g = 59 - rank; g >= 0; g -= size) idx[n++] = g;
  CHECK(pario_decomp_create_indices(world, PARIO_TYPE_DOUBLE, 60, n, idx, NULL, &d) == PARIO_OK);
  double back[60];
  CHECK(pario_dataset_read_decomp(ds, 1, 4, d, back) == PARIO_OK);
  int good = 1;
  for (int64_t k = 0; k < n; ++k) good &= back[k] == 0.5 * (double)idx[k];
  CHECK(good);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
  /* By item range too. */
  CHECK(pario_dataset_read_items(ds, 1, 4, 10, 5, back) == PARIO_OK && back[0] == 5.0 && back[4] == 7.0);

  /* disp: 7 items of 3 words, blocks {n, 3} of rows split by rank, written
   * from float memory. */
  const int64_t vd[2] = {7, 3};
  const int64_t vr = 7 / size + (rank < 7 % size), v0 = rank * (7 / size) + (rank < 7 % size ? rank : 7 % size);
  const int64_t vs[2] = {v0, 0}, vc[2] = {vr, 3};
  CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 2, vd, PARIO_ORDER_C, 1, vs, vc, NULL, &d) == PARIO_OK);
  float fv[21];
  for (int64_t k = 0; k < vr * 3; ++k) fv[k] = (float)(v0 * 3 + k) + 0.25f;
  CHECK(pario_dataset_variable_set_types(ds, 5, PARIO_TYPE_FLOAT, 0) == PARIO_OK);
  CHECK(pario_dataset_write_decomp(ds, 3, 5, d, fv) == PARIO_OK);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
  CHECK(pario_dataset_section_info(ds, 3, 5, 0, &info) == PARIO_OK && info.items == 7 && info.ndim == 2 &&
        info.dims[1] == 3);
}

static void infos(pario_dataset_t ds) {
  /* Every element type on the dataset: values 1..3 (rank 0's only: the
   * others pass NULL). */
  for (int t = PARIO_TYPE_DOUBLE; t <= PARIO_TYPE_COMPLEX_FLOAT; ++t) {
    char name[16];
    snprintf(name, sizeof name, "type%02d", t);
    int64_t one_two_three[3] = {1, 2, 3};
    unsigned char raw[3 * 16];
    memset(raw, 0, sizeof raw);
    /* Converted from int64 by the test itself, through pario's own info
     * read: write doubles 1, 2, 3 of the type's width. */
    for (int i = 0; i < 3; ++i) {
      switch (t) {
        case PARIO_TYPE_DOUBLE: ((double *)raw)[i] = (double)one_two_three[i]; break;
        case PARIO_TYPE_FLOAT: ((float *)raw)[i] = (float)one_two_three[i]; break;
        case PARIO_TYPE_COMPLEX_DOUBLE: ((double *)raw)[2 * i] = (double)one_two_three[i]; break;
        case PARIO_TYPE_COMPLEX_FLOAT: ((float *)raw)[2 * i] = (float)one_two_three[i]; break;
        case PARIO_TYPE_INT8: case PARIO_TYPE_UINT8: ((int8_t *)raw)[i] = (int8_t)one_two_three[i]; break;
        case PARIO_TYPE_INT16: case PARIO_TYPE_UINT16: ((int16_t *)raw)[i] = (int16_t)one_two_three[i]; break;
        case PARIO_TYPE_INT32: case PARIO_TYPE_UINT32: ((int32_t *)raw)[i] = (int32_t)one_two_three[i]; break;
        default: ((int64_t *)raw)[i] = one_two_three[i]; break;
      }
    }
    CHECK(pario_dataset_info_put(ds, PARIO_INFO_DATASET, 0, name, t, 3, rank == 0 ? raw : NULL) == PARIO_OK);
    int type = 0;
    int64_t count = 0, back[3] = {0, 0, 0};
    CHECK(pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0, name, PARIO_TYPE_INT64, 3, back, &type, &count) ==
          PARIO_OK);
    CHECK(type == t && count == 3 && back[0] == 1 && back[2] == 3);
  }
  const char *title = "PDS test, \xc3\xa9t\xc3\xa9";  /* UTF-8 */
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_DATASET, 0, "title", PARIO_INFO_STRING, (int64_t)strlen(title),
                               title) == PARIO_OK);
  char text[64];
  int type = 0;
  int64_t count = 0;
  CHECK(pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0, "title", PARIO_INFO_STRING, sizeof text, text, &type,
                               &count) == PARIO_OK);
  CHECK(type == PARIO_INFO_STRING && count == (int64_t)strlen(title) && memcmp(text, title, (size_t)count) == 0);
  CHECK_FAILS(pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0, "title", PARIO_TYPE_INT32, 64, text, NULL, NULL),
              PARIO_ERR_INVALID_ARGUMENT, "a string");
  /* An empty string and an empty array. */
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_DATASET, 0, "empty", PARIO_INFO_STRING, 0, "") == PARIO_OK);
  CHECK(pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0, "empty", PARIO_INFO_STRING, 0, NULL, &type, &count) ==
            PARIO_OK && count == 0);
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_DATASET, 0, "none", PARIO_TYPE_INT32, 0, NULL) == PARIO_OK);
  CHECK(pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0, "none", PARIO_TYPE_INT32, 0, NULL, &type, &count) ==
            PARIO_OK && count == 0 && type == PARIO_TYPE_INT32);

  /* On a variable and a segment; replacing one; capacity and conversion. */
  const double energy[2] = {-1.5, 2.5};
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_VARIABLE, 2, "units", PARIO_INFO_STRING, 3, "GPa") == PARIO_OK);
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 2, "energy", PARIO_TYPE_DOUBLE, 2, energy) == PARIO_OK);
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 2, "energy", PARIO_TYPE_DOUBLE, 1, energy) == PARIO_OK);
  double e[2] = {0, 0};
  CHECK(pario_dataset_info_get(ds, PARIO_INFO_SEGMENT, 2, "energy", PARIO_TYPE_DOUBLE, 2, e, &type, &count) ==
            PARIO_OK && count == 1 && e[0] == -1.5);
  int32_t as_int[2];
  CHECK(pario_dataset_info_get(ds, PARIO_INFO_SEGMENT, 2, "energy", PARIO_TYPE_INT32, 2, as_int, NULL, NULL) ==
            PARIO_OK && as_int[0] == -1);  /* truncated toward zero, as C does */
  const double big = 1e10;
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 2, "big", PARIO_TYPE_DOUBLE, 1, &big) == PARIO_OK);
  CHECK_FAILS(pario_dataset_info_get(ds, PARIO_INFO_SEGMENT, 2, "big", PARIO_TYPE_INT32, 2, as_int, NULL, NULL),
              PARIO_ERR_OUT_OF_RANGE, "");  /* checked, never wrapped */
  CHECK_FAILS(pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0, "type01", PARIO_TYPE_DOUBLE, 2, e, NULL, NULL),
              PARIO_ERR_INVALID_ARGUMENT, "capacity is 2");
  CHECK_FAILS(pario_dataset_info_get(ds, PARIO_INFO_SEGMENT, 1, "energy", PARIO_TYPE_DOUBLE, 2, e, NULL, NULL),
              PARIO_ERR_NOT_FOUND, "no info energy");
  CHECK_FAILS(pario_dataset_info_put(ds, PARIO_INFO_DATASET, 0, "pario_format", PARIO_INFO_STRING, 1, "x"),
              PARIO_ERR_INVALID_ARGUMENT, "pario_");
  CHECK_FAILS(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 99, "x", PARIO_TYPE_DOUBLE, 1, energy),
              PARIO_ERR_INVALID_ARGUMENT, "segment 99");
  /* Listing: the pario_ fields are not infos. */
  char name[32];
  CHECK(pario_dataset_info_name(ds, PARIO_INFO_DATASET, 0, 0, name, sizeof name, &count) == PARIO_OK);
  CHECK(count == 12 + 3 && strcmp(name, "empty") == 0);
  CHECK(pario_dataset_info_name(ds, PARIO_INFO_VARIABLE, 2, 0, name, sizeof name, &count) == PARIO_OK &&
        count == 1 && strcmp(name, "units") == 0);
  CHECK(pario_dataset_info_name(ds, PARIO_INFO_SEGMENT, 0, 0, name, sizeof name, &count) == PARIO_OK && count == 0);
}

static void truncation(pario_dataset_t ds) {
  int64_t seg = 0, n = 0;
  double mine[1] = {1.0 * rank};
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 3, 1.5, &seg) == PARIO_OK && seg == 4);
  CHECK(pario_dataset_write_ranked(ds, 4, 0, 1, mine) == PARIO_OK);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 4, 2.0, &seg) == PARIO_OK && seg == 5);
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 5, "gone", PARIO_TYPE_DOUBLE, 1, mine) == PARIO_OK);
  CHECK_FAILS(pario_dataset_truncate(ds, 9), PARIO_ERR_INVALID_ARGUMENT, "segment 9");
  CHECK(pario_dataset_truncate(ds, 3) == PARIO_OK);
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 4);
  CHECK(pario_dataset_segment_find_index(ds, PARIO_SEGMENT_STATE, 3, &seg) == PARIO_ERR_NOT_FOUND);
  /* The time line goes on from segment 3; the erased time index is free. */
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 3, 1.25, &seg) == PARIO_OK && seg == 4);
  pario_dataset_section_t info;
  CHECK(pario_dataset_section_info(ds, 4, 0, 0, &info) == PARIO_ERR_NOT_FOUND);
  CHECK(pario_dataset_info_name(ds, PARIO_INFO_SEGMENT, 4, 0, NULL, 0, &n) == PARIO_OK && n == 0);
}

/* Reopened read-only: the records and values are back; writes refused. */
static void reopen(const char *path) {
  pario_dataset_t ds = PARIO_DATASET_NULL;
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  int64_t n = 0;
  int count = 0, v = -1, kind = 0;
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 5);
  CHECK(pario_dataset_variable_count(ds, &count) == PARIO_OK && count == 6);
  CHECK(pario_dataset_variable_find(ds, "disp", &v) == PARIO_OK && v == 5);
  int64_t ti = 0;
  double tv = 0;
  CHECK(pario_dataset_segment_info(ds, 4, &kind, &ti, &tv) == PARIO_OK && kind == PARIO_SEGMENT_STATE && ti == 3 &&
        tv == 1.25);
  CHECK_FAILS(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 9, 9.0, NULL), PARIO_ERR_STATE, "read-only");
  double one[1] = {0};
  CHECK_FAILS(pario_dataset_write_ranked(ds, 4, 0, 1, one), PARIO_ERR_STATE, "read-only");
  double d[3];
  CHECK(pario_dataset_read_items(ds, 3, 5, 6, 1, d) == PARIO_OK && d[0] == 18.25 && d[2] == 20.25);
  CHECK(pario_dataset_close(&ds) == PARIO_OK && ds == PARIO_DATASET_NULL);
  /* Create exclusive on it: refused, file intact; create with replace of a
   * non-dataset: refused. */
  CHECK_FAILS(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &ds), PARIO_ERR_EXISTS,
              "exists");
  CHECK_FAILS(pario_dataset_open(world, "/nonexistent/x.h5", PARIO_MODE_READ, &ds), PARIO_ERR_NOT_FOUND, "");
  CHECK_FAILS(pario_dataset_open(world, path, PARIO_MODE_WRITE, &ds), PARIO_ERR_INVALID_ARGUMENT, "mode");
}

/* A checkpoint of a 24 x 10 array written and read back through one
 * aggregator with a 64-byte buffer, every transfer through it (hints of
 * create and open): 1920 bytes in 30 rounds each way, where the default
 * (a 16 MiB buffer) takes at most one per aggregator; the values are the
 * default's. A hint the engine refuses fails open on every rank with its
 * message; hints that differ between ranks are capi_collective_matrix_test's. */
static void hints(const char *path) {
  char plain[600], hinted[600];
  snprintf(plain, sizeof plain, "%s.plain.h5", path);
  snprintf(hinted, sizeof hinted, "%s.hints.h5", path);
  const int64_t dims[2] = {24, 10}, zero[2] = {0, 0}, flat = 240;
  double all[240], back[240];
  for (int i = 0; i < 240; ++i) all[i] = 0.25 * i - 7.0;
  pario_array_t a = PARIO_ARRAY_NULL, b = PARIO_ARRAY_NULL;
  CHECK(pario_array_create(world, "ckpt", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  if (rank == 0) CHECK(pario_array_put(a, zero, dims, all, NULL) == PARIO_OK);
  CHECK(pario_array_sync(a) == PARIO_OK);
  const pario_decomp_hints h = {.aggregators = 1, .buffer_size = 64, .buffering = PARIO_BUFFERING_ALWAYS};
  int64_t before[2], after[2], written[2];
  for (int k = 0; k < 2; ++k) {
    const pario_dataset_create_options_t o = {PARIO_DATASET_ONE_FILE, 0, 0, k ? &h : NULL};
    pario_dataset_t ds = PARIO_DATASET_NULL;
    CHECK(pario_dataset_create_with(world, k ? hinted : plain, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &ds) ==
          PARIO_OK);
    int v = -1;
    CHECK(pario_dataset_variable_register(ds, "rho", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK);
    CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0, 0.0, NULL) == PARIO_OK);
    collective_rounds(world, before);
    CHECK(pario_dataset_write_array(ds, 0, v, a) == PARIO_OK);
    collective_rounds(world, after);
    written[k] = after[0] - before[0];
    CHECK(pario_dataset_close(&ds) == PARIO_OK);
  }
  CHECK(written[1] == 30);
  CHECK(written[0] <= size);

  /* Read back into a 1-D array through the hints of open (with a sync
   * policy of its own too). */
  const pario_dataset_open_options_t oo = {PARIO_DATASET_SYNC_NONE, &h};
  pario_dataset_t ds = PARIO_DATASET_NULL;
  int policy = 0;
  CHECK(pario_dataset_open_with(world, hinted, PARIO_MODE_READ, &oo, &ds) == PARIO_OK);
  CHECK(pario_dataset_sync_counts(ds, &policy, NULL, NULL) == PARIO_OK && policy == PARIO_DATASET_SYNC_NONE);
  CHECK(pario_array_create(world, "restart", PARIO_TYPE_DOUBLE, 1, &flat, &b) == PARIO_OK);
  collective_rounds(world, before);
  CHECK(pario_dataset_read_array(ds, 0, 0, b) == PARIO_OK);
  collective_rounds(world, after);
  CHECK(after[1] - before[1] == 30);
  CHECK(pario_array_get(b, zero, &flat, back, NULL) == PARIO_OK);
  CHECK(memcmp(back, all, sizeof all) == 0);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  /* The default's file holds the same values. */
  CHECK(pario_dataset_open(world, plain, PARIO_MODE_READ, &ds) == PARIO_OK);
  CHECK(pario_dataset_read_items(ds, 0, 0, 0, 240, back) == PARIO_OK);
  CHECK(memcmp(back, all, sizeof all) == 0);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);

  const pario_decomp_hints negative = {.aggregators = -1};
  const pario_dataset_open_options_t bad = {0, &negative};
  CHECK_FAILS(pario_dataset_open_with(world, hinted, PARIO_MODE_READ, &bad, &ds), PARIO_ERR_INVALID_ARGUMENT,
              "hints->aggregators is negative");
  CHECK(ds == PARIO_DATASET_NULL);
  CHECK(pario_array_destroy(&a) == PARIO_OK && pario_array_destroy(&b) == PARIO_OK);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  if (rank == 0) CHECK(remove(plain) == 0 && remove(hinted) == 0);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: dataset_capi_test FILE.h5\n");
    return 2;
  }
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  CHECK(pario_group_world(&world) == PARIO_OK);
  CHECK(pario_dataset_supported() == 1);
  const char *path = argv[1];
  pario_dataset_t ds = PARIO_DATASET_NULL;
  CHECK(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &ds) == PARIO_OK);
  segments(ds);
  variables(ds);
  ranked(ds);
  global(ds);
  infos(ds);
  truncation(ds);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  reopen(path);
  hints(path);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("dataset_capi_test");
}
