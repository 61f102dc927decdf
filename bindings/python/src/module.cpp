// pario._pario: a thin nanobind layer over the public C API. Every function
// returns the C status code first (and its outputs after it); the Python
// package (pario/*.py) turns codes into exceptions and builds the Pythonic
// objects. Handles travel as integers. The GIL is released around
// every call that may block (I/O, waits, collectives).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "pario/pario.h"

namespace nb = nanobind;

namespace {

using Buffer = nb::ndarray<nb::device::cpu, nb::c_contig>;           // written into
using ConstBuffer = nb::ndarray<nb::ro, nb::device::cpu, nb::c_contig>;  // read from
using Dims = std::vector<int64_t>;

template <typename T>
uintptr_t id(T handle) { return reinterpret_cast<uintptr_t>(handle); }
template <typename T>
T as(uintptr_t h) { return reinterpret_cast<T>(h); }

// Calls f with the GIL released.
template <typename F>
int unlocked(F&& f) {
  nb::gil_scoped_release release;
  return f();
}

nb::dlpack::dtype dlpack_type(int type) {
  switch (type) {
    case PARIO_TYPE_FLOAT: return nb::dtype<float>();
    case PARIO_TYPE_INT32: return nb::dtype<int32_t>();
    case PARIO_TYPE_INT64: return nb::dtype<int64_t>();
    case PARIO_TYPE_COMPLEX_DOUBLE: return {static_cast<uint8_t>(nb::dlpack::dtype_code::Complex), 128, 1};
    case PARIO_TYPE_INT8: return nb::dtype<int8_t>();
    case PARIO_TYPE_UINT8: return nb::dtype<uint8_t>();
    case PARIO_TYPE_INT16: return nb::dtype<int16_t>();
    case PARIO_TYPE_UINT16: return nb::dtype<uint16_t>();
    case PARIO_TYPE_UINT32: return nb::dtype<uint32_t>();
    case PARIO_TYPE_UINT64: return nb::dtype<uint64_t>();
    case PARIO_TYPE_COMPLEX_FLOAT: return {static_cast<uint8_t>(nb::dlpack::dtype_code::Complex), 64, 1};
    default: return nb::dtype<double>();
  }
}

// Bytes per element of a PARIO_TYPE_*, 0 for none.
size_t element_size(int type) {
  if (type < PARIO_TYPE_DOUBLE || type > PARIO_TYPE_COMPLEX_FLOAT) return 0;
  const nb::dlpack::dtype d = dlpack_type(type);
  return d.bits / 8 * d.lanes;
}

// ---- constants ----

// The C header's constants as module attributes without the PARIO_ prefix
// (MODE_READ, TYPE_DOUBLE, ERR_NOT_FOUND, ...), so the package takes every
// value from C and never keeps a copy that could drift. The cast: status
// codes are an unnamed enum, which nanobind cannot convert.
#define PARIO_CONSTANT(name) m.attr(#name) = static_cast<int64_t>(PARIO_##name)

void bind_constants(nb::module_& m) {
  PARIO_CONSTANT(OK);
  PARIO_CONSTANT(ERR_INVALID_ARGUMENT);
  PARIO_CONSTANT(ERR_STATE);
  PARIO_CONSTANT(ERR_NOT_FOUND);
  PARIO_CONSTANT(ERR_EXISTS);
  PARIO_CONSTANT(ERR_OUT_OF_RANGE);
  PARIO_CONSTANT(ERR_NO_MEMORY);
  PARIO_CONSTANT(ERR_NO_SPACE);
  PARIO_CONSTANT(ERR_IO);
  PARIO_CONSTANT(ERR_MPI);
  PARIO_CONSTANT(ERR_UNSUPPORTED);
  PARIO_CONSTANT(ERR_CORRUPT);
  PARIO_CONSTANT(ERR_CANCELED);
  PARIO_CONSTANT(ERR_REMOTE);
  PARIO_CONSTANT(ERR_INTERNAL);
  PARIO_CONSTANT(ERR_PERMISSION);

  PARIO_CONSTANT(MODE_READ);
  PARIO_CONSTANT(MODE_WRITE);
  PARIO_CONSTANT(MODE_RDWR);
  PARIO_CONSTANT(MODE_CREATE);
  PARIO_CONSTANT(MODE_TRUNCATE);
  PARIO_CONSTANT(MODE_EXCLUSIVE);
  PARIO_CONSTANT(MODE_DIRECT);

  PARIO_CONSTANT(TYPE_DOUBLE);
  PARIO_CONSTANT(TYPE_FLOAT);
  PARIO_CONSTANT(TYPE_INT32);
  PARIO_CONSTANT(TYPE_INT64);
  PARIO_CONSTANT(TYPE_COMPLEX_DOUBLE);
  PARIO_CONSTANT(TYPE_INT8);
  PARIO_CONSTANT(TYPE_UINT8);
  PARIO_CONSTANT(TYPE_INT16);
  PARIO_CONSTANT(TYPE_UINT16);
  PARIO_CONSTANT(TYPE_UINT32);
  PARIO_CONSTANT(TYPE_UINT64);
  PARIO_CONSTANT(TYPE_COMPLEX_FLOAT);

  PARIO_CONSTANT(ORDER_C);
  PARIO_CONSTANT(ORDER_FORTRAN);
  PARIO_CONSTANT(BYTE_ORDER_NATIVE);
  PARIO_CONSTANT(BYTE_ORDER_LITTLE);
  PARIO_CONSTANT(BYTE_ORDER_BIG);
  PARIO_CONSTANT(CONVERT_DEFAULT);
  PARIO_CONSTANT(CONVERT_AUTO);
  PARIO_CONSTANT(CONVERT_SENDER);
  PARIO_CONSTANT(CONVERT_AGGREGATOR);
  PARIO_CONSTANT(BUFFERING_DEFAULT);
  PARIO_CONSTANT(BUFFERING_AUTO);
  PARIO_CONSTANT(BUFFERING_ALWAYS);
  PARIO_CONSTANT(BUFFERING_NEVER);

  PARIO_CONSTANT(ARRAY_MAX_DIMS);
  PARIO_CONSTANT(COUNTER_GLOBAL);
  PARIO_CONSTANT(SIZE_UNKNOWN);

  PARIO_CONSTANT(EXODUS_FORMAT_AUTO);
  PARIO_CONSTANT(EXODUS_FORMAT_CDF2);
  PARIO_CONSTANT(EXODUS_FORMAT_CDF5);
  PARIO_CONSTANT(EXODUS_GLOBAL);
  PARIO_CONSTANT(EXODUS_NODAL);
  PARIO_CONSTANT(EXODUS_ELEMENT);
  PARIO_CONSTANT(EXODUS_NODE_SET);
  PARIO_CONSTANT(EXODUS_SIDE_SET);
}

#undef PARIO_CONSTANT

// ---- files and requests ----

void bind_files(nb::module_& m) {
  m.def("file_open", [](const std::string& path, int mode) {
    pario_file_t f = PARIO_FILE_NULL;
    int rc = unlocked([&] { return pario_file_open(path.c_str(), mode, &f); });
    return std::make_pair(rc, id(f));
  });
  m.def("file_close", [](uintptr_t h) {
    auto f = as<pario_file_t>(h);
    return unlocked([&] { return pario_file_close(&f); });
  });
  m.def("file_delete", [](const std::string& path) {
    return unlocked([&] { return pario_file_delete(path.c_str()); });
  });
  m.def("file_read", [](uintptr_t h, int64_t offset, Buffer buf) {
    return unlocked([&] { return pario_file_read(as<pario_file_t>(h), offset, buf.data(), buf.nbytes()); });
  });
  m.def("file_write", [](uintptr_t h, int64_t offset, ConstBuffer buf) {
    return unlocked([&] { return pario_file_write(as<pario_file_t>(h), offset, buf.data(), buf.nbytes()); });
  });
  m.def("file_iread", [](uintptr_t h, int64_t offset, Buffer buf) {
    pario_request_t r = nullptr;
    int rc = pario_file_iread(as<pario_file_t>(h), offset, buf.data(), buf.nbytes(), &r);
    return std::make_pair(rc, id(r));
  });
  m.def("file_iwrite", [](uintptr_t h, int64_t offset, ConstBuffer buf) {
    pario_request_t r = nullptr;
    int rc = pario_file_iwrite(as<pario_file_t>(h), offset, buf.data(), buf.nbytes(), &r);
    return std::make_pair(rc, id(r));
  });
  m.def("file_length", [](uintptr_t h) {
    int64_t n = 0;
    int rc = pario_file_length(as<pario_file_t>(h), &n);
    return std::make_pair(rc, n);
  });
  m.def("file_truncate", [](uintptr_t h, int64_t n) { return pario_file_truncate(as<pario_file_t>(h), n); });
  m.def("file_sync", [](uintptr_t h) { return unlocked([&] { return pario_file_sync(as<pario_file_t>(h)); }); });
  m.def("scratch_path", [](const std::string& name) {
    std::vector<char> buf(8192);
    int rc = pario_scratch_path(name.c_str(), buf.data(), buf.size());
    return std::make_pair(rc, std::string(buf.data()));
  });

  m.def("request_wait", [](uintptr_t h) {
    auto r = as<pario_request_t>(h);
    return unlocked([&] { return pario_request_wait(&r); });
  });
  m.def("request_test", [](uintptr_t h) {
    auto r = as<pario_request_t>(h);
    int done = 0;
    int rc = pario_request_test(&r, &done);
    return std::make_pair(rc, done != 0);
  });

  m.def("shared_file_create", [](uintptr_t group, const std::string& path, int64_t hard, int64_t soft,
                                 int64_t request) {
    pario_shared_file_t f = nullptr;
    int rc = unlocked([&] {
      return pario_shared_file_create(as<pario_group_t>(group), path.c_str(), hard, soft, request, &f);
    });
    return std::make_pair(rc, id(f));
  });
  m.def("shared_file_open", [](uintptr_t group, const std::string& path, int mode) {
    pario_shared_file_t f = nullptr;
    int rc = unlocked([&] { return pario_shared_file_open(as<pario_group_t>(group), path.c_str(), mode, &f); });
    return std::make_pair(rc, id(f));
  });
  m.def("shared_file_destroy", [](uintptr_t h) {
    auto f = as<pario_shared_file_t>(h);
    return unlocked([&] { return pario_shared_file_destroy(&f); });
  });
  m.def("shared_file_close", [](uintptr_t h) {
    auto f = as<pario_shared_file_t>(h);
    return unlocked([&] { return pario_shared_file_close(&f); });
  });
  m.def("shared_file_read", [](uintptr_t h, int64_t offset, Buffer buf) {
    return unlocked([&] {
      return pario_shared_file_read(as<pario_shared_file_t>(h), offset, buf.data(), buf.nbytes());
    });
  });
  m.def("shared_file_write", [](uintptr_t h, int64_t offset, ConstBuffer buf) {
    return unlocked([&] {
      return pario_shared_file_write(as<pario_shared_file_t>(h), offset, buf.data(), buf.nbytes());
    });
  });
  m.def("shared_file_iread", [](uintptr_t h, int64_t offset, Buffer buf) {
    pario_request_t r = nullptr;
    int rc = pario_shared_file_iread(as<pario_shared_file_t>(h), offset, buf.data(), buf.nbytes(), &r);
    return std::make_pair(rc, id(r));
  });
  m.def("shared_file_iwrite", [](uintptr_t h, int64_t offset, ConstBuffer buf) {
    pario_request_t r = nullptr;
    int rc = pario_shared_file_iwrite(as<pario_shared_file_t>(h), offset, buf.data(), buf.nbytes(), &r);
    return std::make_pair(rc, id(r));
  });
  m.def("shared_file_length", [](uintptr_t h) {
    int64_t n = 0;
    int rc = pario_shared_file_length(as<pario_shared_file_t>(h), &n);
    return std::make_pair(rc, n);
  });
  m.def("shared_file_sync", [](uintptr_t h) {
    return unlocked([&] { return pario_shared_file_sync(as<pario_shared_file_t>(h)); });
  });
}

// ---- groups, arrays, counters ----

void bind_arrays(nb::module_& m) {
  m.def("group_world", [] {
    pario_group_t g = nullptr;
    int rc = pario_group_world(&g);
    return std::make_pair(rc, id(g));
  });
  m.def("group_from_fortran_comm", [](int64_t fcomm) {
    pario_group_t g = nullptr;
    int rc = unlocked([&] { return pario_group_from_fortran_comm(fcomm, &g); });
    return std::make_pair(rc, id(g));
  });
  m.def("group_free", [](uintptr_t h) {
    auto g = as<pario_group_t>(h);
    return pario_group_free(&g);
  });
  m.def("group_rank_size", [](uintptr_t h) {
    int rank = 0, size = 0;
    int rc = pario_group_rank(as<pario_group_t>(h), &rank);
    if (rc == PARIO_OK) rc = pario_group_size(as<pario_group_t>(h), &size);
    return std::make_tuple(rc, rank, size);
  });
  m.def("group_barrier", [](uintptr_t h) {
    return unlocked([&] { return pario_group_barrier(as<pario_group_t>(h)); });
  });

  m.def("array_create", [](uintptr_t group, const std::string& name, int type, const Dims& dims) {
    pario_array_t a = nullptr;
    int rc = unlocked([&] {
      return pario_array_create(as<pario_group_t>(group), name.c_str(), type, static_cast<int>(dims.size()),
                                dims.data(), &a);
    });
    return std::make_pair(rc, id(a));
  });
  m.def("array_destroy", [](uintptr_t h) {
    auto a = as<pario_array_t>(h);
    return unlocked([&] { return pario_array_destroy(&a); });
  });
  m.def("array_info", [](uintptr_t h) {
    int type = 0, ndim = 0;
    Dims dims(PARIO_ARRAY_MAX_DIMS);
    int rc = pario_array_info(as<pario_array_t>(h), &type, &ndim, dims.data());
    dims.resize(rc == PARIO_OK ? ndim : 0);
    return std::make_tuple(rc, type, dims);
  });
  m.def("array_distribution", [](uintptr_t h, int rank, int ndim) {
    Dims start(ndim), count(ndim);
    int rc = pario_array_distribution(as<pario_array_t>(h), rank, start.data(), count.data());
    return std::make_tuple(rc, start, count);
  });
  m.def("array_get", [](uintptr_t h, const Dims& start, const Dims& count, Buffer buf) {
    return unlocked([&] {
      return pario_array_get(as<pario_array_t>(h), start.data(), count.data(), buf.data(), nullptr);
    });
  });
  m.def("array_put", [](uintptr_t h, const Dims& start, const Dims& count, ConstBuffer buf) {
    return unlocked([&] {
      return pario_array_put(as<pario_array_t>(h), start.data(), count.data(), buf.data(), nullptr);
    });
  });
  // alpha: a one-element buffer of the array's type, or None for 1.
  m.def("array_acc", [](uintptr_t h, const Dims& start, const Dims& count, ConstBuffer buf,
                        std::optional<ConstBuffer> alpha) {
    const void* a = alpha ? alpha->data() : nullptr;
    return unlocked([&] {
      return pario_array_acc(as<pario_array_t>(h), start.data(), count.data(), buf.data(), nullptr, a);
    });
  }, nb::arg("h"), nb::arg("start"), nb::arg("count"), nb::arg("buf"), nb::arg("alpha").none());
  m.def("array_fill", [](uintptr_t h, ConstBuffer value) {
    return unlocked([&] { return pario_array_fill(as<pario_array_t>(h), value.data()); });
  });
  m.def("array_scale", [](uintptr_t h, ConstBuffer alpha) {
    return unlocked([&] { return pario_array_scale(as<pario_array_t>(h), alpha.data()); });
  });
  m.def("array_sync", [](uintptr_t h) {
    return unlocked([&] { return pario_array_sync(as<pario_array_t>(h)); });
  });
  // A NumPy view of rank's patch (on this node) that keeps `owner` alive.
  m.def("array_access", [](uintptr_t h, int rank, nb::handle owner) {
    int type = 0, ndim = 0;
    Dims dims(PARIO_ARRAY_MAX_DIMS), start(PARIO_ARRAY_MAX_DIMS), count(PARIO_ARRAY_MAX_DIMS);
    void* ptr = nullptr;
    int rc = pario_array_info(as<pario_array_t>(h), &type, &ndim, dims.data());
    if (rc == PARIO_OK) rc = pario_array_access(as<pario_array_t>(h), rank, &ptr, start.data(), count.data());
    std::vector<size_t> shape(count.begin(), count.begin() + (rc == PARIO_OK ? ndim : 0));
    start.resize(shape.size());
    nb::ndarray<nb::numpy> view(ptr, shape.size(), shape.data(), owner, nullptr, dlpack_type(type));
    return std::make_tuple(rc, start, nb::cast(view));
  });

  m.def("counter_create", [](uintptr_t group) {
    pario_counter_t c = nullptr;
    int rc = unlocked([&] { return pario_counter_create(as<pario_group_t>(group), &c); });
    return std::make_pair(rc, id(c));
  });
  m.def("counter_destroy", [](uintptr_t h) {
    auto c = as<pario_counter_t>(h);
    return unlocked([&] { return pario_counter_destroy(&c); });
  });
  m.def("counter_next", [](uintptr_t h) {
    int64_t v = 0;
    int rc = unlocked([&] { return pario_counter_next(as<pario_counter_t>(h), &v); });
    return std::make_pair(rc, v);
  });
  m.def("counter_fetch_add", [](uintptr_t h, int owner, int64_t increment) {
    int64_t v = 0;
    int rc = unlocked([&] { return pario_counter_fetch_add(as<pario_counter_t>(h), owner, increment, &v); });
    return std::make_pair(rc, v);
  });
  m.def("counter_reset", [](uintptr_t h) {
    return unlocked([&] { return pario_counter_reset(as<pario_counter_t>(h)); });
  });
  m.def("element_size", &element_size);

  m.def("disk_array_create", [](uintptr_t group, const std::string& path, int type, const Dims& dims,
                                const Dims& chunks) {
    pario_disk_array_t d = nullptr;
    int rc = unlocked([&] {
      return pario_disk_array_create(as<pario_group_t>(group), path.c_str(), type, static_cast<int>(dims.size()),
                                     dims.data(), chunks.empty() ? nullptr : chunks.data(), &d);
    });
    return std::make_pair(rc, id(d));
  });
  m.def("disk_array_create_mode", [](uintptr_t group, const std::string& path, int type, const Dims& dims,
                                     const Dims& chunks, int mode) {
    pario_disk_array_t d = nullptr;
    int rc = unlocked([&] {
      return pario_disk_array_create_mode(as<pario_group_t>(group), path.c_str(), type,
                                          static_cast<int>(dims.size()), dims.data(),
                                          chunks.empty() ? nullptr : chunks.data(), mode, &d);
    });
    return std::make_pair(rc, id(d));
  });
  // Independent section I/O; start and count have one entry per dimension
  // (the C call reads that many).
  m.def("disk_array_read_local", [](uintptr_t h, const Dims& start, const Dims& count, Buffer buf) {
    return unlocked([&] {
      return pario_disk_array_read_local(as<pario_disk_array_t>(h), start.data(), count.data(), buf.data());
    });
  });
  m.def("disk_array_write_local", [](uintptr_t h, const Dims& start, const Dims& count, ConstBuffer buf) {
    return unlocked([&] {
      return pario_disk_array_write_local(as<pario_disk_array_t>(h), start.data(), count.data(), buf.data());
    });
  });
  // buf None: this rank failed before the call; the null buffer fails it
  // here too, so that every rank fails together.
  m.def("disk_array_write_pieces", [](uintptr_t h, const Dims& start, const Dims& count,
                                      std::optional<ConstBuffer> buf) {
    const void* p = buf ? buf->data() : nullptr;
    return unlocked([&] {
      return pario_disk_array_write_pieces(as<pario_disk_array_t>(h), buf ? start.data() : nullptr,
                                           buf ? count.data() : nullptr, p);
    });
  }, nb::arg("h"), nb::arg("start"), nb::arg("count"), nb::arg("buf").none());
  m.def("disk_array_sync", [](uintptr_t h) {
    return unlocked([&] { return pario_disk_array_sync(as<pario_disk_array_t>(h)); });
  });
  m.def("disk_array_open", [](uintptr_t group, const std::string& path, int mode) {
    pario_disk_array_t d = nullptr;
    int rc = unlocked([&] { return pario_disk_array_open(as<pario_group_t>(group), path.c_str(), mode, &d); });
    return std::make_pair(rc, id(d));
  });
  m.def("disk_array_close", [](uintptr_t h) {
    auto d = as<pario_disk_array_t>(h);
    return pario_disk_array_close(&d);
  });
  m.def("disk_array_delete", [](uintptr_t group, const std::string& path) {
    return unlocked([&] { return pario_disk_array_delete(as<pario_group_t>(group), path.c_str()); });
  });
  m.def("disk_array_set_attribute", [](uintptr_t h, const std::string& name, const std::string& value) {
    return unlocked([&] {
      return pario_disk_array_set_attribute(as<pario_disk_array_t>(h), name.c_str(), value.c_str());
    });
  });
  m.def("disk_array_get_attribute", [](uintptr_t h, const std::string& name) {
    // Grows the buffer while the C call says it is too short.
    std::string buf(256, '\0');
    int rc;
    while ((rc = pario_disk_array_get_attribute(as<pario_disk_array_t>(h), name.c_str(), buf.data(),
                                                buf.size())) == PARIO_ERR_INVALID_ARGUMENT &&
           buf.size() < (size_t{1} << 30)) {
      buf.resize(buf.size() * 4);
    }
    return std::make_pair(rc, rc == PARIO_OK ? std::string(buf.c_str()) : std::string());
  });
  m.def("disk_array_info", [](uintptr_t h) {
    int type = 0, ndim = 0;
    Dims dims(PARIO_ARRAY_MAX_DIMS), chunks(PARIO_ARRAY_MAX_DIMS);
    int rc = pario_disk_array_info(as<pario_disk_array_t>(h), &type, &ndim, dims.data(), chunks.data());
    dims.resize(rc == PARIO_OK ? ndim : 0);
    chunks.resize(dims.size());
    return std::make_tuple(rc, type, dims, chunks);
  });
  m.def("disk_array_write", [](uintptr_t h, uintptr_t ga, const Dims& ga_start, const Dims& count,
                               const Dims& disk_start) {
    return unlocked([&] {
      return pario_disk_array_write(as<pario_disk_array_t>(h), as<pario_array_t>(ga), ga_start.data(),
                                    count.data(), disk_start.data());
    });
  });
  m.def("disk_array_read", [](uintptr_t h, uintptr_t ga, const Dims& ga_start, const Dims& count,
                              const Dims& disk_start) {
    return unlocked([&] {
      return pario_disk_array_read(as<pario_disk_array_t>(h), as<pario_array_t>(ga), ga_start.data(),
                                   count.data(), disk_start.data());
    });
  });
  // Nonblocking, with an axis permutation (empty: none): (status, request).
  m.def("disk_array_start", [](bool write, uintptr_t h, uintptr_t ga, const Dims& ga_start, const Dims& count,
                               const Dims& disk_start, const std::vector<int>& perm) {
    pario_request_t r = PARIO_REQUEST_NULL;
    int rc = unlocked([&] {
      auto start = write ? pario_disk_array_iwrite : pario_disk_array_iread;
      return start(as<pario_disk_array_t>(h), as<pario_array_t>(ga), ga_start.data(), count.data(),
                   disk_start.data(), perm.empty() ? nullptr : perm.data(), &r);
    });
    return std::make_pair(rc, id(r));
  });
}

// ---- collective I/O (decompositions) ----

using Int64s = nb::ndarray<const int64_t, nb::ndim<1>, nb::device::cpu, nb::c_contig>;
using Int64sOut = nb::ndarray<int64_t, nb::ndim<1>, nb::device::cpu, nb::c_contig>;

// pario_decomp_hints from the package's arguments: (aggregators,
// aggregator_ranks (empty: none), buffer_size, align, byte_order, convert,
// buffering).
struct Hints {
  pario_decomp_hints c;
  std::vector<int> ranks;
  Hints(int aggregators, std::vector<int> aggregator_ranks, int64_t buffer_size, int64_t align, int byte_order,
        int convert, int buffering)
      : ranks(std::move(aggregator_ranks)) {
    pario_decomp_hints_init(&c);
    c.aggregators = aggregators;
    c.aggregator_ranks = ranks.empty() ? nullptr : ranks.data();
    c.buffer_size = buffer_size;
    c.align = align;
    c.byte_order = byte_order;
    c.convert = convert;
    c.buffering = buffering;
  }
};

// A decomposition write or read into a shared file, blocking or not:
// (status, request handle; 0 when blocking or failed).
std::pair<int, uintptr_t> decomp_transfer(bool write, uintptr_t h, uintptr_t file, int64_t offset, int mem_type,
                                          void* buf, bool nonblocking) {
  pario_request_t r = PARIO_REQUEST_NULL;
  int rc = unlocked([&] {
    auto d = as<pario_decomp_t>(h);
    auto f = as<pario_shared_file_t>(file);
    if (nonblocking) {
      return write ? pario_decomp_iwrite(d, f, offset, mem_type, buf, &r)
                   : pario_decomp_iread(d, f, offset, mem_type, buf, &r);
    }
    return write ? pario_decomp_write(d, f, offset, mem_type, buf) : pario_decomp_read(d, f, offset, mem_type, buf);
  });
  return {rc, id(r)};
}

void bind_collective(nb::module_& m) {
  nb::class_<Hints>(m, "DecompHints")
      .def(nb::init<int, std::vector<int>, int64_t, int64_t, int, int, int>(), nb::arg("aggregators"),
           nb::arg("aggregator_ranks"), nb::arg("buffer_size"), nb::arg("align"), nb::arg("byte_order"),
           nb::arg("convert"), nb::arg("buffering"));
  // starts and counts: nblocks * len(dims) entries, block after block.
  m.def("decomp_create_blocks", [](uintptr_t group, int file_type, const Dims& dims, int order, int nblocks,
                                   const Dims& starts, const Dims& counts, const Hints& hints) {
    pario_decomp_t d = PARIO_DECOMP_NULL;
    int rc = unlocked([&] {
      return pario_decomp_create_blocks(as<pario_group_t>(group), file_type, static_cast<int>(dims.size()),
                                        dims.data(), order, nblocks, starts.data(), counts.data(), &hints.c, &d);
    });
    return std::make_pair(rc, id(d));
  });
  m.def("decomp_create_indices", [](uintptr_t group, int file_type, int64_t global_size, Int64s indices,
                                    const Hints& hints) {
    pario_decomp_t d = PARIO_DECOMP_NULL;
    int rc = unlocked([&] {
      return pario_decomp_create_indices(as<pario_group_t>(group), file_type, global_size,
                                         static_cast<int64_t>(indices.shape(0)), indices.data(), &hints.c, &d);
    });
    return std::make_pair(rc, id(d));
  });
  // positions: as many entries as keys, filled on success.
  m.def("decomp_create_keys", [](uintptr_t group, int file_type, Int64s keys, Int64sOut positions,
                                 const Hints& hints) {
    pario_decomp_t d = PARIO_DECOMP_NULL;
    int64_t global_size = 0;
    int rc = unlocked([&] {
      return pario_decomp_create_keys(as<pario_group_t>(group), file_type, static_cast<int64_t>(keys.shape(0)),
                                      keys.data(), &hints.c,
                                      positions.shape(0) == keys.shape(0) ? positions.data() : nullptr,
                                      &global_size, &d);
    });
    return std::make_tuple(rc, id(d), global_size);
  });
  m.def("decomp_free", [](uintptr_t h) {
    auto d = as<pario_decomp_t>(h);
    return unlocked([&] { return pario_decomp_free(&d); });
  });
  m.def("decomp_info", [](uintptr_t h) {
    int64_t global_size = 0, local_count = 0;
    int aggregators = 0, is_aggregator = 0;
    int rc = pario_decomp_info(as<pario_decomp_t>(h), &global_size, &local_count, &aggregators, &is_aggregator);
    return std::make_tuple(rc, global_size, local_count, aggregators, is_aggregator != 0);
  });
  m.def("decomp_write", [](uintptr_t h, uintptr_t file, int64_t offset, int mem_type, ConstBuffer buf,
                           bool nonblocking) {
    // pario only reads buf (pario_decomp_write takes const void*).
    return decomp_transfer(true, h, file, offset, mem_type, const_cast<void*>(buf.data()), nonblocking);
  });
  m.def("decomp_read", [](uintptr_t h, uintptr_t file, int64_t offset, int mem_type, Buffer buf,
                          bool nonblocking) {
    return decomp_transfer(false, h, file, offset, mem_type, buf.data(), nonblocking);
  });
}

// ---- Exodus II files ----

// C string arrays of a Python list of str (kept alive by `strings`).
std::vector<const char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<const char*> out;
  out.reserve(strings.size());
  for (const std::string& s : strings) out.push_back(s.c_str());
  return out;
}

