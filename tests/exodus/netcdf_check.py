"""The netCDF classic codec against netCDF-C, both ways.

    netcdf_check.py NETCDF_INTEROP WORKDIR

1. netcdf_interop writes CDF-1, CDF-2 and CDF-5 files (headers from the
   codec, data big-endian); netCDF4-python (netCDF-C) and ncdump read them,
   and every dimension, attribute and value is checked.
2. netCDF4-python and ncgen write files of all three formats; the codec
   decodes them (netcdf_interop dump) and what it says, values included,
   must equal what netCDF-C says.

Exits 77 (skipped) when netCDF4-python or ncdump/ncgen are missing: the
setup script installs both (netcdf-bin, pip netCDF4).
"""
import json
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
    import netCDF4
except ImportError as e:
    print(f"netcdf_check: skipped: {e} (scripts/setup.sh installs netCDF4)")
    sys.exit(77)
if not shutil.which("ncdump") or not shutil.which("ncgen"):
    print("netcdf_check: skipped: ncdump/ncgen not found (Debian's netcdf-bin)")
    sys.exit(77)

TOOL, WORK = sys.argv[1], sys.argv[2]
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)


TYPE_OF_DTYPE = {
    "int8": "byte", "int16": "short", "int32": "int", "float32": "float", "float64": "double",
    "uint8": "ubyte", "uint16": "ushort", "uint32": "uint", "int64": "int64", "uint64": "uint64",
    "|S1": "char", "S1": "char",
}
FORMAT_OF_MODEL = {"NETCDF3_CLASSIC": "CDF-1", "NETCDF3_64BIT_OFFSET": "CDF-2",
                   "NETCDF3_64BIT_DATA": "CDF-5"}
KIND_OF_FORMAT = {"CDF-1": "classic", "CDF-2": "64-bit offset", "CDF-5": "cdf5"}


def nc_type(dtype):
    return TYPE_OF_DTYPE.get(dtype.str.lstrip("<>|=") if dtype.kind == "S" else dtype.name, "?")


def flat(var):
    """Every value of a netCDF4 variable, flattened, chars as byte codes."""
    var.set_auto_maskandscale(False)
    if var.dtype == np.dtype("S1"):
        var.set_auto_chartostring(False)
    a = np.asarray(var[...])
    if a.dtype.kind == "S":
        return np.frombuffer(a.tobytes(), dtype=np.uint8)
    return a.reshape(-1)


def same_values(got, want, dtype):
    """got: a JSON list; want: a numpy array of netCDF-C's values."""
    if dtype.kind == "S":
        dtype = np.dtype(np.uint8)
    return len(got) == want.size and np.array_equal(np.array(got, dtype=dtype), want.astype(dtype))


def attributes_of(obj):
    out = {}
    for name in obj.ncattrs():
        v = obj.getncattr(name)
        out[name] = v
    return out


def compare(path, dump):
    """The codec's dump of path against netCDF-C's view of the same file."""
    ds = netCDF4.Dataset(path)
    ds.set_auto_maskandscale(False)
    tag = os.path.basename(path)
    check(dump["format"] == FORMAT_OF_MODEL[ds.data_model],
          f"{tag}: format {dump['format']} vs {ds.data_model}")
    check([d["name"] for d in dump["dims"]] == list(ds.dimensions), f"{tag}: dimension names")
    for d in dump["dims"]:
        nd = ds.dimensions[d["name"]]
        check(d["length"] == len(nd) and d["unlimited"] == nd.isunlimited(),
              f"{tag}: dimension {d['name']}: {d} vs {len(nd)} {nd.isunlimited()}")

    def compare_atts(mine, theirs, where):
        check([a["name"] for a in mine] == list(theirs), f"{tag}: {where} attribute names")
        for a in mine:
            v = theirs.get(a["name"])
            if "text" in a:
                check(isinstance(v, str) and v == a["text"], f"{tag}: {where}:{a['name']} text")
            else:
                arr = np.atleast_1d(np.asarray(v))
                check(a["type"] == nc_type(arr.dtype) and same_values(a["values"], arr, arr.dtype),
                      f"{tag}: {where}:{a['name']}: {a} vs {arr!r}")

    compare_atts(dump["attributes"], attributes_of(ds), "global")
    check([v["name"] for v in dump["vars"]] == list(ds.variables), f"{tag}: variable names")
    for v in dump["vars"]:
        nv = ds.variables[v["name"]]
        check(v["type"] == nc_type(nv.dtype), f"{tag}: {v['name']} type {v['type']} vs {nv.dtype}")
        check(v["dims"] == list(nv.dimensions), f"{tag}: {v['name']} dimensions")
        compare_atts(v["attributes"], attributes_of(nv), v["name"])
        want = flat(nv)
        check(same_values(v["values"], want, want.dtype),
              f"{tag}: {v['name']} values {v['values'][:8]}... vs {want[:8]}...")
    ds.close()


