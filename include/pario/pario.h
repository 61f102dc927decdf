/* pario/pario.h: the whole public C API.
 *
 * pario: parallel I/O and distributed data for scientific codes. Every
 * function returns PARIO_OK (0) or a status code from pario/status.h, and
 * writes its outputs only on success.
 */
#ifndef PARIO_PARIO_H
#define PARIO_PARIO_H

#include "pario/array.h"
#include "pario/collective_io.h"
#include "pario/dataset.h"
#include "pario/disk_array.h"
#include "pario/exodus.h"
#include "pario/file.h"
#include "pario/request.h"
#include "pario/runtime.h"
#include "pario/shared_file.h"
#include "pario/status.h"
#include "pario/wavefunction.h"

#endif /* PARIO_PARIO_H */