const void* data_or_null(const std::optional<ConstBuffer>& b) { return b ? b->data() : nullptr; }
void* data_or_null(std::optional<Buffer>& b) { return b ? b->data() : nullptr; }

// A C string buffer's text.
std::string text_of(const std::vector<char>& buf) { return std::string(buf.data()); }

void bind_exodus(nb::module_& m) {
  using Ints = nb::ndarray<const int, nb::ndim<1>, nb::device::cpu, nb::c_contig>;
  // hints: borrowed by the options, alive until the C call returns.
  auto opts = [](int format, int float_size, bool no_step_sync, int steps_per_file, bool int64, bool nemesis,
                 const Hints& hints) {
    pario_exodus_options o;
    pario_exodus_options_init(&o);
    o.hints = &hints.c;
    o.format = format;
    o.float_size = float_size;
    o.no_step_sync = no_step_sync ? 1 : 0;
    o.steps_per_file = steps_per_file;
    o.int64 = int64 ? 1 : 0;
    o.nemesis = nemesis ? 1 : 0;
    return o;
  };
  m.def("exodus_create", [opts](uintptr_t group, const std::string& path, int format, int float_size,
                                bool no_step_sync, int steps_per_file, bool int64, bool nemesis,
                                const Hints& hints) {
    pario_exodus_t x = PARIO_EXODUS_NULL;
    const pario_exodus_options o = opts(format, float_size, no_step_sync, steps_per_file, int64, nemesis, hints);
    int rc = unlocked([&] { return pario_exodus_create(as<pario_group_t>(group), path.c_str(), &o, &x); });
    return std::make_pair(rc, id(x));
  });
  m.def("exodus_open", [opts](uintptr_t group, const std::string& path, int steps_per_file, const Hints& hints) {
    pario_exodus_t x = PARIO_EXODUS_NULL;
    const pario_exodus_options o = opts(0, 0, false, steps_per_file, false, false, hints);
    int rc = unlocked([&] { return pario_exodus_open(as<pario_group_t>(group), path.c_str(), &o, &x); });
    return std::make_pair(rc, id(x));
  });
  m.def("exodus_open_append", [opts](uintptr_t group, const std::string& path, bool no_step_sync,
                                     int steps_per_file, const Hints& hints) {
    pario_exodus_t x = PARIO_EXODUS_NULL;
    const pario_exodus_options o = opts(0, 0, no_step_sync, steps_per_file, false, false, hints);
    int rc = unlocked([&] { return pario_exodus_open_append(as<pario_group_t>(group), path.c_str(), &o, &x); });
    return std::make_pair(rc, id(x));
  });
  m.def("exodus_attach_nodes", [](uintptr_t h, int64_t n, Int64s ids) {
    return unlocked([&] { return pario_exodus_attach_nodes(as<pario_exodus_t>(h), n, ids.data()); });
  });
  m.def("exodus_attach_block", [](uintptr_t h, int64_t block_id, int64_t n, Int64s ids) {
    return unlocked([&] { return pario_exodus_attach_block(as<pario_exodus_t>(h), block_id, n, ids.data()); });
  });
  m.def("exodus_close", [](uintptr_t h) {
    auto x = as<pario_exodus_t>(h);
    return unlocked([&] { return pario_exodus_close(&x); });
  });
  m.def("exodus_init", [](uintptr_t h, const std::string& title, int num_dim, int64_t num_nodes, int64_t num_elem,
                          int num_blocks, int num_node_sets, int num_side_sets) {
    return unlocked([&] {
      return pario_exodus_init(as<pario_exodus_t>(h), title.c_str(), num_dim, num_nodes, num_elem, num_blocks,
                               num_node_sets, num_side_sets);
    });
  });
  m.def("exodus_define_block", [](uintptr_t h, int64_t block_id, const std::string& name, const std::string& type,
                                  int64_t count, int nodes_per_element, int attributes) {
    return unlocked([&] {
      return pario_exodus_define_block(as<pario_exodus_t>(h), block_id, name.c_str(), type.c_str(), count,
                                       nodes_per_element, attributes);
    });
  });
  m.def("exodus_define_node_set", [](uintptr_t h, int64_t set_id, const std::string& name, int64_t count,
                                     int has_df) {
    return unlocked([&] {
      return pario_exodus_define_node_set(as<pario_exodus_t>(h), set_id, name.c_str(), count, has_df);
    });
  });
  m.def("exodus_define_side_set", [](uintptr_t h, int64_t set_id, const std::string& name, int64_t count,
                                     int df_per_side) {
    return unlocked([&] {
      return pario_exodus_define_side_set(as<pario_exodus_t>(h), set_id, name.c_str(), count, df_per_side);
    });
  });
  m.def("exodus_define_side_set_df", [](uintptr_t h, int64_t set_id, const std::string& name, int64_t count,
                                        int64_t num_df) {
    return unlocked([&] {
      return pario_exodus_define_side_set_df(as<pario_exodus_t>(h), set_id, name.c_str(), count, num_df);
    });
  });
  // The string-list definitions: coord names, QA (4 per record), info,
  // variables of a kind.
  m.def("exodus_put_coord_names", [](uintptr_t h, const std::vector<std::string>& names) {
    auto c = c_strings(names);
    return unlocked([&] { return pario_exodus_put_coord_names(as<pario_exodus_t>(h), c.data()); });
  });
  m.def("exodus_put_qa", [](uintptr_t h, const std::vector<std::string>& records) {
    auto c = c_strings(records);
    return unlocked([&] {
      return pario_exodus_put_qa(as<pario_exodus_t>(h), static_cast<int>(records.size() / 4), c.data());
    });
  });
  m.def("exodus_put_info", [](uintptr_t h, const std::vector<std::string>& lines) {
    auto c = c_strings(lines);
    return unlocked([&] {
      return pario_exodus_put_info(as<pario_exodus_t>(h), static_cast<int>(lines.size()), c.data());
    });
  });
  m.def("exodus_define_variables", [](uintptr_t h, int kind, const std::vector<std::string>& names) {
    auto c = c_strings(names);
    return unlocked([&] {
      return pario_exodus_define_variables(as<pario_exodus_t>(h), kind, static_cast<int>(names.size()), c.data());
    });
  });
  m.def("exodus_put_truth_table", [](uintptr_t h, int num_blocks, int num_vars, Ints table) {
    return unlocked([&] {
      return pario_exodus_put_truth_table(as<pario_exodus_t>(h), num_blocks, num_vars, table.data());
    });
  });
  m.def("exodus_end_define", [](uintptr_t h) {
    return unlocked([&] { return pario_exodus_end_define(as<pario_exodus_t>(h)); });
  });
  // n: the package passes -1 for a rank whose arrays it refused, so that C
  // fails every rank together.
  m.def("exodus_put_nodes", [](uintptr_t h, int64_t n, Int64s ids, int mem_type, std::optional<ConstBuffer> x,
                               std::optional<ConstBuffer> y, std::optional<ConstBuffer> z) {
    return unlocked([&] {
      return pario_exodus_put_nodes(as<pario_exodus_t>(h), n, ids.data(), mem_type, data_or_null(x),
                                    data_or_null(y), data_or_null(z));
    });
  }, nb::arg("h"), nb::arg("n"), nb::arg("ids"), nb::arg("mem_type"), nb::arg("x").none(), nb::arg("y").none(),
     nb::arg("z").none());
  m.def("exodus_put_block", [](uintptr_t h, int64_t block_id, int64_t n, Int64s ids, Int64s connectivity) {
    return unlocked([&] {
      return pario_exodus_put_block(as<pario_exodus_t>(h), block_id, n, ids.data(), connectivity.data());
    });
  });
  m.def("exodus_put_attributes", [](uintptr_t h, int64_t block_id, int mem_type, ConstBuffer values) {
    return unlocked([&] {
      return pario_exodus_put_attributes(as<pario_exodus_t>(h), block_id, mem_type, values.data());
    });
  });
  m.def("exodus_put_node_set", [](uintptr_t h, int64_t set_id, int64_t n, Int64s ids, int mem_type,
                                  std::optional<ConstBuffer> df) {
    return unlocked([&] {
      return pario_exodus_put_node_set(as<pario_exodus_t>(h), set_id, n, ids.data(), mem_type, data_or_null(df));
    });
  }, nb::arg("h"), nb::arg("set_id"), nb::arg("n"), nb::arg("ids"), nb::arg("mem_type"), nb::arg("df").none());
  m.def("exodus_put_side_set", [](uintptr_t h, int64_t set_id, int64_t n, Int64s elems, Ints sides, int mem_type,
                                  std::optional<ConstBuffer> df) {
    return unlocked([&] {
      return pario_exodus_put_side_set(as<pario_exodus_t>(h), set_id, n, elems.data(), sides.data(), mem_type,
                                       data_or_null(df));
    });
  }, nb::arg("h"), nb::arg("set_id"), nb::arg("n"), nb::arg("elems"), nb::arg("sides"), nb::arg("mem_type"),
     nb::arg("df").none());
  m.def("exodus_put_side_set_df", [](uintptr_t h, int64_t set_id, int64_t n, Int64s elems, Ints sides, Ints counts,
                                     int mem_type, std::optional<ConstBuffer> df) {
    return unlocked([&] {
      return pario_exodus_put_side_set_df(as<pario_exodus_t>(h), set_id, n, elems.data(), sides.data(),
                                          counts.data(), mem_type, data_or_null(df));
    });
  }, nb::arg("h"), nb::arg("set_id"), nb::arg("n"), nb::arg("elems"), nb::arg("sides"), nb::arg("counts"),
     nb::arg("mem_type"), nb::arg("df").none());
  m.def("exodus_put_time", [](uintptr_t h, int step, double time) {
    return unlocked([&] { return pario_exodus_put_time(as<pario_exodus_t>(h), step, time); });
  });
  m.def("exodus_put_global_values", [](uintptr_t h, int step, int n, int mem_type, ConstBuffer values) {
    return unlocked([&] {
      return pario_exodus_put_global_values(as<pario_exodus_t>(h), step, n, mem_type, values.data());
    });
  });
  m.def("exodus_put_nodal_values", [](uintptr_t h, int step, int var, int mem_type, ConstBuffer values) {
    return unlocked([&] {
      return pario_exodus_put_nodal_values(as<pario_exodus_t>(h), step, var, mem_type, values.data());
    });
  });
  m.def("exodus_put_element_values", [](uintptr_t h, int step, int var, int64_t block_id, int mem_type,
                                        ConstBuffer values) {
    return unlocked([&] {
      return pario_exodus_put_element_values(as<pario_exodus_t>(h), step, var, block_id, mem_type, values.data());
    });
  });
  m.def("exodus_flush", [](uintptr_t h) {
    return unlocked([&] { return pario_exodus_flush(as<pario_exodus_t>(h)); });
  });

  // (status, title, num_dim, num_nodes, num_elem, num_blocks, num_node_sets, num_side_sets, num_steps)
  m.def("exodus_get_info", [](uintptr_t h) {
    std::vector<char> title(128, '\0');
    int num_dim = 0, nb_ = 0, nns = 0, nss = 0, steps = 0;
    int64_t nn = 0, ne = 0;
    int rc = pario_exodus_get_info(as<pario_exodus_t>(h), title.data(), title.size(), &num_dim, &nn, &ne, &nb_,
                                   &nns, &nss, &steps);
    return std::make_tuple(rc, text_of(title), num_dim, nn, ne, nb_, nns, nss, steps);
  });
  // (status, file_index, first_step, steps)
  m.def("exodus_get_series", [](uintptr_t h) {
    int file_index = 0, first_step = 0, steps = 0;
    int rc = pario_exodus_get_series(as<pario_exodus_t>(h), &file_index, &first_step, &steps);
    return std::make_tuple(rc, file_index, first_step, steps);
  });
  // (status, id, name, type, count, nodes_per_element)
  m.def("exodus_get_block", [](uintptr_t h, int index) {
    std::vector<char> name(64, '\0'), type(64, '\0');
    int64_t block_id = 0, count = 0;
    int npe = 0;
    int rc = pario_exodus_get_block(as<pario_exodus_t>(h), index, &block_id, name.data(), name.size(), type.data(),
                                    type.size(), &count, &npe);
    return std::make_tuple(rc, block_id, text_of(name), text_of(type), count, npe);
  });
  // (status, name (empty for var 0), number of variables of the kind)
  m.def("exodus_get_variable", [](uintptr_t h, int kind, int var) {
    std::vector<char> name(64, '\0');
    int n = 0;
    int rc = pario_exodus_get_variable(as<pario_exodus_t>(h), kind, var, name.data(), name.size(), &n);
    return std::make_tuple(rc, text_of(name), n);
  });
  m.def("exodus_get_block_attributes", [](uintptr_t h, int index) {
    int n = 0;
    int rc = pario_exodus_get_block_attributes(as<pario_exodus_t>(h), index, &n);
    return std::make_pair(rc, n);
  });
  m.def("exodus_read_attributes", [](uintptr_t h, int64_t block_id, int64_t start, int64_t count, int mem_type,
                                     Buffer values) {
    return unlocked([&] {
      return pario_exodus_read_attributes(as<pario_exodus_t>(h), block_id, start, count, mem_type, values.data());
    });
  });
  m.def("exodus_get_partition", [](uintptr_t h, int num_blocks) {
    std::vector<int64_t> start(static_cast<size_t>(std::max(0, num_blocks))), count(start.size());
    int rc = pario_exodus_get_partition(as<pario_exodus_t>(h), num_blocks, start.data(), count.data());
    return std::make_tuple(rc, start, count);
  });
  m.def("exodus_get_truth_table", [](uintptr_t h, int num_blocks, int num_vars) {
    std::vector<int> table(static_cast<size_t>(std::max(0, num_blocks)) * static_cast<size_t>(std::max(0, num_vars)));
    int rc = pario_exodus_get_truth_table(as<pario_exodus_t>(h), num_blocks, num_vars, table.data());
    return std::make_pair(rc, table);
  });
  // (status, id, name, count, df_count)
  m.def("exodus_get_set", [](uintptr_t h, int kind, int index) {
    std::vector<char> name(64, '\0');
    int64_t set_id = 0, count = 0, df_count = 0;
    int rc = pario_exodus_get_set(as<pario_exodus_t>(h), kind, index, &set_id, name.data(), name.size(), &count,
                                  &df_count);
    return std::make_tuple(rc, set_id, text_of(name), count, df_count);
  });
  m.def("exodus_read_node_set", [](uintptr_t h, int64_t set_id, int64_t start, int64_t count, Int64sOut ids) {
    return unlocked([&] {
      return pario_exodus_read_node_set(as<pario_exodus_t>(h), set_id, start, count, ids.data());
    });
  });
  m.def("exodus_read_side_set", [](uintptr_t h, int64_t set_id, int64_t start, int64_t count, Int64sOut elems,
                                   Int64sOut sides) {
    return unlocked([&] {
      return pario_exodus_read_side_set(as<pario_exodus_t>(h), set_id, start, count, elems.data(), sides.data());
    });
  });
  m.def("exodus_read_set_df", [](uintptr_t h, int kind, int64_t set_id, int64_t start, int64_t count, int mem_type,
                                 Buffer df) {
    return unlocked([&] {
      return pario_exodus_read_set_df(as<pario_exodus_t>(h), kind, set_id, start, count, mem_type, df.data());
    });
  });
  // Reads by a caller's partition: n ids of this rank (-1: refused here).
  m.def("exodus_read_coords_by_id", [](uintptr_t h, int64_t n, Int64s ids, int mem_type, std::optional<Buffer> x,
                                       std::optional<Buffer> y, std::optional<Buffer> z) {
    return unlocked([&] {
      return pario_exodus_read_coords_by_id(as<pario_exodus_t>(h), n, ids.data(), mem_type, data_or_null(x),
                                            data_or_null(y), data_or_null(z));
    });
  }, nb::arg("h"), nb::arg("n"), nb::arg("ids"), nb::arg("mem_type"), nb::arg("x").none(), nb::arg("y").none(),
     nb::arg("z").none());
  m.def("exodus_read_block_by_id", [](uintptr_t h, int64_t block_id, int64_t n, Int64s ids, Int64sOut conn) {
    return unlocked([&] {
      return pario_exodus_read_block_by_id(as<pario_exodus_t>(h), block_id, n, ids.data(), conn.data());
    });
  });
  m.def("exodus_read_nodal_values_by_id", [](uintptr_t h, int step, int var, int64_t n, Int64s ids, int mem_type,
                                             Buffer values) {
    return unlocked([&] {
      return pario_exodus_read_nodal_values_by_id(as<pario_exodus_t>(h), step, var, n, ids.data(), mem_type,
                                                  values.data());
    });
  });
  m.def("exodus_read_element_values_by_id", [](uintptr_t h, int step, int var, int64_t block_id, int64_t n,
                                               Int64s ids, int mem_type, Buffer values) {
    return unlocked([&] {
      return pario_exodus_read_element_values_by_id(as<pario_exodus_t>(h), step, var, block_id, n, ids.data(),
                                                    mem_type, values.data());
    });
  });
  m.def("exodus_get_loadbal", [](uintptr_t h, int processor) {
    int procs = 0;
    std::array<int64_t, 7> counts{};
    int rc = pario_exodus_get_loadbal(as<pario_exodus_t>(h), processor, &procs, counts.data());
    return std::make_tuple(rc, procs, std::vector<int64_t>(counts.begin(), counts.end()));
  });
  // The Nemesis lists of a processor: sizes from exodus_get_loadbal, then the read.
  m.def("exodus_get_node_maps", [](uintptr_t h, int processor) {
    int procs = 0;
    std::array<int64_t, 7> c{};
    std::vector<int64_t> in, bor, ext;
    int rc = pario_exodus_get_loadbal(as<pario_exodus_t>(h), processor, &procs, c.data());
    if (rc == PARIO_OK) {
      in.resize(static_cast<size_t>(c[0]));
      bor.resize(static_cast<size_t>(c[1]));
      ext.resize(static_cast<size_t>(c[2]));
      rc = pario_exodus_get_node_maps(as<pario_exodus_t>(h), processor, in.data(), bor.data(), ext.data());
    }
    return std::make_tuple(rc, in, bor, ext);
  });
  m.def("exodus_get_elem_maps", [](uintptr_t h, int processor) {
    int procs = 0;
    std::array<int64_t, 7> c{};
    std::vector<int64_t> in, bor;
    int rc = pario_exodus_get_loadbal(as<pario_exodus_t>(h), processor, &procs, c.data());
    if (rc == PARIO_OK) {
      in.resize(static_cast<size_t>(c[3]));
      bor.resize(static_cast<size_t>(c[4]));
      rc = pario_exodus_get_elem_maps(as<pario_exodus_t>(h), processor, in.data(), bor.data());
    }
    return std::make_tuple(rc, in, bor);
  });
  m.def("exodus_get_cmap_params", [](uintptr_t h, int processor) {
    int procs = 0;
    std::array<int64_t, 7> c{};
    std::vector<int64_t> n_ids, n_counts, e_ids, e_counts;
    int rc = pario_exodus_get_loadbal(as<pario_exodus_t>(h), processor, &procs, c.data());
    if (rc == PARIO_OK) {
      n_ids.resize(static_cast<size_t>(c[5]));
      n_counts.resize(static_cast<size_t>(c[5]));
      e_ids.resize(static_cast<size_t>(c[6]));
      e_counts.resize(static_cast<size_t>(c[6]));
      rc = pario_exodus_get_cmap_params(as<pario_exodus_t>(h), processor, n_ids.data(), n_counts.data(),
                                        e_ids.data(), e_counts.data());
    }
    return std::make_tuple(rc, n_ids, n_counts, e_ids, e_counts);
  });
  m.def("exodus_get_node_cmap", [](uintptr_t h, int processor, int64_t map_id, Int64sOut nodes, Int64sOut procs) {
    return pario_exodus_get_node_cmap(as<pario_exodus_t>(h), processor, map_id, nodes.data(), procs.data());
  });
  m.def("exodus_get_elem_cmap", [](uintptr_t h, int processor, int64_t map_id, Int64sOut elems, Int64sOut sides,
                                   Int64sOut procs) {
    return pario_exodus_get_elem_cmap(as<pario_exodus_t>(h), processor, map_id, elems.data(), sides.data(),
                                      procs.data());
  });
  m.def("exodus_get_time", [](uintptr_t h, int step) {
    double t = 0;
    int rc = pario_exodus_get_time(as<pario_exodus_t>(h), step, &t);
    return std::make_pair(rc, t);
  });
  m.def("exodus_read_coords", [](uintptr_t h, int64_t start, int64_t count, int mem_type, std::optional<Buffer> x,
                                 std::optional<Buffer> y, std::optional<Buffer> z) {
    return unlocked([&] {
      return pario_exodus_read_coords(as<pario_exodus_t>(h), start, count, mem_type, data_or_null(x),
                                      data_or_null(y), data_or_null(z));
    });
  }, nb::arg("h"), nb::arg("start"), nb::arg("count"), nb::arg("mem_type"), nb::arg("x").none(),
     nb::arg("y").none(), nb::arg("z").none());
  m.def("exodus_read_node_ids", [](uintptr_t h, int64_t start, int64_t count, Int64sOut ids) {
    return unlocked([&] { return pario_exodus_read_node_ids(as<pario_exodus_t>(h), start, count, ids.data()); });
  });
  m.def("exodus_read_block", [](uintptr_t h, int64_t block_id, int64_t start, int64_t count, Int64sOut ids,
                                Int64sOut connectivity) {
    return unlocked([&] {
      return pario_exodus_read_block(as<pario_exodus_t>(h), block_id, start, count, ids.data(),
                                     connectivity.data());
    });
  });
  m.def("exodus_read_nodal_values", [](uintptr_t h, int step, int var, int64_t start, int64_t count, int mem_type,
                                       Buffer values) {
    return unlocked([&] {
      return pario_exodus_read_nodal_values(as<pario_exodus_t>(h), step, var, start, count, mem_type,
                                            values.data());
    });
  });
  m.def("exodus_read_global_values", [](uintptr_t h, int step, int n, int mem_type, Buffer values) {
    return unlocked([&] {
      return pario_exodus_read_global_values(as<pario_exodus_t>(h), step, n, mem_type, values.data());
    });
  });
  m.def("exodus_read_element_values", [](uintptr_t h, int step, int var, int64_t block_id, int64_t start,
                                         int64_t count, int mem_type, Buffer values) {
    return unlocked([&] {
      return pario_exodus_read_element_values(as<pario_exodus_t>(h), step, var, block_id, start, count, mem_type,
                                              values.data());
    });
  });
}


