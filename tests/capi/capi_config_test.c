/* Run with PARIO_IO_ENGINE=turbo: start-up must fail clearly, not guess. */
#include "check.h"

int main(void) {
  CHECK_FAILS(pario_init(), PARIO_ERR_INVALID_ARGUMENT, "PARIO_IO_ENGINE=turbo");
  int flag = -1;
  CHECK(pario_initialized(&flag) == PARIO_OK && flag == 0);
  pario_file_t f = PARIO_FILE_NULL;
  CHECK_FAILS(pario_file_open("/tmp/never", PARIO_MODE_RDWR | PARIO_MODE_CREATE, &f),
              PARIO_ERR_INVALID_ARGUMENT, "PARIO_IO_ENGINE");
  return check_summary("capi_config_test");
}
