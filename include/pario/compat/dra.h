/* dra.h: GA ChemIO's Disk Resident Arrays API, served by pario disk arrays.
 *
 * A program written for Global Arrays' dra.h compiles against this header
 * unchanged. Which global arrays the g_a arguments name depends on the
 * library linked:
 *   - pario's own (DDI handles from DDI_Create): link -lpario_compat -lpario;
 *   - Global Arrays' own handles (GA_Create, NGA_Create): link
 *     -lpario_dra_ga -lpario, then GA's libraries (-lga -larmci, ...;
 *     -lpario_compat too if the program also wants pario's EAF or SF).
 *     pario's DRA must come before -lga, so the linker takes DRA_* from
 *     pario and never pulls GA's own DRA objects in.
 * As in GA: every call is collective; indices of the C calls (NDRA_*) are
 * 0-based, C order, inclusive ranges; types are MA/GA types (C_DBL,
 * MT_F_DBL, ...; PARIO_TYPE_* work too); calls return 0 on success;
 * DRA_Probe sets ELIO_DONE when the request is complete on every rank.
 * A disk array is a Zarr v3 store, a directory at `filename` (see
 * pario/disk_array.h); Fortran's (dim1, dim2) is stored as C's [dim2][dim1].
 * transp reverses the axis order (the transpose of a matrix).
 * Differences from GA: no limit on arrays or outstanding requests
 * (DRA_Init's limits are accepted and ignored); a real asynchronous engine
 * (the write has copied the section out of the global array when it
 * returns; the read fills it at DRA_Wait, or at the DRA_Probe that finds it
 * done); errors return a pario status code (>0), never abort, and
 * DRA_Errmsg says why; the layout on disk does not depend on how
 * many processes wrote it; DRA_Open of a store written elsewhere reports
 * the array's name as its file name.
 */
#ifndef _DRA_H_
#define _DRA_H_

#include "pario/export.h"

#ifndef CHEMIO_H
#define CHEMIO_H
#define ELIO_RW -1
#define ELIO_W -2
#define ELIO_R -3
#define ELIO_DONE -1
#define ELIO_PENDING 1
#define ELIO_OK 0
#endif

#define DRA_RW ELIO_RW
#define DRA_R ELIO_R
#define DRA_W ELIO_W
#define DRA_REQ_INVALID -333

typedef long dra_size_t;
#ifndef TYPESF2C_H_
typedef long logical; /* GA's Fortran LOGICAL (typesf2c.h) */
#endif

#ifdef __cplusplus
extern "C" {
#endif

PARIO_API int DRA_Init(int max_arrays, double max_array_size, double total_disk_space,
                       double max_memory);
PARIO_API int DRA_Terminate(void);
PARIO_API int NDRA_Create(int type, int ndim, dra_size_t dims[], char *name, char *filename,
                          int mode, dra_size_t reqdims[], int *d_a);
/* numfiles and numioprocs are accepted and ignored (the store's shard files
 * and the ranks that move each chunk are pario's choice). */
PARIO_API int NDRA_Create_config(int type, int ndim, dra_size_t dims[], char *name,
                                 char *filename, int mode, dra_size_t reqdims[], int numfiles,
                                 int numioprocs, int *d_a);
PARIO_API int DRA_Open(char *filename, int mode, int *d_a);
PARIO_API int DRA_Close(int d_a);
PARIO_API int DRA_Delete(int d_a);
/* name and filename: room for the strings given at creation, or for an
 * opened array 1024 bytes for the name (a longer one stored in the array
 * is not used: its filename stands in) and the filename given to DRA_Open. */
PARIO_API int NDRA_Inquire(int d_a, int *type, int *ndim, dra_size_t dims[], char *name,
                           char *filename);
PARIO_API int NDRA_Write(int g_a, int d_a, int *request);
PARIO_API int NDRA_Read(int g_a, int d_a, int *request);
PARIO_API int NDRA_Write_section(logical transp, int g_a, int glo[], int ghi[], int d_a,
                                 dra_size_t dlo[], dra_size_t dhi[], int *request);
PARIO_API int NDRA_Read_section(logical transp, int g_a, int glo[], int ghi[], int d_a,
                                dra_size_t dlo[], dra_size_t dhi[], int *request);
PARIO_API int DRA_Probe(int request, int *compl_status);
PARIO_API int DRA_Wait(int request);
PARIO_API void DRA_Set_debug(logical flag);
PARIO_API void DRA_Print_internals(int d_a);
PARIO_API void DRA_Set_default_config(int numfiles, int numioprocs);
/* Gives the I/O engine a moment (pario's engine needs none: a no-op). */
PARIO_API void DRA_Flick(void);
/* A pario addition: "<status>: <cause>" of a failed call in msg[80]. */
PARIO_API void DRA_Errmsg(int code, char *msg);

#ifdef __cplusplus
}
#endif

#endif /* _DRA_H_ */