// ---- self-describing datasets (pario/dataset.h) ----

void bind_dataset(nb::module_& m) {
#define PARIO_DATASET_CONSTANT(name) m.attr(#name) = static_cast<int64_t>(PARIO_##name)
  PARIO_DATASET_CONSTANT(SEGMENT_ANY);
  PARIO_DATASET_CONSTANT(SEGMENT_TOPOLOGY);
  PARIO_DATASET_CONSTANT(SEGMENT_STATE);
  PARIO_DATASET_CONSTANT(ITEM_SCALAR);
  PARIO_DATASET_CONSTANT(ITEM_VECTOR);
  PARIO_DATASET_CONSTANT(ITEM_TENSOR);
  PARIO_DATASET_CONSTANT(SECTION_RANK_ORDERED);
  PARIO_DATASET_CONSTANT(SECTION_GLOBAL_ORDERED);
  PARIO_DATASET_CONSTANT(INFO_DATASET);
  PARIO_DATASET_CONSTANT(INFO_VARIABLE);
  PARIO_DATASET_CONSTANT(INFO_SEGMENT);
  PARIO_DATASET_CONSTANT(INFO_STRING);
  PARIO_DATASET_CONSTANT(DATASET_ONE_FILE);
  PARIO_DATASET_CONSTANT(DATASET_FILE_PER_STEP);
  PARIO_DATASET_CONSTANT(DATASET_STEPS_PER_FILE);
  PARIO_DATASET_CONSTANT(DATASET_SYNC_DEFAULT);
  PARIO_DATASET_CONSTANT(DATASET_SYNC_FSYNC);
  PARIO_DATASET_CONSTANT(DATASET_SYNC_WRITE);
  PARIO_DATASET_CONSTANT(DATASET_SYNC_NONE);
#undef PARIO_DATASET_CONSTANT
  using Dataset = pario_dataset_t;
  m.def("dataset_supported", [] { return pario_dataset_supported() != 0; });
  // hints: borrowed by the options, alive until the C call returns.
  m.def("dataset_create", [](uintptr_t group, const std::string& path, int mode, int file_mode,
                             int64_t steps_per_file, int sync, const Hints& hints) {
    Dataset d = PARIO_DATASET_NULL;
    const pario_dataset_create_options_t options = {file_mode, steps_per_file, sync, &hints.c};
    int rc = unlocked([&] {
      return pario_dataset_create_with(as<pario_group_t>(group), path.c_str(), mode, &options, &d);
    });
    return std::make_pair(rc, id(d));
  });
  m.def("dataset_sync_counts", [](uintptr_t h) {
    int policy = 0;
    int64_t syncs = 0, write_backs = 0;
    int rc = pario_dataset_sync_counts(as<Dataset>(h), &policy, &syncs, &write_backs);
    return std::make_tuple(rc, policy, syncs, write_backs);
  });
  m.def("dataset_file_mode", [](uintptr_t h) {
    int file_mode = 0;
    int64_t steps_per_file = 0, files = 0;
    int rc = pario_dataset_file_mode(as<Dataset>(h), &file_mode, &steps_per_file, &files);
    return std::make_tuple(rc, file_mode, steps_per_file, files);
  });
  m.def("dataset_open", [](uintptr_t group, const std::string& path, int mode, int sync, const Hints& hints) {
    Dataset d = PARIO_DATASET_NULL;
    const pario_dataset_open_options_t options = {sync, &hints.c};
    int rc = unlocked([&] {
      return pario_dataset_open_with(as<pario_group_t>(group), path.c_str(), mode, &options, &d);
    });
    return std::make_pair(rc, id(d));
  });
  m.def("dataset_close", [](uintptr_t h) {
    auto d = as<Dataset>(h);
    return unlocked([&] { return pario_dataset_close(&d); });
  });

  m.def("dataset_segment_append", [](uintptr_t h, int kind, int64_t time_index, double time_value) {
    int64_t segment = -1;
    int rc = unlocked([&] {
      return pario_dataset_segment_append(as<Dataset>(h), kind, time_index, time_value, &segment);
    });
    return std::make_pair(rc, segment);
  });
  m.def("dataset_segment_count", [](uintptr_t h) {
    int64_t n = 0;
    int rc = pario_dataset_segment_count(as<Dataset>(h), &n);
    return std::make_pair(rc, n);
  });
  m.def("dataset_segment_info", [](uintptr_t h, int64_t segment) {
    int kind = 0;
    int64_t time_index = 0;
    double time_value = 0;
    int rc = pario_dataset_segment_info(as<Dataset>(h), segment, &kind, &time_index, &time_value);
    return std::make_tuple(rc, kind, time_index, time_value);
  });
  m.def("dataset_segment_find_index", [](uintptr_t h, int kind, int64_t time_index) {
    int64_t segment = -1;
    int rc = pario_dataset_segment_find_index(as<Dataset>(h), kind, time_index, &segment);
    return std::make_pair(rc, segment);
  });
  m.def("dataset_segment_find_time", [](uintptr_t h, int kind, double time_value) {
    int64_t segment = -1;
    int rc = pario_dataset_segment_find_time(as<Dataset>(h), kind, time_value, &segment);
    return std::make_pair(rc, segment);
  });
  m.def("dataset_truncate", [](uintptr_t h, int64_t last_kept) {
    return unlocked([&] { return pario_dataset_truncate(as<Dataset>(h), last_kept); });
  });

  // item_dims: the C call's item_dims (empty for a scalar).
  m.def("dataset_variable_register", [](uintptr_t h, const std::string& name, int item_kind, const Dims& item_dims,
                                        int word_type) {
    int variable = -1;
    int rc = unlocked([&] {
      return pario_dataset_variable_register(as<Dataset>(h), name.c_str(), item_kind,
                                             item_dims.empty() ? nullptr : item_dims.data(), word_type, &variable);
    });
    return std::make_pair(rc, variable);
  });
  m.def("dataset_variable_find", [](uintptr_t h, const std::string& name) {
    int variable = -1;
    int rc = pario_dataset_variable_find(as<Dataset>(h), name.c_str(), &variable);
    return std::make_pair(rc, variable);
  });
  m.def("dataset_variable_count", [](uintptr_t h) {
    int n = 0;
    int rc = pario_dataset_variable_count(as<Dataset>(h), &n);
    return std::make_pair(rc, n);
  });
  // (status, name, item kind, item dims (2), word type).
  m.def("dataset_variable_info", [](uintptr_t h, int variable) {
    std::vector<char> name(256, '\0');  // names are at most 255 bytes
    int item_kind = 0, word_type = 0;
    int64_t dims[2] = {0, 0};
    int rc = pario_dataset_variable_info(as<Dataset>(h), variable, name.data(), name.size(), &item_kind, dims,
                                         &word_type);
    return std::make_tuple(rc, text_of(name), item_kind, Dims{dims[0], dims[1]}, word_type);
  });
  m.def("dataset_variable_set_types", [](uintptr_t h, int variable, int put_type, int get_type) {
    return pario_dataset_variable_set_types(as<Dataset>(h), variable, put_type, get_type);
  });

  // (status, layout, writers, items, max_piece, piece_start, piece_count, dims).
  m.def("dataset_section_info", [](uintptr_t h, int64_t segment, int variable, int writer) {
    pario_dataset_section_t s{};
    int rc = unlocked([&] { return pario_dataset_section_info(as<Dataset>(h), segment, variable, writer, &s); });
    Dims dims(s.dims, s.dims + std::clamp(s.ndim, 0, static_cast<int>(PARIO_ARRAY_MAX_DIMS)));
    return std::make_tuple(rc, s.layout, s.writers, s.items, s.max_piece, s.piece_start, s.piece_count, dims);
  });
  m.def("dataset_write_ranked", [](uintptr_t h, int64_t segment, int variable, int64_t items, ConstBuffer buf) {
    return unlocked([&] { return pario_dataset_write_ranked(as<Dataset>(h), segment, variable, items, buf.data()); });
  });
  m.def("dataset_read_items", [](uintptr_t h, int64_t segment, int variable, int64_t start, int64_t items,
                                 Buffer buf) {
    return unlocked([&] {
      return pario_dataset_read_items(as<Dataset>(h), segment, variable, start, items, buf.data());
    });
  });
  m.def("dataset_even_split", [](int64_t items, int parts, int part) {
    int64_t start = 0, count = 0;
    int rc = pario_dataset_even_split(items, parts, part, &start, &count);
    return std::make_tuple(rc, start, count);
  });
  m.def("dataset_write_decomp", [](uintptr_t h, int64_t segment, int variable, uintptr_t decomp, ConstBuffer buf) {
    return unlocked([&] {
      return pario_dataset_write_decomp(as<Dataset>(h), segment, variable, as<pario_decomp_t>(decomp), buf.data());
    });
  });
  m.def("dataset_read_decomp", [](uintptr_t h, int64_t segment, int variable, uintptr_t decomp, Buffer buf) {
    return unlocked([&] {
      return pario_dataset_read_decomp(as<Dataset>(h), segment, variable, as<pario_decomp_t>(decomp), buf.data());
    });
  });
  m.def("dataset_write_array", [](uintptr_t h, int64_t segment, int variable, uintptr_t array) {
    return unlocked([&] {
      return pario_dataset_write_array(as<Dataset>(h), segment, variable, as<pario_array_t>(array));
    });
  });
  m.def("dataset_read_array", [](uintptr_t h, int64_t segment, int variable, uintptr_t array) {
    return unlocked([&] {
      return pario_dataset_read_array(as<Dataset>(h), segment, variable, as<pario_array_t>(array));
    });
  });

  // values: count values of type (a string: its UTF-8 bytes as uint8).
  m.def("dataset_info_put", [](uintptr_t h, int owner_kind, int64_t owner, const std::string& name, int type,
                               int64_t count, ConstBuffer values) {
    return unlocked([&] {
      return pario_dataset_info_put(as<Dataset>(h), owner_kind, owner, name.c_str(), type, count, values.data());
    });
  });
  // values None: only (status, stored type, count); else filled as type.
  m.def("dataset_info_get", [](uintptr_t h, int owner_kind, int64_t owner, const std::string& name, int type,
                               std::optional<Buffer> values) {
    int stored = 0;
    int64_t count = 0;
    const int64_t capacity = values ? static_cast<int64_t>(values->size()) : 0;
    int rc = unlocked([&] {
      return pario_dataset_info_get(as<Dataset>(h), owner_kind, owner, name.c_str(), type, capacity,
                                    data_or_null(values), &stored, &count);
    });
    return std::make_tuple(rc, stored, count);
  });
  // (status, name of info `index` or "" when index is out of range, count).
  m.def("dataset_info_name", [](uintptr_t h, int owner_kind, int64_t owner, int64_t index) {
    std::vector<char> name(256, '\0');
    int64_t count = 0;
    int rc = unlocked([&] {
      return pario_dataset_info_name(as<Dataset>(h), owner_kind, owner, index, name.data(), name.size(), &count);
    });
    return std::make_tuple(rc, text_of(name), count);
  });
}


