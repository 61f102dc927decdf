/* ddi.h: GAMESS's Distributed Data Interface (DDI 3), served by pario.
 *
 * Code written for DDI's C interface compiles against this header and links
 * with -lpario_compat -lpario; Fortran code calls the lower-case names with
 * a trailing underscore (ddi_get_, ...) with INTEGERs of the size pario_compat
 * was built for (PARIO_F77_INTEGER_SIZE, 8 by default as in GAMESS builds).
 *
 * Arrays are DDI's: idim rows by jdim columns of doubles, stored column-major
 * (Fortran order), columns divided among the ranks of the working scope. C
 * indices are 0-based, Fortran ones 1-based; both ranges are inclusive
 * (ilo..ihi, jlo..jhi). A patch buffer holds the patch column-major and dense.
 *
 * Underneath: pario global arrays in node-shared memory with MPI-3 RMA; no
 * data servers. Ranks and nodes are 0-based as in DDI; PARIO_RANKS_PER_NODE
 * emulates nodes.
 *
 * Errors: DDI's calls return nothing, and DDI ends the job on any error.
 * pario does the same by default (a message naming the call and the cause on
 * stderr, then MPI_Abort). With PARIO_DDI_ERRORS=return a failing call
 * returns instead, leaving its outputs untouched; DDI_Last_error tells what
 * happened.
 *
 * Not provided: point-to-point messages (DDI_Send/Recv: use MPI), DDI_SMP_
 * arrays, DDI_Output, DDI_AScope and the DDI_Comm_* calls.
 *
 * Thread safety: as DDI, call from one thread per rank.
 */
#ifndef DDI_H
#define DDI_H

#include <stddef.h>

#include "pario/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DDI_VERSION 3
#define DDI_SUBVERSION 0

/* Scopes (DDI_Scope). */
#define DDI_WORLD 0
#define DDI_GROUP 1
#define DDI_MASTERS 2

/* Element types of DDI_GSum. */
#define DDI_DOUBLE 0
#define DDI_INT ((int)sizeof(int))
#define DDI_LONG ((int)sizeof(long))

/* A patch (DDI_GetP, DDI_DistribP, ...): only handle and the four bounds are
 * read or written by pario. */
typedef struct {
  int oper;
  int handle;
  int ilo;
  int ihi;
  int jlo;
  int jhi;
  size_t size;
  double alpha;
} DDI_Patch;

/* Start and end. DDI_Init starts MPI (through pario_init) when the
 * application has not; DDI_Finalize destroys what is left and ends it. */
PARIO_API void DDI_Init(int argc, char **argv);
PARIO_API void DDI_Finalize(void);
/* A cap on distributed memory, in megawords (2^20 doubles), on the arrays
 * this rank takes part in: creating an array beyond it fails. 0: no cap. */
PARIO_API void DDI_Memory(size_t megawords);

/* Ranks, nodes and groups of the working scope. */
PARIO_API void DDI_NProc(int *np, int *me);
PARIO_API void DDI_NNode(int *nnodes, int *mynode);
PARIO_API void DDI_SMP_NProc(int *np, int *me);
PARIO_API void DDI_NGroup(int *ngroups, int *mygroup);

/* Collectives over the working scope. tag is accepted and ignored. */
PARIO_API void DDI_Sync(int tag);
PARIO_API void DDI_BCast(void *buffer, size_t bytes, int root);
/* In-place sum of n elements of type DDI_DOUBLE, DDI_INT or DDI_LONG. */
PARIO_API void DDI_GSum(void *buffer, size_t n, int type);

/* Arrays, collective over the working scope. DDI_Create splits the columns
 * evenly (the first jdim % np ranks get one more); DDI_Create_custom takes
 * each rank's first column in jcols[np] (nondecreasing, jcols[0] = 0). */
PARIO_API void DDI_Create(int idim, int jdim, int *handle);
PARIO_API void DDI_Create_custom(int idim, int jdim, int *jcols, int *handle);
PARIO_API void DDI_Destroy(int handle);
PARIO_API void DDI_Zero(int handle);

/* The patch of rank (of the array's scope), and of node. A rank owning no
 * columns gets jhi = jlo - 1. */
PARIO_API void DDI_Distrib(int handle, int rank, int *ilo, int *ihi, int *jlo, int *jhi);
PARIO_API void DDI_NDistrib(int handle, int node, int *ilo, int *ihi, int *jlo, int *jhi);
PARIO_API void DDI_DistribP(int handle, int rank, DDI_Patch *patch);
PARIO_API void DDI_NDistribP(int handle, int node, DDI_Patch *patch);

/* One-sided transfers of the patch ilo..ihi x jlo..jhi; local calls.
 * DDI_Acc adds buff; DDI_GetAcc adds buff and returns in buff the values
 * the patch held just before (atomic per element). */
PARIO_API void DDI_Get(int handle, int ilo, int ihi, int jlo, int jhi, void *buff);
PARIO_API void DDI_Put(int handle, int ilo, int ihi, int jlo, int jhi, void *buff);
PARIO_API void DDI_Acc(int handle, int ilo, int ihi, int jlo, int jhi, void *buff);
PARIO_API void DDI_GetAcc(int handle, int ilo, int ihi, int jlo, int jhi, void *buff);
PARIO_API void DDI_GetP(int handle, DDI_Patch *patch, void *buff);
PARIO_API void DDI_PutP(int handle, DDI_Patch *patch, void *buff);
/* patch += alpha * buff. */
PARIO_API void DDI_AccP(int handle, DDI_Patch *patch, double alpha, void *buff);
PARIO_API void DDI_GetAccP(int handle, DDI_Patch *patch, void *buff);

/* Dynamic load balancing. DDI_DLBNext returns the working scope's shared
 * counter and adds one; DDI_DLBReset (collective) sets it back to 0.
 * DDI_GDLBNext/Reset use one counter over the whole job, for handing tasks
 * to groups (call Next from one rank per group). */
PARIO_API void DDI_DLBReset(void);
PARIO_API void DDI_DLBNext(size_t *counter);
PARIO_API void DDI_GDLBReset(void);
PARIO_API void DDI_GDLBNext(size_t *counter);
/* One counter per rank of the working scope (collective create/destroy/
 * reset); DDI_ProcDLB_next returns rank proc's counter and adds one. */
PARIO_API void DDI_ProcDLB_create(int *handle);
PARIO_API void DDI_ProcDLB_destroy(int handle);
PARIO_API void DDI_ProcDLB_reset(int handle);
PARIO_API void DDI_ProcDLB_next(int handle, int proc, int *counter);

/* Groups: collective over the world, which is cut into ngroups groups of
 * consecutive ranks (sizes as even as possible, or group_sizes[ngroups]).
 * The outputs name the scopes: DDI_WORLD, DDI_GROUP and DDI_MASTERS (rank 0
 * of each group; the other ranks are alone in their masters scope). The
 * working scope becomes DDI_GROUP. */
PARIO_API void DDI_Group_create(int ngroups, int *world, int *group, int *masters);
PARIO_API void DDI_Group_create_custom(int ngroups, int *group_sizes, int *world, int *group,
                                       int *masters);
/* Sets the working scope: DDI_WORLD, DDI_GROUP or DDI_MASTERS. */
PARIO_API void DDI_Scope(int scope);

/* pario's addition: the pario status code of this thread's last DDI call
 * (0 if it succeeded), its message copied to message[length]. */
PARIO_API int DDI_Last_error(char *message, size_t length);

#ifdef __cplusplus
}
#endif

#endif /* DDI_H */
