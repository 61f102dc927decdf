/* The public C header, tested from C: every call's contract and its bad
 * input. Runs as a plain process (pario_init starts a singleton MPI). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static void test_status_strings(void) {
  char buf[8];
  CHECK(strcmp(pario_status_string(PARIO_OK), "ok") == 0);
  CHECK(strcmp(pario_status_string(PARIO_ERR_NO_SPACE), "no space left") == 0);
  CHECK(strcmp(pario_status_string(12345), "unknown status code") == 0);
  /* snprintf-like: the full length is returned even if cut */
  pario_file_open(NULL, PARIO_MODE_RDWR, NULL);
  size_t n = pario_last_error_message(buf, sizeof buf);
  CHECK(n > sizeof buf && strlen(buf) == sizeof buf - 1);
  /* a binding's own finding becomes the last error; PARIO_OK records nothing */
  char msg[64];
  CHECK(pario_report_error(PARIO_ERR_STATE, "binding_call", "why") == PARIO_ERR_STATE);
  CHECK(pario_last_error_message(msg, sizeof msg) == 17 && strcmp(msg, "binding_call: why") == 0);
  CHECK(pario_report_error(PARIO_OK, "x", "y") == PARIO_ERR_INVALID_ARGUMENT);
  CHECK(pario_report_error(99, "x", "y") == PARIO_ERR_INVALID_ARGUMENT);
  pario_last_error_message(msg, sizeof msg);
  CHECK(strcmp(msg, "binding_call: why") == 0);
}

static void test_round_trip_and_requests(const char *path) {
  pario_file_t f = PARIO_FILE_NULL;
  CHECK(pario_file_open(path, PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &f) == PARIO_OK);
  enum { N = 64, LEN = 3000 };
  static char out[N][LEN], in[N][LEN];
  pario_request_t reqs[N];
  for (int i = 0; i < N; ++i) {
    memset(out[i], 'a' + i % 26, LEN);
    CHECK(pario_file_iwrite(f, (int64_t)i * LEN, out[i], LEN, &reqs[i]) == PARIO_OK);
  }
  CHECK(pario_request_waitall(N, reqs) == PARIO_OK);
  for (int i = 0; i < N; ++i) CHECK(reqs[i] == PARIO_REQUEST_NULL);
  for (int i = 0; i < N; ++i) CHECK(pario_file_iread(f, (int64_t)i * LEN, in[i], LEN, &reqs[i]) == PARIO_OK);
  int done = 0;
  CHECK(pario_request_test(&reqs[0], &done) == PARIO_OK);
  CHECK(pario_request_waitall(N, reqs) == PARIO_OK);
  CHECK(memcmp(in, out, sizeof in) == 0);

  int64_t len = -1;
  CHECK(pario_file_length(f, &len) == PARIO_OK && len == (int64_t)N * LEN);
  int eof = -1;
  CHECK(pario_file_eof(f, len, &eof) == PARIO_OK && eof == 1);
  CHECK(pario_file_eof(f, 0, &eof) == PARIO_OK && eof == 0);
  CHECK(pario_file_truncate(f, 10) == PARIO_OK);
  CHECK(pario_file_length(f, &len) == PARIO_OK && len == 10);
  CHECK(pario_file_sync(f) == PARIO_OK);

  /* a read past end of file, blocking and nonblocking */
  char buf[100];
  CHECK_FAILS(pario_file_read(f, 5, buf, 100), PARIO_ERR_OUT_OF_RANGE, "past end of file");
  pario_request_t r = PARIO_REQUEST_NULL;
  CHECK(pario_file_iread(f, 5, buf, 100, &r) == PARIO_OK);
  CHECK_FAILS(pario_request_wait(&r), PARIO_ERR_OUT_OF_RANGE, "past end of file");
  CHECK(r == PARIO_REQUEST_NULL);
  CHECK(pario_file_close(&f) == PARIO_OK && f == PARIO_FILE_NULL);
}