// ---- MFDn's wave-function file (pario/wavefunction.h) ----

// The basis as a tuple (dimension, protons, neutrons, nmax, parity,
// two_mj, hbar_omega): the package makes its dataclass of it.
using BasisTuple = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, double>;

void bind_wavefunction(nb::module_& m) {
#define PARIO_WF_CONSTANT(name) m.attr(#name) = static_cast<int64_t>(PARIO_##name)
  PARIO_WF_CONSTANT(WF_TRANSFER_DEFAULT);
  PARIO_WF_CONSTANT(WF_TRANSFER_INDEPENDENT);
  PARIO_WF_CONSTANT(WF_TRANSFER_COLLECTIVE);
  PARIO_WF_CONSTANT(WF_TRANSFER_AGGREGATORS);
  PARIO_WF_CONSTANT(WF_MAX_VECTORS);
#undef PARIO_WF_CONSTANT
  using Wf = pario_wavefunction_t;
  // has_basis false: a NULL basis (refused by C on every rank).
  m.def("wavefunction_create", [](uintptr_t group, const std::string& path, int mode, bool has_basis,
                                  const BasisTuple& b, int nvectors, int transfer, const Hints& hints) {
    const pario_wavefunction_basis_t basis{std::get<0>(b), std::get<1>(b), std::get<2>(b), std::get<3>(b),
                                           std::get<4>(b), std::get<5>(b), std::get<6>(b)};
    const pario_wavefunction_options_t options{transfer, &hints.c};
    Wf w = PARIO_WAVEFUNCTION_NULL;
    int rc = unlocked([&] {
      return pario_wavefunction_create_with(as<pario_group_t>(group), path.c_str(), mode,
                                            has_basis ? &basis : nullptr, nvectors, &options, &w);
    });
    return std::make_pair(rc, id(w));
  });
  m.def("wavefunction_open", [](uintptr_t group, const std::string& path, int mode, int transfer, const Hints& hints) {
    const pario_wavefunction_options_t options{transfer, &hints.c};
    Wf w = PARIO_WAVEFUNCTION_NULL;
    int rc = unlocked([&] {
      return pario_wavefunction_open_with(as<pario_group_t>(group), path.c_str(), mode, &options, &w);
    });
    return std::make_pair(rc, id(w));
  });
  m.def("wavefunction_close", [](uintptr_t h) {
    auto w = as<Wf>(h);
    return unlocked([&] { return pario_wavefunction_close(&w); });
  });
  // (status, basis tuple, nvectors, transfer).
  m.def("wavefunction_info", [](uintptr_t h) {
    pario_wavefunction_basis_t b{};
    int n = 0, transfer = 0;
    int rc = pario_wavefunction_info(as<Wf>(h), &b, &n, &transfer);
    return std::make_tuple(rc, BasisTuple{b.dimension, b.protons, b.neutrons, b.nmax, b.parity, b.two_mj,
                                          b.hbar_omega},
                           n, transfer);
  });
  // buf: float64, C-contiguous (the package makes it so); count may differ
  // from its size only where the package passes a count C refuses.
  m.def("wavefunction_write", [](uintptr_t h, int vector, int64_t start, int64_t count, ConstBuffer buf) {
    return unlocked([&] {
      return pario_wavefunction_write(as<Wf>(h), vector, start, count, static_cast<const double*>(buf.data()));
    });
  });
  m.def("wavefunction_read", [](uintptr_t h, int vector, int64_t start, int64_t count, Buffer buf) {
    return unlocked([&] {
      return pario_wavefunction_read(as<Wf>(h), vector, start, count, static_cast<double*>(buf.data()));
    });
  });
  m.def("wavefunction_set_observables", [](uintptr_t h, int vector, double energy, double j, double t) {
    return unlocked([&] { return pario_wavefunction_set_observables(as<Wf>(h), vector, energy, j, t); });
  });
  // (status, energy, J, T, written).
  m.def("wavefunction_observables", [](uintptr_t h, int vector) {
    double energy = 0, j = 0, t = 0;
    int written = 0;
    int rc = pario_wavefunction_observables(as<Wf>(h), vector, &energy, &j, &t, &written);
    return std::make_tuple(rc, energy, j, t, written != 0);
  });
}

}  // namespace

