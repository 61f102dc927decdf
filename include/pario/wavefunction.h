/* pario/wavefunction.h: MFDn's wave-function file on parallel HDF5.
 *
 * A wave-function file holds the lowest eigenvectors of a many-body
 * Hamiltonian (MFDn writes about 15), each a vector of doubles over the
 * many-body basis, distributed over the ranks in contiguous slices: every
 * rank writes its own slice of each vector (an HDF5 hyperslab) and reads
 * back any slice, on the same or another number of ranks. Beside the
 * vectors the file describes its basis (dimension, Z, N, N_max, parity,
 * 2 M_J, hbar*omega: enough to know what the vectors mean without the
 * program that wrote them), and each vector has observables (energy, total
 * angular momentum J, isospin T) reserved when the file is made (NaN) and
 * written later, typically by a second step that reads the vectors back.
 *
 * h5py and h5dump read the file with no pario installed; the layout is in
 * src/dataset/wavefunction.h and docs/architecture.md ("MFDn's
 * wave-function file"):
 *   /basis            group, attributes dimension, protons, neutrons, nmax,
 *                     parity, two_mj (int64), hbar_omega (float64),
 *                     description (string)
 *   /vectors/00000..  float64 [dimension] each; attributes energy, J, T
 *                     (float64, NaN until set), pario_written (0/1)
 *
 * Transfer (how the slices reach the file), a hint to create and open:
 *   PARIO_WF_TRANSFER_DEFAULT      the environment's PARIO_WAVEFUNCTION_TRANSFER
 *                                  (independent, collective or aggregators),
 *                                  else independent (measured fastest here:
 *                                  bench/run dataset);
 *   PARIO_WF_TRANSFER_INDEPENDENT  each rank one independent H5Dwrite/H5Dread;
 *   PARIO_WF_TRANSFER_COLLECTIVE   one MPI-IO collective H5Dwrite/H5Dread;
 *   PARIO_WF_TRANSFER_AGGREGATORS  pario's collective I/O engine
 *                                  (pario/collective_io.h): slices go to
 *                                  aggregator ranks that write large
 *                                  hyperslabs, tuned by the engine's hints
 *                                  (pario_wavefunction_options.hints, else
 *                                  PARIO_AGGREGATORS, PARIO_AGGREGATOR_BUFFER,
 *                                  ...).
 * The transfer and the hints never change what is in the file; they may
 * differ between runs but must be the same on every rank of one file.
 *
 * Collectives (PARIO_COLLECTIVE) are called by every rank of the file's
 * group in the same order; arguments that must match (path, mode, basis,
 * counts, vector index, observables) are checked to match, and every rank
 * gets the same status: a bad argument or failed I/O on one rank gives the
 * others PARIO_ERR_REMOTE naming it.
 *
 * Errors: PARIO_ERR_INVALID_ARGUMENT (a bad or mismatched argument, a
 * basis that breaks a rule, slices that do not tile a vector),
 * PARIO_ERR_OUT_OF_RANGE (a slice outside the vector), PARIO_ERR_STATE
 * (writing a file opened read-only), PARIO_ERR_NOT_FOUND (no such file; a
 * vector never written whole), PARIO_ERR_EXISTS (exclusive create of an
 * existing file; truncating create over a file that is not a wave-function
 * file), PARIO_ERR_CORRUPT (not a pario wave-function file, or damaged:
 * everything read from the file is checked), PARIO_ERR_UNSUPPORTED (a
 * newer format version; a build without parallel HDF5), PARIO_ERR_IO.
 *
 * Builds without parallel HDF5: every call returns PARIO_ERR_UNSUPPORTED
 * on every rank, without communicating.
 *
 * Thread safety: one thread per rank calls these (Debian's parallel HDF5
 * is not thread-safe).
 */
#ifndef PARIO_WAVEFUNCTION_H
#define PARIO_WAVEFUNCTION_H

#include <stddef.h>
#include <stdint.h>

#include "pario/export.h"
#include "pario/array.h"
#include "pario/collective_io.h"
#include "pario/file.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pario_wavefunction_s *pario_wavefunction_t;
#define PARIO_WAVEFUNCTION_NULL ((pario_wavefunction_t)0)

#define PARIO_WF_TRANSFER_DEFAULT 0
#define PARIO_WF_TRANSFER_INDEPENDENT 1
#define PARIO_WF_TRANSFER_COLLECTIVE 2
#define PARIO_WF_TRANSFER_AGGREGATORS 3

/* The most vectors one file holds. */
#define PARIO_WF_MAX_VECTORS 99999

/* The many-body basis (MFDn's M-scheme basis). Rules: dimension >= 1;
 * protons, neutrons >= 0 with at least one nucleon; nmax >= 0; parity +1
 * or -1; two_mj odd exactly when protons + neutrons is odd; hbar_omega
 * finite and > 0. */
typedef struct pario_wavefunction_basis {
  int64_t dimension; /* basis states: every vector's length */
  int64_t protons;   /* Z */
  int64_t neutrons;  /* N */
  int64_t nmax;      /* N_max: the oscillator truncation */
  int64_t parity;    /* +1 or -1 */
  int64_t two_mj;    /* 2 M_J, the total angular momentum projection */
  double hbar_omega; /* oscillator energy, MeV */
} pario_wavefunction_basis_t;

