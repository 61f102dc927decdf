/* sf.h: GA ChemIO's Shared Files API, served by pario.
 *
 * A program written for Global Arrays' sf.h compiles against this header
 * unchanged (add -I<prefix>/include/pario/compat, link -lpario_compat
 * -lpario). As in GA: SF_Create and SF_Destroy are collective over all
 * ranks; the file made is "<fname>.<handle>" (SF_Create_suffix:
 * "<fname>.<suffix>"); SF_Write and SF_Read are asynchronous and return a
 * request id for SF_Wait / SF_Waitall, which set it to SF_DONE; SF_Close,
 * SF_Open and SF_Rwtor close and reopen this rank's descriptor only.
 * Sizes are doubles holding whole byte counts; -1 means unknown.
 * Differences from GA: the hard limit is enforced (a write past it fails);
 * SF_Create starts pario (and MPI) if the program has not; errors are pario
 * status codes and SF_Errmsg names the cause; no limit on files or
 * outstanding requests.
 */
#ifndef SF_H_
#define SF_H_

#include "pario/export.h"

#define SF_DONE (-1)

typedef double SFsize_t;

#ifdef __cplusplus
extern "C" {
#endif

PARIO_API int SF_Create(char *fname, SFsize_t size_hard_limit, SFsize_t size_soft_limit,
                        SFsize_t req_size, int *handle);
PARIO_API int SF_Create_suffix(char *fname, SFsize_t size_hard_limit, SFsize_t size_soft_limit,
                               SFsize_t req_size, int *handle, int suffix);
PARIO_API int SF_Destroy(int handle);
PARIO_API int SF_Rwtor(int handle);
PARIO_API int SF_Open(int handle);
PARIO_API int SF_Close(int handle);
PARIO_API int SF_Fsync(int handle);
PARIO_API int SF_Write(int handle, SFsize_t offset, SFsize_t bytes, char *buffer, int *req_id);
PARIO_API int SF_Read(int handle, SFsize_t offset, SFsize_t bytes, char *buffer, int *req_id);
PARIO_API int SF_Wait(int *req_id);
PARIO_API int SF_Waitall(int *list, int num);
/* msg must hold 80 characters. */
PARIO_API void SF_Errmsg(int code, char *msg);

#ifdef __cplusplus
}
#endif

#endif /* SF_H_ */