NB_MODULE(_pario, m) {
  m.doc() = "pario's C API, one function per call (see the pario package for the Python API)";
  m.def("init", [] { return unlocked([] { return pario_init(); }); });
  m.def("finalize", [] { return unlocked([] { return pario_finalize(); }); });
  m.def("initialized", [] {
    int flag = 0;
    pario_initialized(&flag);
    return flag != 0;
  });
  m.def("world_rank_size", [] {
    int rank = 0, size = 1;
    pario_world_rank(&rank);
    pario_world_size(&size);
    return std::make_pair(rank, size);
  });
  m.def("version", [] { return std::string(pario_version()); });
  m.def("abort", [](int code) { pario_abort(code); });
  m.def("status_string", [](int code) { return std::string(pario_status_string(code)); });
  m.def("last_error_message", [] {
    std::vector<char> buf(4096);
    pario_last_error_message(buf.data(), buf.size());
    return std::string(buf.data());
  });
  m.def("stats_write_json", [](const std::string& path) { return pario_stats_write_json(path.c_str()); });
  m.def("stats_table", [] {
    std::vector<char> buf(1 << 16);
    size_t n = pario_stats_table(buf.data(), buf.size());
    return std::string(buf.data(), std::min(n, buf.size() - 1));
  });
  bind_constants(m);
  bind_files(m);
  bind_arrays(m);
  bind_collective(m);
  bind_exodus(m);
  bind_dataset(m);
  bind_wavefunction(m);
}