/* Creates a wave-function file of nvectors vectors (1..PARIO_WF_MAX_VECTORS)
 * over `basis`, collectively over group. mode:
 *   PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE: PARIO_ERR_EXISTS if path exists;
 *   PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE: replaces a wave-function file
 *       at path; any other file there is PARIO_ERR_EXISTS and left alone.
 * PARIO_MODE_RDWR may be added. Every vector's space is allocated and its
 * observables reserved (NaN). transfer: a PARIO_WF_TRANSFER_*. */
PARIO_COLLECTIVE PARIO_API int pario_wavefunction_create(pario_group_t group, const char *path, int mode,
                                                         const pario_wavefunction_basis_t *basis, int nvectors,
                                                         int transfer, pario_wavefunction_t *wf_out);
/* Opens a wave-function file: mode PARIO_MODE_READ or PARIO_MODE_RDWR
 * (to write observables or vectors). Everything is read and checked. */
PARIO_COLLECTIVE PARIO_API int pario_wavefunction_open(pario_group_t group, const char *path, int mode, int transfer,
                                                       pario_wavefunction_t *wf_out);

/* How a file's slices reach it (the _with calls). Zero-initialised: the
 * environment's transfer and hints, what create and open do with
 * PARIO_WF_TRANSFER_DEFAULT.
 *
 * hints: the collective I/O engine's hints (pario/collective_io.h) for
 * PARIO_WF_TRANSFER_AGGREGATORS (checked and agreed with any transfer,
 * used by that one). NULL (or zero fields): the environment's, then the
 * defaults. Borrowed for the call only (the file keeps a copy).
 * byte_order is ignored: HDF5's types carry the byte order.
 * An options struct rather than one more argument: the transfer and the
 * hints travel together, and a later setting needs no new entry point. */
typedef struct pario_wavefunction_options {
  int transfer;                    /* a PARIO_WF_TRANSFER_* */
  const pario_decomp_hints *hints; /* the engine's hints (NULL: the environment's) */
} pario_wavefunction_options_t;

/* pario_wavefunction_create and _open with options (NULL or zeroed: the
 * environment's transfer and hints). Options must be the same on every
 * rank (else PARIO_ERR_INVALID_ARGUMENT on every rank naming the field, a
 * hint included); a hint pario_decomp_create_blocks refuses is
 * PARIO_ERR_INVALID_ARGUMENT with its message, on every rank. */
PARIO_COLLECTIVE PARIO_API int pario_wavefunction_create_with(pario_group_t group, const char *path, int mode,
                                                              const pario_wavefunction_basis_t *basis, int nvectors,
                                                              const pario_wavefunction_options_t *options,
                                                              pario_wavefunction_t *wf_out);
PARIO_COLLECTIVE PARIO_API int pario_wavefunction_open_with(pario_group_t group, const char *path, int mode,
                                                            const pario_wavefunction_options_t *options,
                                                            pario_wavefunction_t *wf_out);
/* Flushes and closes it; sets *wf to PARIO_WAVEFUNCTION_NULL. */
PARIO_COLLECTIVE PARIO_API int pario_wavefunction_close(pario_wavefunction_t *wf);

/* Local: the basis, the number of vectors and the transfer in use
 * (PARIO_WF_TRANSFER_INDEPENDENT, _COLLECTIVE or _AGGREGATORS); outputs
 * may be NULL. */
PARIO_API int pario_wavefunction_info(pario_wavefunction_t wf, pario_wavefunction_basis_t *basis_out,
                                      int *nvectors_out, int *transfer_out);

/* Writes this rank's slice [start, start + count) of vector `vector` from
 * buf (count doubles; count 0 on a rank with none). The ranks' slices must
 * tile the vector: every element written by exactly one rank
 * (PARIO_ERR_INVALID_ARGUMENT naming the rank whose slice overlaps or
 * leaves a gap, or the total short of the dimension). Once every slice is
 * in, the vector is marked written (in the file, pario_written, at close:
 * vectors of a writer that never closed the file are not read back).
 * Writing a vector again replaces it. */
PARIO_COLLECTIVE PARIO_API int pario_wavefunction_write(pario_wavefunction_t wf, int vector, int64_t start,
                                                        int64_t count, const double *buf);
/* Reads this rank's slice [start, start + count) of vector `vector` into
 * buf: any slice inside the vector, overlapping other ranks' or empty.
 * PARIO_ERR_NOT_FOUND for a vector never written whole. */
PARIO_COLLECTIVE PARIO_API int pario_wavefunction_read(pario_wavefunction_t wf, int vector, int64_t start,
                                                       int64_t count, double *buf);
/* Writes vector `vector`'s observables into its reserved attributes (the
 * same values on every rank; any double, NaN for "unknown"). */
PARIO_COLLECTIVE PARIO_API int pario_wavefunction_set_observables(pario_wavefunction_t wf, int vector,
                                                                  double energy, double j, double t);
/* Local: vector `vector`'s observables (NaN where not written) and whether
 * the vector was written whole (outputs may be NULL). */
PARIO_API int pario_wavefunction_observables(pario_wavefunction_t wf, int vector, double *energy_out,
                                             double *j_out, double *t_out, int *written_out);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_WAVEFUNCTION_H */