static void test_bad_input(const char *path) {
  pario_file_t f = PARIO_FILE_NULL, stale;
  char buf[16] = {0};
  CHECK_FAILS(pario_file_open(NULL, PARIO_MODE_RDWR, &f), PARIO_ERR_INVALID_ARGUMENT, "path is null");
  CHECK_FAILS(pario_file_open(path, PARIO_MODE_RDWR, NULL), PARIO_ERR_INVALID_ARGUMENT, "file_out is null");
  CHECK_FAILS(pario_file_open(path, 0, &f), PARIO_ERR_INVALID_ARGUMENT, "mode needs");
  CHECK_FAILS(pario_file_open(path, 0x4000 | PARIO_MODE_READ, &f), PARIO_ERR_INVALID_ARGUMENT, "unknown mode bits");
  CHECK_FAILS(pario_file_open(path, PARIO_MODE_READ | PARIO_MODE_CREATE, &f), PARIO_ERR_INVALID_ARGUMENT, "need PARIO_MODE_WRITE");
  CHECK_FAILS(pario_file_open("/no/such/dir/x", PARIO_MODE_READ, &f), PARIO_ERR_NOT_FOUND, "/no/such/dir/x");
  CHECK(f == PARIO_FILE_NULL); /* outputs written only on success */

  CHECK(pario_file_open(path, PARIO_MODE_RDWR | PARIO_MODE_CREATE, &f) == PARIO_OK);
  CHECK_FAILS(pario_file_write(f, -1, buf, 1), PARIO_ERR_INVALID_ARGUMENT, "negative offset");
  CHECK_FAILS(pario_file_write(f, 0, NULL, 1), PARIO_ERR_INVALID_ARGUMENT, "buffer is null");
  CHECK_FAILS(pario_file_read(f, INT64_MAX, buf, 2), PARIO_ERR_INVALID_ARGUMENT, "overflows");
  CHECK_FAILS(pario_file_truncate(f, -5), PARIO_ERR_INVALID_ARGUMENT, "negative length");
  CHECK_FAILS(pario_file_length(f, NULL), PARIO_ERR_INVALID_ARGUMENT, "length_out is null");
  CHECK_FAILS(pario_file_iwrite(f, 0, buf, 1, NULL), PARIO_ERR_INVALID_ARGUMENT, "req_out is null");

  /* a request waited twice, through the nulled handle and through a copy */
  pario_request_t r, copy;
  CHECK(pario_file_iwrite(f, 0, buf, sizeof buf, &r) == PARIO_OK);
  copy = r;
  CHECK(pario_request_wait(&r) == PARIO_OK);
  CHECK_FAILS(pario_request_wait(&r), PARIO_ERR_INVALID_ARGUMENT, "already waited");
  CHECK_FAILS(pario_request_wait(&copy), PARIO_ERR_INVALID_ARGUMENT, "stale");
  CHECK_FAILS(pario_request_wait(NULL), PARIO_ERR_INVALID_ARGUMENT, "request pointer is null");
  pario_request_t two[2] = {PARIO_REQUEST_NULL, PARIO_REQUEST_NULL};
  CHECK_FAILS(pario_request_waitall(2, two), PARIO_ERR_INVALID_ARGUMENT, "request 0");

  /* a closed handle, through the nulled variable and through a copy */
  stale = f;
  CHECK(pario_file_close(&f) == PARIO_OK);
  CHECK_FAILS(pario_file_write(f, 0, buf, 1), PARIO_ERR_INVALID_ARGUMENT, "null (closed");
  CHECK_FAILS(pario_file_write(stale, 0, buf, 1), PARIO_ERR_INVALID_ARGUMENT, "stale");
  CHECK_FAILS(pario_file_close(&stale), PARIO_ERR_INVALID_ARGUMENT, "stale");
  CHECK_FAILS(pario_file_close(NULL), PARIO_ERR_INVALID_ARGUMENT, "null");

  /* read-only files refuse writes, by state, not by crashing */
  CHECK(pario_file_open(path, PARIO_MODE_READ, &f) == PARIO_OK);
  CHECK_FAILS(pario_file_write(f, 0, buf, 1), PARIO_ERR_STATE, "read-only");
  CHECK(pario_file_close(&f) == PARIO_OK);
  CHECK(pario_file_delete(path) == PARIO_OK);
  CHECK_FAILS(pario_file_delete(path), PARIO_ERR_NOT_FOUND, path);
}

