/* Writes and reads back a private file through an installed pario. */
#include <pario/pario.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "consumer.dat";
  pario_file_t f;
  char out[] = "installed pario works", in[sizeof out];
  if (pario_file_open(path, PARIO_MODE_RDWR | PARIO_MODE_CREATE, &f) != PARIO_OK ||
      pario_file_write(f, 1000, out, sizeof out) != PARIO_OK ||
      pario_file_read(f, 1000, in, sizeof in) != PARIO_OK || pario_file_close(&f) != PARIO_OK ||
      pario_file_delete(path) != PARIO_OK) {
    char msg[256];
    pario_last_error_message(msg, sizeof msg);
    fprintf(stderr, "consumer: %s\n", msg);
    return 1;
  }
  printf("consumer: %s (pario %s)\n", strcmp(in, out) == 0 ? "ok" : "MISMATCH", pario_version());
  return strcmp(in, out) != 0;
}