def dump_of(path):
    r = subprocess.run([TOOL, "dump", path], capture_output=True, text=True)
    check(r.returncode == 0, f"dump {path}: {r.stderr.strip()}")
    return json.loads(r.stdout) if r.returncode == 0 else None


# ---- 1. files the codec wrote, read by netCDF-C ------------------------------

def value_of(nctype, vi, k):
    """netcdf_interop.cpp's value_of, element k of variable vi."""
    base = vi * 7 + k
    if nctype in ("float", "double"):
        return base * 0.5 - 3.0
    if nctype == "char":
        return ord("a") + base % 26
    if nctype in ("byte", "short", "int"):
        return base % 100 - 50
    if nctype == "ubyte":
        return base % 200 + 50
    if nctype in ("ushort", "uint"):
        return base % 1000 + 60000
    if nctype == "int64":
        return -(1 << 40) + k + vi
    if nctype == "uint64":
        return (1 << 63) + k + vi
    raise ValueError(nctype)


def check_written(path, fmt, numrecs, cdf5):
    tag = os.path.basename(path)
    ds = netCDF4.Dataset(path)
    check(ds.data_model == {v: k for k, v in FORMAT_OF_MODEL.items()}[fmt],
          f"{tag}: netCDF-C says {ds.data_model}, expected {fmt}")
    r = subprocess.run(["ncdump", "-k", path], capture_output=True, text=True)
    check(r.stdout.strip() == KIND_OF_FORMAT[fmt], f"{tag}: ncdump -k says {r.stdout.strip()!r}")
    r = subprocess.run(["ncdump", path], capture_output=True, text=True)
    check(r.returncode == 0 and "pario interop" in r.stdout, f"{tag}: ncdump: {r.stderr.strip()}")
    check(len(ds.dimensions["time"]) == numrecs and ds.dimensions["time"].isunlimited(),
          f"{tag}: time has {len(ds.dimensions['time'])} records")
    check(len(ds.dimensions["node"]) == 5 and len(ds.dimensions["strlen"]) == 7, f"{tag}: dims")
    check(ds.getncattr("title") == "pario interop", f"{tag}: title")
    check(np.float32(ds.getncattr("version")) == np.float32(1.5), f"{tag}: version")
    check(list(np.atleast_1d(ds.getncattr("ints"))) == [1, -2, 3], f"{tag}: ints")
    check(list(np.atleast_1d(ds.getncattr("shorts"))) == [-4, 5], f"{tag}: shorts")
    check(list(np.atleast_1d(ds.getncattr("bytes"))) == [-1, 2, 3], f"{tag}: bytes")
    check(float(ds.getncattr("doubles")) == 0.25, f"{tag}: doubles")
    if cdf5:
        check(int(ds.getncattr("ubytes")) == 200 and int(ds.getncattr("ushorts")) == 60000,
              f"{tag}: unsigned attributes")
        check(int(ds.getncattr("uints")) == 4000000000, f"{tag}: uints")
        check(int(ds.getncattr("int64s")) == -(1 << 40), f"{tag}: int64s")
        check(int(ds.getncattr("uint64s")) == (1 << 63) + 5, f"{tag}: uint64s")
    check(ds.variables["coordx"].getncattr("units") == "m", f"{tag}: coordx:units")
    for vi, name in enumerate(ds.variables):
        nv = ds.variables[name]
        t = nc_type(nv.dtype)
        got = flat(nv)
        want = np.array([value_of(t, vi, k) for k in range(got.size)], dtype=got.dtype)
        check(got.size == int(np.prod(nv.shape)) and np.array_equal(got, want),
              f"{tag}: {name} ({t}) {got[:6]} vs {want[:6]}")
    ds.close()
    compare(path, dump_of(path))