/* Vectored write of 3 buffers, read back split differently; then errors. */
static void test_vectored(const char *path) {
  pario_file_t f;
  char a[100], b[1], c[5000], x[2000], y[3101];
  for (int i = 0; i < 100; ++i) a[i] = (char)i;
  b[0] = 'b';
  for (int i = 0; i < 5000; ++i) c[i] = (char)(i * 3);
  CHECK(pario_file_open(path, PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &f) == PARIO_OK);
  pario_iovec_t w[4] = {{a, sizeof a}, {NULL, 0}, {b, sizeof b}, {c, sizeof c}};
  CHECK(pario_file_writev(f, 10, w, 4) == PARIO_OK);
  int64_t n = 0;
  CHECK(pario_file_length(f, &n) == PARIO_OK && n == 10 + 5101);
  pario_iovec_t r[2] = {{x, sizeof x}, {y, sizeof y}};
  CHECK(pario_file_readv(f, 10, r, 2) == PARIO_OK);
  CHECK(memcmp(x, a, 100) == 0 && x[100] == 'b' && memcmp(x + 101, c, 1899) == 0);
  CHECK(memcmp(y, c + 1899, 3101) == 0);
  pario_iovec_t past[1] = {{y, sizeof y}};
  CHECK_FAILS(pario_file_readv(f, 3000, past, 1), PARIO_ERR_OUT_OF_RANGE, "past end of file");
  CHECK_FAILS(pario_file_writev(f, 0, w, -1), PARIO_ERR_INVALID_ARGUMENT, "negative buffer count");
  CHECK_FAILS(pario_file_writev(f, 0, NULL, 2), PARIO_ERR_INVALID_ARGUMENT, "iov is null");
  pario_iovec_t bad[2] = {{a, 1}, {NULL, 5}};
  CHECK_FAILS(pario_file_readv(f, 0, bad, 2), PARIO_ERR_INVALID_ARGUMENT, "buffer 1 is null");
  CHECK_FAILS(pario_file_writev(f, -4, w, 4), PARIO_ERR_INVALID_ARGUMENT, "negative offset");
  CHECK(pario_file_writev(f, 0, NULL, 0) == PARIO_OK); /* nothing to do */
  CHECK(pario_file_close(&f) == PARIO_OK);
}

static void test_runtime(void) {
  char engine[128];
  CHECK(pario_io_engine(engine, sizeof engine) == PARIO_OK && engine[0] != '\0');
  printf("io engine: %s\n", engine);
  CHECK_FAILS(pario_io_engine(NULL, 0), PARIO_ERR_INVALID_ARGUMENT, "buf is null");
  int flag = -1, rank = -1, size = -1, node, nodes, node_rank, node_size;
  CHECK(pario_initialized(&flag) == PARIO_OK && flag == 1);
  CHECK(pario_world_rank(&rank) == PARIO_OK && rank == 0);
  CHECK(pario_world_size(&size) == PARIO_OK && size == 1);
  CHECK(pario_node_info(&node, &nodes, &node_rank, &node_size) == PARIO_OK);
  CHECK(node == 0 && nodes == 1 && node_rank == 0 && node_size == 1);
  pario_fs_stat_t st;
  CHECK(pario_fs_stat("/tmp", &st) == PARIO_OK && st.total_bytes > 0 && st.type[0] != '\0');
  CHECK_FAILS(pario_fs_stat("/tmp", NULL), PARIO_ERR_INVALID_ARGUMENT, "stat_out is null");
  char path[16];
  CHECK_FAILS(pario_scratch_path("a_rather_long_name", path, sizeof path), PARIO_ERR_INVALID_ARGUMENT, "too short");
  CHECK_FAILS(pario_scratch_path("a/b", path, sizeof path), PARIO_ERR_INVALID_ARGUMENT, "not a path");
}

int main(void) {
  CHECK(pario_init() == PARIO_OK);
  CHECK(pario_init() == PARIO_OK); /* idempotent */
  char path[4096];
  CHECK(pario_scratch_path("capi_test", path, sizeof path) == PARIO_OK);
  test_status_strings();
  test_round_trip_and_requests(path);
  test_bad_input(path);
  test_vectored(path);
  test_runtime();
  unlink(path);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("capi_test");
}
