/* GA-style EAF code against an installed pario's compat library. */
#include <eaf.h>
#include <stdio.h>

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "consumer_eaf.dat";
  int fd;
  double x = 42.0, y = 0.0;
  if (EAF_Open(path, EAF_RW, &fd) || EAF_Write(fd, 0.0, &x, sizeof x) ||
      EAF_Read(fd, 0.0, &y, sizeof y) || EAF_Close(fd) || EAF_Delete(path) || y != 42.0) {
    fprintf(stderr, "consumer_eaf: failed\n");
    return 1;
  }
  printf("consumer_eaf: ok\n");
  return 0;
}