def check_single_record(path):
    """One record variable: netCDF-C reads its records 6 bytes apart."""
    ds = netCDF4.Dataset(path)
    c = flat(ds.variables["c"])
    check(len(ds.dimensions["time"]) == 5 and c.size == 15, f"single_record: {c.size} values")
    check(np.array_equal(c, np.array([value_of("short", 1, k) for k in range(15)], np.int16)),
          f"single_record: c = {c}")
    x = np.array([value_of("byte", 0, k) for k in range(3)], np.int8)
    check(np.array_equal(flat(ds.variables["x"]), x), "single_record: x")
    ds.close()
    compare(path, dump_of(path))


written = os.path.join(WORK, "from_codec")
os.makedirs(written, exist_ok=True)
r = subprocess.run([TOOL, "write", written], capture_output=True, text=True)
check(r.returncode == 0, f"netcdf_interop write: {r.stderr.strip()}")
if r.returncode == 0:
    check_written(os.path.join(written, "cdf1.nc"), "CDF-1", 3, False)
    check_written(os.path.join(written, "cdf2.nc"), "CDF-2", 3, False)
    check_written(os.path.join(written, "cdf5.nc"), "CDF-5", 3, True)
    check_written(os.path.join(written, "aligned.nc"), "CDF-2", 2, False)
    check_written(os.path.join(written, "no_records.nc"), "CDF-2", 0, False)
    check_single_record(os.path.join(written, "single_record.nc"))


# ---- 2. files netCDF-C wrote, decoded by the codec ---------------------------

rng = np.random.default_rng(27)


def write_with_netcdf4(path, fmt, fill=True):
    cdf5 = fmt == "NETCDF3_64BIT_DATA"
    ds = netCDF4.Dataset(path, "w", format=fmt)
    if not fill:
        ds.set_fill_off()
    ds.createDimension("time", None)
    ds.createDimension("x", 4)
    ds.createDimension("y", 3)
    ds.createDimension("s", 5)
    ds.title = "written by netCDF-C"
    ds.setncattr("ints", np.array([1, 2, -3], np.int32))
    ds.setncattr("d", 2.5)
    ds.setncattr("f", np.float32(-0.75))
    ds.setncattr("sh", np.array([7, -8, 9], np.int16))
    ds.setncattr("by", np.array([-5, 6, 7, 8, 9], np.int8))
    if cdf5:
        ds.setncattr("ub", np.array([250, 1], np.uint8))
        ds.setncattr("us", np.uint16(65000))
        ds.setncattr("ui", np.uint32(4000000001))
        ds.setncattr("i8", np.int64(-(1 << 50)))
        ds.setncattr("u8", np.uint64((1 << 64) - 2))
    coord = ds.createVariable("coord", "f8", ("x",))
    coord.units = "m"
    coord[:] = rng.standard_normal(4)
    ds.createVariable("grid", "i4", ("y", "x"))[:] = rng.integers(-1000, 1000, (3, 4))
    names = ds.createVariable("name", "S1", ("y", "s"))
    names[:] = netCDF4.stringtochar(np.array(["ab", "cde", "fghij"], "S5"))
    ds.createVariable("sc", "i2", ())[...] = -12
    ds.createVariable("time", "f8", ("time",))[:] = np.arange(4) * 0.1
    ds.createVariable("temp", "f4", ("time", "x"))[:] = rng.standard_normal((4, 4))
    ds.createVariable("flag", "i1", ("time", "y"))[:] = rng.integers(-100, 100, (4, 3))
    if cdf5:
        ds.createVariable("big", "i8", ("time", "x"))[:] = rng.integers(-(1 << 60), 1 << 60, (4, 4))
        ds.createVariable("ub", "u1", ("y",))[:] = [0, 128, 255]
        ds.createVariable("u8v", "u8", ("x",))[:] = np.array([0, 1, (1 << 64) - 1, 5], np.uint64)
        ds.createVariable("us", "u2", ("time", "y"))[:] = rng.integers(0, 65535, (4, 3))
        ds.createVariable("ui", "u4", ("x",))[:] = [0, 1, 4000000000, 7]
    ds.close()


