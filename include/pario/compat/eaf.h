/* eaf.h: GA ChemIO's Exclusive Access Files API, served by pario.
 *
 * A program written for Global Arrays' eaf.h compiles against this header
 * unchanged (add -I<prefix>/include/pario/compat, link -lpario_compat
 * -lpario). Differences from GA: no limit on open files or outstanding
 * requests; errors are pario status codes (EAF_Errmsg explains them, with
 * the failing path and cause); EAF_Stat reports the real file-system type
 * ("ext4", "xfs", "tmpfs", ...) instead of "UFS".
 */
#ifndef EAF_H
#define EAF_H

#define EAF_RW -1
#define EAF_W -2
#define EAF_R -3

#ifndef EAF_FORTRAN

#include <stdio.h>
#include <sys/types.h>

#include "pario/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef double eaf_off_t;

PARIO_API int EAF_Aread(int fd, eaf_off_t offset, void *buf, size_t bytes, int *req_id);
PARIO_API int EAF_Awrite(int fd, eaf_off_t offset, const void *buf, size_t bytes, int *req_id);
PARIO_API int EAF_Close(int fd);
PARIO_API int EAF_Delete(const char *fname);
/* 0 if code means end of file, non-zero otherwise (GA's convention). */
PARIO_API int EAF_Eof(int code);
/* msg must hold 80 characters. */
PARIO_API void EAF_Errmsg(int code, char *msg);
PARIO_API int EAF_Length(int fd, eaf_off_t *length);
PARIO_API int EAF_Open(const char *fname, int type, int *fd);
PARIO_API void EAF_Print_stats(int fd);
/* *status = 0 when the request is complete, 1 while it is pending. */
PARIO_API int EAF_Probe(int id, int *status);
PARIO_API int EAF_Read(int fd, eaf_off_t offset, void *buf, size_t bytes);
/* *avail_kb: the free space in MEGABYTES, whatever its name says (as GA). */
PARIO_API int EAF_Stat(const char *path, long *avail_kb, char *fstype, int fslen);
PARIO_API int EAF_Truncate(int fd, eaf_off_t length);
PARIO_API int EAF_Wait(int fd, int id);
PARIO_API int EAF_Write(int fd, eaf_off_t offset, const void *buf, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* EAF_FORTRAN */
#endif /* EAF_H */