def write_single_with_netcdf4(path, dtype):
    ds = netCDF4.Dataset(path, "w", format="NETCDF3_64BIT_OFFSET")
    ds.createDimension("time", None)
    ds.createDimension("n", 3)
    ds.createVariable("c", dtype, ("time", "n"))[:] = np.arange(15).reshape(5, 3) - 7
    ds.close()


CDL = """netcdf from_ncgen {
dimensions:
  time = UNLIMITED ;
  node = 3 ;
  len = 6 ;
variables:
  double coordx(node) ;
    coordx:units = "m" ;
  char title(len) ;
  int conn(node, node) ;
  float vals(time, node) ;
    vals:scale = 2.f ;
  short steps(time) ;
%(cdf5)s
// global attributes:
  :api_version = 8.11f ;
  :sizes = 1, 2, 3 ;
  :note = "ncgen" ;
data:
  coordx = 0.5, 1.5, 2.5 ;
  title = "hello!" ;
  conn = 1, 2, 3, 4, 5, 6, 7, 8, 9 ;
  vals = 1, 2, 3, 4, 5, 6 ;
  steps = 10, 20 ;
%(cdf5data)s
}
"""


def write_with_ncgen(path, kind):
    cdf5 = kind == "nc5"
    text = CDL % {
        "cdf5": "  uint64 big(node) ;\n  ubyte small(time) ;" if cdf5 else "",
        "cdf5data": "  big = 0, 18446744073709551615, 3 ;\n  small = 255, 1 ;" if cdf5 else "",
    }
    cdl = path + ".cdl"
    with open(cdl, "w") as f:
        f.write(text)
    r = subprocess.run(["ncgen", "-k", kind, "-o", path, cdl], capture_output=True, text=True)
    check(r.returncode == 0, f"ncgen -k {kind}: {r.stderr.strip()}")


theirs = os.path.join(WORK, "from_netcdf_c")
os.makedirs(theirs, exist_ok=True)
files = []
for fmt in FORMAT_OF_MODEL:
    p = os.path.join(theirs, f"{fmt}.nc")
    write_with_netcdf4(p, fmt)
    files.append(p)
p = os.path.join(theirs, "nofill.nc")
write_with_netcdf4(p, "NETCDF3_64BIT_OFFSET", fill=False)
files.append(p)
for dtype in ("i2", "i1", "f8"):
    p = os.path.join(theirs, f"single_{dtype}.nc")
    write_single_with_netcdf4(p, dtype)
    files.append(p)
for kind in ("nc3", "nc6", "nc5"):
    p = os.path.join(theirs, f"ncgen_{kind}.nc")
    write_with_ncgen(p, kind)
    files.append(p)
for p in files:
    d = dump_of(p)
    if d is not None:
        compare(p, d)

print(f"{checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
