#!/usr/bin/env python3
"""gen.py -- random, valid, UB-free C (and C++) OpenMP offload programs for hetero.

    gen.py SEED [-o prog.c] [--meta prog.json] [--diag]

Writes one C program per seed (deterministic: the same seed, the same text).
Each program maps a few arrays in a `#pragma omp target data` region, runs a
chain of 1-6 offloaded loops over them (sometimes with `target update
from/to` and host changes in between) and prints an FNV-1a hash of every
array and the bits of every reduction result. A host-only build
(`clang-19 -fopenmp`, target regions run on the host) is the reference:
hetero, split or not, must print the very same bytes.

How validity is guaranteed (the part that matters):

  * Every integer expression that feeds a subscript, a loop bound or an
    exactly-checked reduction value is an `IE`: it carries its C text, its C
    type (integer promotions and usual arithmetic conversions done the C
    way), a static value interval and a Python expression that computes the
    exact C value (unsigned wrap, truncating casts, C's truncating `/` and
    `%`, arithmetic `>>`) and raises `UB` on signed overflow.
  * Every access (`a[e]`, `A[r][c]`, `p[e].m`, `S->x[e]`, gathers
    `a[idx[e]]`) is evaluated by brute force, in Python, over the whole
    iteration space of its kernel (collapsed nest x enclosing inner loops).
    Writes must be race-free: an element written by one parallel iteration
    is neither written nor read by any other iteration of that launch.
    Arrays are sized afterwards from the largest index seen; negative
    indices are shifted by an offset.
  * Values stored are computed in uint64_t (no signed overflow possible) or
    in floating point with bounded growth; reductions use values whose
    partial results are exact in any order (small integers, multiples of
    1/8, products of 2.0/0.5 with bounded counts), checked in Python where
    the value depends on the loop counters.

About a third of the seeds are C++ (first line `// lang: c++`, compiled
with -x c++; drawn apart from the program's own random stream, so a seed's
C program is the same with or without): min and max are std::min and
std::max (reference parameters), a third of the kernels' stores take their
value through a generic lambda that captures by copy, a third of the element
accesses of flat arrays go through a view made where it is used (rank 1, a
checked one, or rank 2 with its offset folded in a helper), enums have their
C type fixed, and 2-D arrays have constant extents.

`--meta` writes a JSON description (kernels, their pragma line, shape tags)
that the driver (hetero_fuzz.py) uses for statistics and triage. `--diag`
adds `target update from` + hashes after every kernel, which localises a
wrong answer to the first kernel that produced it.

Python 3.11 standard library only.
"""

import argparse
import itertools
import json
import math
import random
import re
import sys


# The first line of a C++ program: the driver compiles it with -x c++.
CXX_MARKER = "// lang: c++"
# The C++ programs' helpers: a functor whose operator() is a member
# template, a class template whose member function returns a member, and
# accessors over a mapped pointer the way views are written (Kokkos, mdspan):
# one returning a reference, one that checks before it returns (a check that
# never fails), and a rank-2 one whose offset a helper folds into a local.
CXX_HELPERS = """struct Pass_ {
  template <class T> T operator()(T v) const { return v; }
};
template <class T> struct Keep_ {
  T v;
  T get() const { return v; }
};
template <class T> static Keep_<T> keep_(T v) { return Keep_<T>{v}; }
template <class T> struct V1_ {
  T *p;
  T &operator()(long long i) const { return p[i]; }
};
template <class T> static V1_<T> v1_(T *p) { return V1_<T>{p}; }
template <class T> struct VC_ {
  T *p;
  T &operator()(long long i) const {
    if (i < -(1LL << 50))
      __builtin_trap();
    return p[i];
  }
};
template <class T> struct V2_ {
  T *p;
  long long s;
  long long offset(long long i, long long j) const {
    long long o = j;
    o += i * s;
    return o;
  }
  T &operator()(long long i, long long j) const { return p[offset(i, j)]; }
};
"""


class Reject(Exception):
    """A drawn piece (expression, access, kernel) is not valid: redraw it."""


class UB(Reject):
    """The C program would have undefined behaviour (or leave its arrays)."""


# ---------------------------------------------------------------------------
# C integer types
# ---------------------------------------------------------------------------


class IntType:
    """A C integer type: its spelling, width, signedness and conversion rank
    (char 1, short 2, int 3, long 4, long long 5)."""

    def __init__(self, cname, bits, signed, rank, enum=False):
        self.cname = cname
        self.bits = bits
        self.signed = signed
        self.rank = rank
        self.enum = enum
        self.mask = (1 << bits) - 1
        self.lo = -(1 << (bits - 1)) if signed else 0
        self.hi = (1 << (bits - 1)) - 1 if signed else self.mask

    def holds(self, lo, hi):
        return self.lo <= lo and hi <= self.hi

    def convert(self, v):
        """C conversion of the integer v to this type (modulo 2^bits; for a
        signed target clang also wraps, which C calls implementation-
        defined)."""
        v &= self.mask
        if self.signed and v > self.hi:
            v -= 1 << self.bits
        return v

    @property
    def key(self):
        return (self.bits, self.signed, self.rank)

    def __repr__(self):
        return self.cname


I8 = IntType("int8_t", 8, True, 1)
U8 = IntType("uint8_t", 8, False, 1)
I16 = IntType("int16_t", 16, True, 2)
U16 = IntType("uint16_t", 16, False, 2)
SHORT = IntType("short", 16, True, 2)
USHORT = IntType("unsigned short", 16, False, 2)
INT = IntType("int", 32, True, 3)
I32 = IntType("int32_t", 32, True, 3)
UINT = IntType("unsigned", 32, False, 3)
U32 = IntType("uint32_t", 32, False, 3)
LONG = IntType("long", 64, True, 4)
I64 = IntType("int64_t", 64, True, 4)
ULONG = IntType("unsigned long", 64, False, 4)
U64 = IntType("uint64_t", 64, False, 4)
SIZE = IntType("size_t", 64, False, 4)
LLONG = IntType("long long", 64, True, 5)
ULLONG = IntType("unsigned long long", 64, False, 5)

CANON = {t.key: t for t in (INT, UINT, LONG, ULONG, LLONG, ULLONG)}
UNSIGNED_OF = {INT.key: UINT, LONG.key: ULONG, LLONG.key: ULLONG}

# Element types of data arrays, and scalar-argument types.
INT_ELEMS = [I8, U8, I16, U16, I32, U32, I64, U64]
SCALAR_TYPES = [I8, U8, I16, U16, SHORT, USHORT, INT, I32, UINT, U32, LONG,
                I64, ULONG, U64, SIZE, LLONG, ULLONG]


def promote(t):
    """Integer promotions: everything narrower than int becomes int; an enum
    behaves as its underlying type (int or unsigned int)."""
    if t.bits < 32:
        return INT
    return CANON[t.key]


def usual(a, b):
    """The usual arithmetic conversions of two integer types."""
    a, b = promote(a), promote(b)
    if a.key == b.key:
        return a
    if a.signed == b.signed:
        return a if a.rank > b.rank else b
    u, s = (a, b) if not a.signed else (b, a)
    if u.rank >= s.rank:
        return u
    if s.bits > u.bits:
        return s
    return UNSIGNED_OF[s.key]


def wrap_interval(lo, hi, t):
    """The values of t that [lo, hi] converts to (an over-approximation)."""
    if t.holds(lo, hi):
        return lo, hi
    if hi - lo >= t.mask:
        return t.lo, t.hi
    a, b = t.convert(lo), t.convert(hi)
    return (a, b) if a <= b else (t.lo, t.hi)


def c_literal(v, t):
    """A C literal of value v and type t."""
    if t.key == INT.key and not t.enum and t.cname in ("int", "int32_t"):
        if v < 0:
            return "(%d)" % v if v != INT.lo else "(-2147483647 - 1)"
        return "%d" % v
    if t.key == UINT.key and t.cname in ("unsigned", "uint32_t"):
        return "%du" % v
    if t.key == LONG.key and t.cname in ("long", "int64_t"):
        return "(%dL)" % v if v < 0 else "%dL" % v
    if t.key == ULONG.key and t.cname in ("unsigned long", "uint64_t",
                                          "size_t"):
        return "%dUL" % v
    if t is LLONG:
        return "(%dLL)" % v if v < 0 else "%dLL" % v
    if t is ULLONG:
        return "%dULL" % v
    return "((%s)%d)" % (t.cname, v) if v >= 0 else "((%s)(%d))" % (t.cname, v)


# ---------------------------------------------------------------------------
# Integer expressions with exact C semantics
# ---------------------------------------------------------------------------

# Helpers the generated Python evaluators call.


def _chk(v, lo, hi):
    """A signed result: undefined behaviour when it leaves its type."""
    if v < lo or v > hi:
        raise UB("signed overflow")
    return v


def _sw(v, bits):
    """Conversion to a signed type of the given width (clang wraps)."""
    m = 1 << bits
    v &= m - 1
    return v - m if v >= m >> 1 else v


def _cdiv(a, b):
    """C's truncating division."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _crem(a, b):
    return a - b * _cdiv(a, b)


def _shl(v, k, hi):
    """Left shift of a signed value: undefined for a negative value or when
    the result does not fit."""
    if v < 0:
        raise UB("left shift of a negative value")
    r = v << k
    if r > hi:
        raise UB("left shift overflow")
    return r


def _iloop(a, b, cond, s, lo, hi, nonneg):
    """The values of a serial C loop `for (T v = a; v <cond> b; v += s)`
    (a and b already converted to the comparison type; nonneg: the
    comparison is unsigned, so the counter must stay >= 0). The counter,
    including its last, failing value, must fit T."""
    if cond == "lt":
        n = (b - a + s - 1) // s if a < b else 0
    elif cond == "le":
        n = (b - a) // s + 1 if a <= b else 0
    elif cond == "gt":
        n = (a - b + (-s) - 1) // (-s) if a > b else 0
    elif cond == "ge":
        n = (a - b) // (-s) + 1 if a >= b else 0
    else:  # ne, step +-1
        d = (b - a) * s
        if d < 0:
            raise UB("!= loop never reaches its bound")
        n = d
    end = a + n * s
    if not (lo <= a <= hi and lo <= end <= hi):
        raise UB("loop counter leaves its type")
    if nonneg and (a < 0 or end < 0):
        raise UB("negative counter in an unsigned comparison")
    return range(a, end, s)


EVAL_HELPERS = {"_chk": _chk, "_sw": _sw, "_cdiv": _cdiv, "_crem": _crem,
                "_shl": _shl, "_iloop": _iloop}


class IE:
    """An integer C expression: c (C text), py (Python text computing the
    exact C value), ty (C type), [lo, hi] (static interval, sound), tags
    (shape features), uses (names of loop counters it reads)."""

    __slots__ = ("c", "py", "ty", "lo", "hi", "tags", "uses")

    def __init__(self, c, py, ty, lo, hi, tags=(), uses=()):
        self.c, self.py, self.ty = c, py, ty
        self.lo, self.hi = lo, hi
        self.tags = set(tags)
        self.uses = set(uses)

    def __repr__(self):
        return "IE(%s : %s [%d, %d])" % (self.c, self.ty, self.lo, self.hi)


def lit(v, t=INT):
    if not t.holds(v, v):
        raise Reject("literal %d does not fit %s" % (v, t))
    return IE(c_literal(v, t), str(v), t, v, v)


def atom(c, py, t, lo, hi, tags=(), uses=()):
    return IE(c, py, t, lo, hi, tags, uses)


def _conv(x, t):
    """Implicit conversion of x to t: (python text, lo, hi, changed)."""
    if t.holds(x.lo, x.hi):
        return x.py, x.lo, x.hi, False
    lo, hi = wrap_interval(x.lo, x.hi, t)
    if t.signed:
        return "_sw(%s,%d)" % (x.py, t.bits), lo, hi, True
    return "((%s)&%d)" % (x.py, t.mask), lo, hi, True


def _result(py, lo, hi, t, tags):
    """Wraps the mathematical result py in [lo, hi] into type t."""
    if t.holds(lo, hi):
        return py, lo, hi
    if t.signed:
        tags.add("maybe-overflow")
        return "_chk(%s,%d,%d)" % (py, t.lo, t.hi), max(lo, t.lo), min(hi, t.hi)
    tags.add("wrap%d" % t.bits)
    lo2, hi2 = wrap_interval(lo, hi, t)
    return "((%s)&%d)" % (py, t.mask), lo2, hi2


def cast(t, x):
    """Explicit cast ((t)(x))."""
    py, lo, hi, changed = _conv(x, t)
    tags = set(x.tags)
    tags.add("cast")
    if changed:
        if t.bits < max(promote(x.ty).bits, x.ty.bits):
            tags.add("trunc%d" % t.bits)
        else:
            tags.add("signchange")
    elif t.bits < x.ty.bits or t.signed != x.ty.signed:
        tags.add("cast-noop")
    return IE("((%s)(%s))" % (t.cname, x.c), py, t, lo, hi, tags, x.uses)


def convert_to(t, x):
    """Implicit conversion (assignment to a variable of type t)."""
    py, lo, hi, changed = _conv(x, t)
    tags = set(x.tags)
    if changed:
        tags.add("implicit-trunc")
    return IE(x.c, py, t, lo, hi, tags, x.uses)


def _corners(f, a, b):
    vals = [f(x, y) for x in (a[0], a[1]) for y in (b[0], b[1])]
    return min(vals), max(vals)


def binop(op, a, b):
    """a op b with C typing; op in + - * / % << >> & | ^."""
    tags = a.tags | b.tags
    uses = a.uses | b.uses
    if op in ("<<", ">>"):
        t = promote(a.ty)
        if b.lo != b.hi or not 0 <= b.lo < t.bits:
            raise Reject("shift count")
        k = b.lo
        pa, alo, ahi, _ = _conv(a, t)
        if op == ">>":
            tags.add("shr")
            return IE("(%s >> %s)" % (a.c, b.c), "(%s >> %d)" % (pa, k), t,
                      alo >> k, ahi >> k, tags, uses)
        tags.add("shl")
        lo, hi = alo << k, ahi << k
        if t.signed:
            if alo >= 0 and hi <= t.hi:
                py = "(%s << %d)" % (pa, k)
            else:
                tags.add("maybe-overflow")
                py = "_shl(%s,%d,%d)" % (pa, k, t.hi)
                lo, hi = max(lo, 0), min(hi, t.hi)
        else:
            py, lo, hi = _result("(%s << %d)" % (pa, k), lo, hi, t, tags)
        return IE("(%s << %s)" % (a.c, b.c), py, t, lo, hi, tags, uses)
    t = usual(a.ty, b.ty)
    pa, alo, ahi, ca = _conv(a, t)
    pb, blo, bhi, cb = _conv(b, t)
    if ca or cb:
        tags.add("wrap%d" % t.bits if not t.signed else "signchange")
    c = "(%s %s %s)" % (a.c, op, b.c)
    if op in "+-*":
        if op == "+":
            lo, hi = alo + blo, ahi + bhi
        elif op == "-":
            lo, hi = alo - bhi, ahi - blo
            if blo != bhi or b.uses:
                tags.add("negcoef")
        else:
            lo, hi = _corners(lambda x, y: x * y, (alo, ahi), (blo, bhi))
            if (alo < 0 and alo == ahi) or (blo < 0 and blo == bhi):
                tags.add("negcoef")
        py, lo, hi = _result("(%s %s %s)" % (pa, op, pb), lo, hi, t, tags)
        return IE(c, py, t, lo, hi, tags, uses)
    if op in "/%":
        if blo <= 0 <= bhi:
            raise Reject("divisor may be zero")
        tags.add("div" if op == "/" else "mod")
        if b.uses:
            tags.add("div-by-counter")
        nonneg = alo >= 0 and blo > 0
        if op == "/":
            lo, hi = _corners(_cdiv, (alo, ahi), (blo, bhi))
            py = "(%s // %s)" % (pa, pb) if nonneg else "_cdiv(%s,%s)" % (pa, pb)
            if t.signed and not t.holds(lo, hi):  # INT_MIN / -1
                py = "_chk(%s,%d,%d)" % (py, t.lo, t.hi)
                lo, hi = max(lo, t.lo), min(hi, t.hi)
        else:
            m = max(abs(blo), abs(bhi)) - 1
            lo = 0 if alo >= 0 else max(alo, -m)
            hi = 0 if ahi <= 0 else min(ahi, m)
            py = "(%s %% %s)" % (pa, pb) if nonneg else "_crem(%s,%s)" % (pa, pb)
        return IE(c, py, t, lo, hi, tags, uses)
    if op in "&|^":
        tags.add({"&": "and", "|": "or", "^": "xor"}[op])
        if op == "&" and (alo >= 0 or blo >= 0):
            hi = min(x for x in (ahi if alo >= 0 else None,
                                 bhi if blo >= 0 else None) if x is not None)
            lo = 0
        elif alo >= 0 and blo >= 0:
            lo, hi = 0, (1 << max(ahi, bhi).bit_length()) - 1
        else:
            lo, hi = t.lo, t.hi
        return IE(c, "(%s %s %s)" % (pa, op, pb), t, lo, hi, tags, uses)
    raise ValueError(op)


def neg(x):
    t = promote(x.ty)
    px, lo, hi, _ = _conv(x, t)
    tags = set(x.tags) | {"negcoef"}
    py, lo, hi = _result("(-%s)" % px, -hi, -lo, t, tags)
    return IE("(-%s)" % x.c, py, t, lo, hi, tags, x.uses)


def bnot(x):
    t = promote(x.ty)
    px, lo, hi, _ = _conv(x, t)
    tags = set(x.tags) | {"not"}
    if t.signed:
        return IE("(~%s)" % x.c, "(~%s)" % px, t, -hi - 1, -lo - 1, tags, x.uses)
    return IE("(~%s)" % x.c, "(%d - %s)" % (t.mask, px), t, t.mask - hi,
              t.mask - lo, tags, x.uses)


def compare(op, a, b):
    """a op b (op: < <= > >= == !=): an int 0 or 1."""
    t = usual(a.ty, b.ty)
    pa, _, _, ca = _conv(a, t)
    pb, _, _, cb = _conv(b, t)
    tags = a.tags | b.tags
    if ca or cb:
        tags.add("signchange")
    return IE("(%s %s %s)" % (a.c, op, b.c), "(%s %s %s)" % (pa, op, pb), INT,
              0, 1, tags, a.uses | b.uses)


def cond(c, x, y, tag="cond"):
    """c ? x : y."""
    t = usual(x.ty, y.ty)
    px, xlo, xhi, _ = _conv(x, t)
    py_, ylo, yhi, _ = _conv(y, t)
    tags = c.tags | x.tags | y.tags | {tag}
    return IE("(%s ? %s : %s)" % (c.c, x.c, y.c),
              "(%s if %s else %s)" % (px, c.py, py_), t, min(xlo, ylo),
              max(xhi, yhi), tags, c.uses | x.uses | y.uses)


# Whether the program being drawn is C++ (Program.cxx): min and max are
# then std::min and std::max, whose parameters are references.
_CXX = [False]


def _std_minmax(name, a, b, e):
    """e (a's and b's c ? x : y) written as std::<name><T>(a, b), T the type
    both convert to: the same comparison and value."""
    t = usual(a.ty, b.ty)
    return IE("std::%s<%s>(%s, %s)" % (name, t.cname, a.c, b.c), e.py, e.ty,
              e.lo, e.hi, e.tags | {"std-minmax"}, e.uses)


def imin(a, b):
    e = cond(compare("<", a, b), a, b, "minmax")
    return _std_minmax("min", a, b, e) if _CXX[0] else e


def imax(a, b):
    e = cond(compare(">", a, b), a, b, "minmax")
    return _std_minmax("max", a, b, e) if _CXX[0] else e


def add(a, b):
    return binop("+", a, b)


def sub(a, b):
    return binop("-", a, b)


def mul(a, b):
    return binop("*", a, b)


# ---------------------------------------------------------------------------
# Program model
# ---------------------------------------------------------------------------


class FType:
    """float or double."""

    def __init__(self, cname, bits):
        self.cname, self.bits = cname, bits
        self.signed = True

    def __repr__(self):
        return self.cname


FLOAT = FType("float", 32)
DOUBLE = FType("double", 64)
VALUE_ELEMS = INT_ELEMS + [FLOAT, DOUBLE, FLOAT, DOUBLE]

MAX_ELEMS = 1 << 20          # largest array (elements) a subscript may need
MAX_BYTES = 4 << 20          # largest array (bytes): keeps every run short
MAX_POINTS = 250_000         # brute-force points per access context


def is_fp(t):
    return isinstance(t, FType)


def elem_size(t):
    return t.bits // 8


class Scalar:
    """A host variable passed to kernels by value (firstprivate)."""

    def __init__(self, name, ty, value, const=False):
        self.name, self.ty, self.value, self.const = name, ty, value, const
        self.init = value


class Loaded:
    """An integer read from mapped memory at a fixed address: a member of
    the struct `prm` (mapped by reference), of `*pp` (a struct reached
    through a pointer) or an element of `meta[]` / `mw[]`."""

    def __init__(self, ctext, pyname, ty, value, where):
        self.ctext, self.pyname, self.ty, self.value = ctext, pyname, ty, value
        self.where = where


class Array:
    """A mapped array. kind: flat (T *a), 2d (T (*a)[cols]), aos (struct rec
    *a, elements have members), soa (a pointer member of the struct *S),
    idx / perm (read-only index arrays filled from a formula), meta (ints
    read as loaded scalars), mw (ints written by a producer kernel, then read
    as loaded scalars)."""

    def __init__(self, name, kind, etype, cols=None, members=None):
        self.name, self.kind, self.etype = name, kind, etype
        self.cols = cols
        self.members = members or []
        self.maxidx = -1            # largest leading index used
        self.fixed_len = None       # idx/perm/meta/mw: length fixed up front
        self.slack = 0
        self.written = False
        self.touched_by = []        # kernel ids, in order
        self.host_touch_before = set()  # kernel ids preceded by a host touch
        self.formula = None         # idx/perm: (P, Q, R)
        self.values = None          # meta/mw: Python list of values
        self.want_from = False
        self.map = "tofrom"
        self.first_cover = None     # (kernel id, covered elements) for from/alloc

    @property
    def length(self):
        if self.fixed_len is not None:
            return self.fixed_len
        return max(self.maxidx + 1, 1) + self.slack

    @property
    def cexpr(self):
        """How the host names the data pointer."""
        if self.kind == "soa":
            return "S->%s" % self.name
        return self.name


class View:
    """A host pointer `T *v = a + off` into a flat array, passed to kernels."""

    def __init__(self, name, arr, off):
        self.name, self.arr, self.off = name, arr, off


class InnerLoop:
    """A serial loop inside a kernel body."""

    def __init__(self, name, ty, init, cond, bound, step, incr):
        self.name, self.ty = name, ty
        self.init, self.cond, self.bound, self.step = init, cond, bound, step
        self.incr = incr            # C text of the increment
        cmp = usual(ty, bound.ty)
        self.nonneg = not cmp.signed
        self.init_py = convert_to(ty, init).py
        self.bound_py = _conv(bound, cmp)[0]

    def header(self, decl=True):
        op = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "ne": "!="}[self.cond]
        d = "%s %s = %s" % (self.ty.cname, self.name, self.init.c) if decl else \
            "%s = %s" % (self.name, self.init.c)
        return "for (%s; %s %s %s; %s)" % (d, self.name, op, self.bound.c,
                                           self.incr)

    def py_iter(self):
        return "_iloop(%s, %s, %r, %d, %d, %d, %s)" % (
            self.init_py, self.bound_py, self.cond, self.step, self.ty.lo,
            self.ty.hi, self.nonneg)


class Level:
    """One loop of the collapsed nest."""

    def __init__(self, name, ty, init, cond, bound, step, step_c, incr):
        self.name, self.ty = name, ty
        self.init, self.cond, self.bound, self.step = init, cond, bound, step
        self.step_c, self.incr = step_c, incr
        cmp = usual(ty, bound.ty)
        a = ty.convert(init.lo) if not ty.holds(init.lo, init.lo) else init.lo
        if not ty.holds(init.lo, init.lo):
            raise Reject("init does not fit the counter")
        b = cmp.convert(bound.lo)
        if b != bound.lo and not cmp.signed:
            raise Reject("negative bound in an unsigned comparison")
        self.values = _iloop(a, b, cond, step, ty.lo, ty.hi, not cmp.signed)

    def header(self, decl=True):
        op = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "ne": "!="}[self.cond]
        d = "%s %s = %s" % (self.ty.cname, self.name, self.init.c) if decl else \
            "%s = %s" % (self.name, self.init.c)
        return "for (%s; %s %s %s; %s)" % (d, self.name, op, self.bound.c,
                                           self.incr)


class Stmt:
    """A statement of a kernel body or of host code: text lines plus nested
    blocks. kind: line, for, if, block."""

    def __init__(self, kind, text="", body=None, orelse=None, tags=()):
        self.kind, self.text = kind, text
        self.body = body or []
        self.orelse = orelse or []
        self.tags = set(tags)

    def emit(self, ind, out):
        pad = "  " * ind
        if self.kind == "line":
            out.append(pad + self.text)
        elif self.kind == "for":
            out.append(pad + self.text + " {")
            for s in self.body:
                s.emit(ind + 1, out)
            out.append(pad + "}")
        elif self.kind == "if":
            out.append(pad + "if (%s) {" % self.text)
            for s in self.body:
                s.emit(ind + 1, out)
            if self.orelse:
                out.append(pad + "} else {")
                for s in self.orelse:
                    s.emit(ind + 1, out)
            out.append(pad + "}")
        elif self.kind == "block":
            out.append(pad + "{")
            for s in self.body:
                s.emit(ind + 1, out)
            out.append(pad + "}")


def line(text, tags=()):
    return Stmt("line", text, tags=tags)


class RedVar:
    def __init__(self, name, ty, op, init_c):
        self.name, self.ty, self.op, self.init_c = name, ty, op, init_c


_CODE_CACHE = {}


class Kernel:
    """One offloaded loop nest and everything checked about it."""

    def __init__(self, prog, kid):
        self.prog, self.kid = prog, kid
        self.levels = []
        self.body = []
        self.reductions = []
        self.clauses = []
        self.directive = ""
        self.envs = [dict()]          # per launch: values that differ from
                                      # the program's current ones (relaunch)
        self.rep = None               # (scalar, values) of a relaunch loop
        self.tags = set()
        self.line = None
        self.writes = []              # per launch: {elemkey array name: {elem: t}}
        self.reads = []               # per launch: {name: [(elems, owners)]}
        self.points = 0
        self.space = 0
        self.split_counter_decl = False  # counters declared before the pragma
        self._points = {}
        self.rep_atom = None

    # -- evaluation -------------------------------------------------------

    def evaluate(self, loops, exprs, uses=None):
        """Brute force: for each launch, the values of the Python expressions
        exprs at every point of the collapsed nest x the inner loops `loops`
        (outermost first), and the parallel iteration (owner) of each point.
        uses: the loop counters the expressions read; inner loops below the
        last one used are left out (their points only repeat values).
        Returns [(lists, owners)] per launch; raises UB/Reject."""
        if uses is not None:
            keep = max((i + 1 for i, lp in enumerate(loops) if lp.name in uses),
                       default=0)
            loops = loops[:keep]
        depth = len(self.levels)
        names = ", ".join(l.name for l in self.levels)
        if depth == 1:
            gen = "for t, %s in enumerate(LV0)" % names
        else:
            gen = "for t, (%s) in enumerate(_prod(%s))" % (
                names, ", ".join("LV%d" % i for i in range(depth)))
        for lp in loops:
            gen += " for %s in %s" % (lp.name, lp.py_iter())
        src = ["def _f():"]
        if depth == 1 and not loops:
            src.append("  T = range(len(LV0))")
        else:
            src.append("  T = [t %s]" % gen)
        for k, e in enumerate(exprs):
            src.append("  R%d = [%s %s]" % (k, e, gen))
        src.append("  return [%s], T" % ", ".join("R%d" % k
                                                  for k in range(len(exprs))))
        text = "\n".join(src)
        code = _CODE_CACHE.get(text)
        if code is None:
            code = compile(text, "<access>", "exec")
            if len(_CODE_CACHE) > 2000:
                _CODE_CACHE.clear()
            _CODE_CACHE[text] = code
        out = []
        base = self.prog.current_env()
        for env in self.envs:
            ns = dict(EVAL_HELPERS)
            ns.update(base)
            ns.update(env)
            ns["_prod"] = itertools.product
            for i, l in enumerate(self.levels):
                ns["LV%d" % i] = l.values
            exec(code, ns)
            try:
                out.append(ns["_f"]())
            except (ZeroDivisionError, OverflowError) as e:
                raise UB(str(e))
        return out

    def context_points(self, loops):
        """Number of points of the collapsed nest x loops (first launch)."""
        # keyed by the loop objects themselves (kept alive by the key): an
        # id() of a dropped loop could be reused by a new one
        key = tuple(loops)
        n = self._points.get(key)
        if n is None:
            n = self._points[key] = len(self.evaluate(loops, [])[0][1])
        return n

    # -- race and bounds checks -------------------------------------------

    def check_write(self, key, per_launch):
        """per_launch: [(elems, owners)]. Each element may be written by one
        parallel iteration only, and read by no other one."""
        for L, (elems, owners) in enumerate(per_launch):
            wmap = self.writes[L].setdefault(key, {})
            new = {}
            for e, t in zip(elems, owners):
                o = new.setdefault(e, t)
                if o != t:
                    raise Reject("write is not injective")
                o = wmap.get(e)
                if o is not None and o != t:
                    raise Reject("write collides with another write")
            for relems, rowners in self.reads[L].get(key, ()):
                for e, t in zip(relems, rowners):
                    o = new.get(e)
                    if o is not None and o != t:
                        raise Reject("write races with a read")
        for L, (elems, owners) in enumerate(per_launch):
            self.writes[L][key].update(zip(elems, owners))

    def check_read(self, key, per_launch):
        for L, (elems, owners) in enumerate(per_launch):
            wmap = self.writes[L].get(key)
            if wmap:
                for e, t in zip(elems, owners):
                    o = wmap.get(e)
                    if o is not None and o != t:
                        raise Reject("read races with a write")
        for L, pair in enumerate(per_launch):
            self.reads[L].setdefault(key, []).append(pair)


class Scope:
    """What a subscript may use at one point of a kernel body: the collapsed
    counters, the enclosing inner loops, index locals."""

    def __init__(self, K, loops=(), conditional=False):
        self.K = K
        self.loops = list(loops)
        self.conditional = conditional

    def child(self, loop=None, conditional=False):
        s = Scope(self.K, self.loops + ([loop] if loop else []),
                  self.conditional or conditional)
        return s

    def par(self):
        """(atom, lo, hi, spacing) of each collapsed counter."""
        out = []
        for l in self.K.levels:
            v = l.values
            lo, hi = (min(v[0], v[-1]), max(v[0], v[-1])) if len(v) else (0, 0)
            out.append((atom(l.name, l.name, l.ty, lo, hi, {"counter"},
                             {l.name}), lo, hi, abs(l.step)))
        return out

    def inner(self):
        out = []
        for lp in self.loops:
            # "ne" counts up or down by its step's sign, its bound excluded
            if lp.cond in ("lt", "le") or (lp.cond == "ne" and lp.step > 0):
                lo = lp.init.lo
                hi = lp.bound.hi - (0 if lp.cond == "le" else 1)
            else:
                hi = lp.init.hi
                lo = lp.bound.lo + (0 if lp.cond == "ge" else 1)
            lo, hi = max(lo, lp.ty.lo), min(hi, lp.ty.hi)
            if hi < lo:
                hi = lo
            out.append((atom(lp.name, lp.name, lp.ty, lo, hi,
                             {"counter", "inner-counter"}, {lp.name}),
                        lo, hi, abs(lp.step)))
        return out


class Program:
    def __init__(self, seed, diag=False, keep=None):
        self.seed = seed
        self.keep = keep         # kernel ids to emit (None: all); producers stay
        self.rng = random.Random(seed)
        # C++ (about a third of the seeds), drawn apart from self.rng so that
        # a seed's C program stays the same: std::min/std::max for min and
        # max, and stores whose value goes through a generic lambda.
        self.cxx = random.Random(seed * 1000003 + 7).random() < 0.3
        self.cxx_rng = random.Random(seed * 1000003 + 11)
        self.diag = diag
        self.scalars = []
        self.loaded = []
        self.arrays = []
        self.views = []
        self.enums = []
        self.prm_members = []    # (name, type, initial value)
        self.pp_members = []
        self.events = []         # ("kernel", K) or ("host", [Stmt], info)
        self.kernels = []
        self.redvars = []
        self.counter = itertools.count()
        self.meta = None
        self.mw = None
        self.uses_f2i = False
        self.uses_mix = False
        self.helper_types = {}    # suffix -> C element type of hld_/hst_ helpers
        self.uses_hix = False     # the index helper hix (rtm8's indexTo1D)
        self.uses_rng = False
        self._last_flat = None
        self.aos_members = None
        self.writing = False     # drawing a write subscript

    # -- names, scalars, loaded values ------------------------------------

    def name(self, prefix):
        return "%s%d" % (prefix, next(self.counter))

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, items, weights=None):
        if weights is None:
            return self.rng.choice(items)
        return self.rng.choices(items, weights)[0]

    def type_holding(self, v, prefer=None):
        """A random scalar type that holds v."""
        cands = [t for t in SCALAR_TYPES if t.holds(v, v)]
        if not cands:
            raise Reject("no type holds %d" % v)
        if prefer:
            p = [t for t in prefer if t.holds(v, v)]
            if p and self.chance(0.6):
                return self.pick(p)
        t = self.pick(cands)
        if self.enums and self.chance(0.08) and INT.holds(v, v):
            e = self.pick(self.enums)
            if e.holds(v, v):
                return e
        return t

    def new_enum(self):
        neg = self.chance(0.4)
        name = "e%d" % len(self.enums)
        t = IntType("enum %s" % name, 32, neg, 3, enum=True)
        t.enumerators = ["%s_%s" % (name.upper(), c) for c in "ABC"]
        t.values = [-1 if neg else 0, 3, 100]
        self.enums.append(t)
        return t

    def scalar(self, v, ty=None, prefix="s"):
        """A new firstprivate scalar argument holding v; its atom."""
        ty = ty or self.type_holding(v)
        s = Scalar(self.name(prefix), ty, v, const=self.chance(0.1))
        self.scalars.append(s)
        return self.scalar_atom(s)

    def scalar_atom(self, s):
        return atom(s.name, s.name, s.ty, s.value, s.value,
                    {"arg", "arg-" + s.ty.cname.replace(" ", "_")})

    def loaded_value(self, v, ty=None):
        """v read from mapped memory (prm.x, pp->x, meta[k], mw[k])."""
        where = self.pick(["prm", "pp", "meta", "meta", "mw"])
        if where == "mw" and self.mw is not None and self.mw.values:
            # an element a producer kernel wrote, if one holds v
            for k, x in enumerate(self.mw.values):
                if x == v:
                    L = Loaded("mw[%d]" % k, "Lmw%d" % k, self.mw.etype, v, "mw")
                    return self.loaded_atom(L)
        if where in ("meta", "mw"):
            if self.meta is None:
                self.meta = Array("meta", "meta", self.pick([I32, I64, INT]))
                self.meta.values = []
                self.arrays.append(self.meta)
            if not self.meta.etype.holds(v, v):
                where = "prm"
            else:
                k = len(self.meta.values)
                self.meta.values.append(v)
                L = Loaded("meta[%d]" % k, "Lmeta%d" % k, self.meta.etype, v,
                           "meta")
                self.loaded.append(L)
                return self.loaded_atom(L)
        ty = ty if ty and ty.holds(v, v) else self.type_holding(
            v, [INT, LONG, UINT, SIZE, I16, U8])
        if ty.enum:
            ty = INT if INT.holds(v, v) else LONG
        members = self.prm_members if where == "prm" else self.pp_members
        mname = "m%d" % len(members)
        members.append([mname, ty, v])
        ctext = ("prm.%s" if where == "prm" else "pp->%s") % mname
        L = Loaded(ctext, "L%s_%s" % (where, mname), ty, v, where)
        L.member = members[-1]
        self.loaded.append(L)
        return self.loaded_atom(L)

    def loaded_atom(self, L):
        return atom(L.ctext, L.pyname, L.ty, L.value, L.value,
                    {"loaded", "loaded-" + L.where})

    def current_env(self):
        env = {s.name: s.value for s in self.scalars}
        for L in self.loaded:
            env[L.pyname] = L.value
        if self.mw is not None and self.mw.values:
            for k, x in enumerate(self.mw.values):
                env["Lmw%d" % k] = x
        return env

    def const(self, v, prefer_lit=0.6):
        """v as a literal, a scalar argument or a loaded value."""
        if not LONG.holds(v, v):
            raise Reject("constant out of range")
        r = self.rng.random()
        if r < prefer_lit:
            t = INT if INT.holds(v, v) else LONG
            if v >= 0 and self.chance(0.15):
                t = self.pick([UINT, LONG, SIZE, ULONG]) if UINT.holds(v, v) \
                    else self.pick([LONG, SIZE])
            return lit(v, t)
        # loaded values in write subscripts make the analysis refuse whenever
        # the kernel stores integers of the same size: rarer there
        share = 0.93 if self.writing else 0.7
        if r < prefer_lit + (1 - prefer_lit) * share:
            return self.scalar(v)
        return self.loaded_value(v)

    # -- arrays -------------------------------------------------------------

    def new_array(self, kind="flat", etype=None):
        etype = etype or self.pick(VALUE_ELEMS)
        a = Array(self.name("a" if kind != "2d" else "A"), kind, etype)
        if kind == "2d":
            a.cols = self.pick([7, 16, 33, 64, 100, 256, 300])
            a.vla = self.chance(0.4)
        # sometimes far more room than the subscripts need: a write section
        # computed too large then still lies inside the buffer
        a.slack = self.pick([0, 0, 1, 3, 17, 100, 300, 2000])
        a.want_from = kind == "flat" and self.chance(0.25)
        if a.want_from:
            a.slack = 0
        self.arrays.append(a)
        return a

    def new_index_array(self, perm_n=None):
        """A read-only array of indices: idx[k] = (k*P + Q) % R."""
        t = self.pick([I32, U16, I64, U32, U8, I16])
        if perm_n is not None:
            n = perm_n
            P = self.pick([p for p in (3, 5, 7, 11, 13, 101, 1009, 7919)
                           if math.gcd(p, n) == 1] or [1])
            a = Array(self.name("perm"), "perm", t if t.holds(n, n) else I32)
            a.formula = (P, self.rng.randrange(n), n)
            a.fixed_len = n
        else:
            R = self.pick([16, 100, 256, 1000, 4096, 50000])
            if not t.holds(R, R):
                t = I32
            a = Array(self.name("idx"), "idx", t)
            a.formula = (self.pick([1, 3, 7, 31, 97, 2654435761 % 100003]),
                         self.rng.randrange(1000), R)
        self.arrays.append(a)
        return a

    def data_arrays(self):
        return [a for a in self.arrays if a.kind in ("flat", "2d", "aos", "soa")]

    # -- accesses -------------------------------------------------------------

    def access(self, K, scope, arr, role, sub, col=None, member=None,
               allow_view=True):
        """Checks one access over the whole iteration space (bounds, races),
        shifting a subscript that goes negative, and returns its C text."""
        if role == "w" and scope.conditional:
            K.cond_or_read.add(arr.name)
        if role == "r":
            K.cond_or_read.add(arr.name)
        exprs = [sub.py] + ([col.py] if col is not None else [])
        uses = sub.uses | (col.uses if col is not None else set())
        per = K.evaluate(scope.loops, exprs, uses)
        lo = min((min(r[0]) for r, _ in per if r[0]), default=0)
        hi = max((max(r[0]) for r, _ in per if r[0]), default=0)
        view = None
        if lo < 0:
            if arr.kind == "flat" and allow_view and self.chance(0.35):
                off = -lo + self.pick([0, 0, 1, 5])
                view = self.view_of(arr, off)
            else:
                k = -lo + self.pick([0, 0, 1, 2, 9])
                t = usual(sub.ty, INT)
                if not t.holds(lo + k, hi + k):
                    raise Reject("shift overflows")
                sub = add(sub, self.const(k, 0.7))
                per = [([[e + k for e in r[0]]] + r[1:], o) for r, o in per]
                lo, hi = lo + k, hi + k
        base = view.off if view else 0
        top = max(hi, 0) + base
        if top >= MAX_ELEMS or (top + 1) * self.row_bytes(arr) > MAX_BYTES:
            raise Reject("array too large")
        if arr.kind in ("perm",) and hi >= arr.fixed_len:
            raise Reject("past the permutation")
        if arr.kind == "meta" or arr.kind == "mw":
            raise Reject("meta arrays are not accessed by subscripts")
        if col is not None:
            clo = min((min(r[1]) for r, _ in per if r[1]), default=0)
            chi = max((max(r[1]) for r, _ in per if r[1]), default=0)
            if clo < 0 or chi >= arr.cols:
                raise Reject("column out of range")
        # element keys for the race check
        if arr.kind == "2d":
            keyed = [([r * arr.cols + c for r, c in zip(vals[0], vals[1])], o)
                     for vals, o in per]
        elif arr.kind == "aos":
            nm = len(self.aos_members)
            keyed = [([e * nm + member for e in vals[0]], o) for vals, o in per]
        elif base:
            keyed = [([e + base for e in vals[0]], o) for vals, o in per]
        else:
            keyed = [(vals[0], o) for vals, o in per]
        if role == "w":
            K.check_write(arr.name, keyed)
            K.written.add(arr.name)
            # a truncated write subscript whose exact range (as an analysis
            # that ignores the cast would see it) still lies inside the
            # buffer: give the array that much room now and then
            if "trunc8" in sub.tags and arr.kind == "flat" and self.chance(0.5):
                arr.slack = max(arr.slack, 300)
                arr.want_from = False
            if "trunc16" in sub.tags and arr.kind == "flat" and self.chance(0.3) \
                    and (hi + 66000) * self.row_bytes(arr) < MAX_BYTES:
                arr.slack = max(arr.slack, 66000)
                arr.want_from = False
        else:
            K.check_read(arr.name, keyed)
        # (a view must point inside its array: a pointer past the end is
        # not found among the mapped buffers, and is UB in C; top >= base)
        K.pending_max[arr.name] = max(K.pending_max.get(arr.name, -1), top)
        K.touched.add(arr.name)
        K.points += sum(len(o) for _, o in per)
        K.tags |= sub.tags
        if col is not None:
            K.tags |= col.tags
        K.tags.add("%s-%s" % ({"r": "read", "w": "write"}[role], arr.kind))
        for t in sub.tags:
            if t.startswith(("trunc", "wrap", "signchange")):
                K.tags.add("%s-%s" % (role == "w" and "write" or "read", t))
        self._last_sub = sub
        # C text
        name = view.name if view else arr.cexpr
        self._last_flat = None
        if arr.kind == "flat":
            self._last_flat = (name, sub.c, arr.etype)
            if role == "r" and self.chance(0.1):
                return self.helper_read(K, name, sub.c, arr.etype)
            if self.chance(0.06):
                # An index computed by a helper whose body is one return
                # (HeCBench rtm8's indexTo1D), read or written.
                K.tags.add("index-helper")
                self.uses_hix = True
                return "%s[hix(%s, 0)]" % (name, sub.c)
        if arr.kind == "2d":
            return "%s[%s][%s]" % (name, sub.c, col.c)
        if arr.kind == "aos":
            return "%s[%s].%s" % (name, sub.c, self.aos_members[member][0])
        r = self.rng.random()
        if arr.kind == "flat" and r < 0.1:
            K.tags.add("deref-form")
            return "*(%s + %s)" % (name, sub.c)
        if arr.kind == "flat" and r < 0.13:
            K.tags.add("swapped-subscript")
            return "%s[%s]" % (sub.c, name)
        return "%s[%s]" % (name, sub.c)

    def helper_suffix(self, t):
        sfx = re.sub(r"\W+", "_", t.cname)
        self.helper_types[sfx] = t.cname
        return sfx

    def helper_read(self, K, name, sub_c, t):
        """An element read through a helper function that takes the mapped
        pointer (and the subscript as a long long parameter, or the
        element's address)."""
        sfx = self.helper_suffix(t)
        K.tags.add("call-read")
        return self.pick(["hld_%s(%s, %s)" % (sfx, name, sub_c),
                          "hldp_%s(&%s[%s])" % (sfx, name, sub_c),
                          "hldp_%s(%s + %s)" % (sfx, name, sub_c),
                          "hld_%s(%s + 0, %s)" % (sfx, name, sub_c)])

    def helper_write(self, K, name, sub_c, t, val):
        sfx = self.helper_suffix(t)
        K.tags.add("call-write")
        return self.pick(["hst_%s(%s, %s, %s);" % (sfx, name, sub_c, val),
                          "hstp_%s(&%s[%s], %s);" % (sfx, name, sub_c, val)])

    def row_bytes(self, arr):
        """Bytes per leading index of arr."""
        if arr.kind == "2d":
            return arr.cols * elem_size(arr.etype)
        if arr.kind == "aos":
            return 8 * len(self.aos_members)
        return elem_size(arr.etype)

    def view_of(self, arr, off):
        for v in self.views:
            if v.arr is arr and v.off == off:
                return v
        v = View(self.name("v"), arr, off)
        self.views.append(v)
        return v

    def gather(self, K, scope, sub, perm=None):
        """idx[sub] as an IE (its value is known from the formula)."""
        arr = perm
        if arr is None:
            cands = [a for a in self.arrays if a.kind == "idx"]
            arr = self.pick(cands) if cands and self.chance(0.7) else \
                self.new_index_array()
        text = self.access(K, scope, arr, "r", sub, allow_view=False)
        P, Q, R = arr.formula
        # self._last_sub: the subscript as access() left it (maybe shifted)
        return IE(text, "(((%s) * %d + %d) %% %d)" % (
            self._last_sub.py, P, Q, R), arr.etype, 0, R - 1,
            self._last_sub.tags | {"gather"}, self._last_sub.uses)

    # -- subscript families ------------------------------------------------

    def coef(self, c):
        """A positive coefficient: literal, or sometimes a scalar/loaded
        leading dimension."""
        if c > 1 and self.chance(0.25):
            a = self.const(c, 0.0)
            a.tags.add("ld")
            return a
        return lit(c, self.pick([INT, INT, INT, LONG, UINT]) if c < 1 << 31
                   else LONG)

    def linear(self, terms):
        """Sum of coef * atom; terms: [(atom, coef)], outermost first."""
        e = None
        for a, c in terms:
            if any(not t.signed for t in (a.ty,)) and c < 0 and self.chance(0.7):
                a = cast(self.pick([INT, LONG]) if a.hi <= INT.hi else LONG, a)
            m = abs(c)
            term = a if m == 1 else (mul(self.coef(m), a) if self.chance(0.5)
                                     else mul(a, self.coef(m)))
            if e is None:
                e = term if c > 0 else (neg(term) if self.chance(0.5) else
                                        mul(lit(-m), a) if m > 1 else neg(a))
            else:
                e = add(e, term) if c > 0 else sub(e, term)
        return e

    def injective_par(self, scope, use_inner=False, levels=None):
        """A linear expression that differs between any two parallel
        iterations (row-major over the collapsed counters in a random order),
        plus inner counters below the outer stride."""
        par = scope.par() if levels is None else levels
        order = par[:]
        self.rng.shuffle(order)
        terms, span = [], 0
        if use_inner:
            inner = scope.inner()
            self.rng.shuffle(inner)
            for a, lo, hi, sp in inner:
                c = self.pick([1, 1, 1, 2, -1])
                terms.append((a, c))
                span += abs(c) * (hi - lo)
        for a, lo, hi, sp in reversed(order):
            if not terms and self.writing and hi - lo <= 255 and self.chance(0.3):
                # the innermost counter through a truncating cast that stays
                # injective on its range: A*i + (uint8_t)(j + 200)
                k = self.pick([200, 56, 255, 129])
                t = cast(U8, add(a, lit(k))) if self.chance(0.7) else \
                    add(cast(I8, add(a, lit(-lo, INT if INT.holds(-lo, -lo) else LONG))), lit(128))
                terms.append((t, 1))
                span = 255
                continue
            if terms:
                c = (span // sp + 1) * self.pick([1, 1, 1, 1, 2])
                if self.chance(0.1):
                    c += self.rng.randrange(1, 5)
            else:
                c = self.pick([1, 1, 1, 1, 1, 2, 3])
            if self.chance(0.2):
                c = -c
            terms.append((a, c))
            span += abs(c) * (hi - lo)
        if not terms:
            return lit(0)
        terms.reverse()
        return self.linear(terms)

    def anylinear(self, scope):
        """Any linear combination of the counters in scope (not injective)."""
        cands = scope.par() + scope.inner()
        k = self.pick([1, 1, 1, 2, 2, 3])
        chosen = self.rng.sample(cands, min(k, len(cands)))
        terms = [(a, self.pick([1, 1, 1, 2, 3, -1, -2, 5])) for a, *_ in chosen]
        return self.linear(terms)

    def w_transform(self, K, scope, e):
        """An injectivity-preserving rewrite of e (a write subscript)."""
        kind = self.pick(
            ["none", "offset", "negate", "stride", "xor", "shl", "wrap32",
             "trunc", "castchain", "cond", "perm", "u64wrap"],
            [14, 16, 6, 5, 4, 3, 8, 10, 5, 3, 2, 1.5])
        span = e.hi - e.lo
        if kind == "none":
            return e
        if kind == "offset":
            r = self.rng.random()
            if K.rep_atom is not None and r < 0.5:
                return add(e, K.rep_atom)
            if r < 0.2 and self.scalars:
                # an existing scalar, whatever its current value
                s = self.pick(self.scalars)
                if abs(s.value) < 100000:
                    return add(e, self.scalar_atom(s))
            if r < 0.3 and self.loaded:
                L = self.pick(self.loaded)
                if abs(L.value) < 100000:
                    return add(e, self.loaded_atom(L))
            k = self.pick([self.rng.randrange(-60, 60), self.rng.randrange(0, 5000)])
            if self.chance(0.3) and k >= 0:
                # an offset of any scalar type, wrapping included
                t = self.pick(SCALAR_TYPES)
                if t.holds(k, k):
                    return add(e, self.scalar(k, t))
            return add(e, self.const(k))
        if kind == "negate":
            k = e.hi + self.pick([0, 0, 3, 100])
            return sub(self.const(k), e)
        if kind == "stride":
            s = self.pick([2, 3, 4])
            r = self.rng.randrange(s)
            x = mul(e, lit(s))
            return add(x, lit(r)) if r else x
        if kind == "xor":
            return binop("^", e, lit(self.pick([1, 2, 3, 5, 7, 12])))
        if kind == "shl":
            if e.lo < 0:
                e = sub(e, lit(e.lo, LONG if e.lo < INT.lo else INT))
            k = self.pick([1, 2, 3])
            x = binop("<<", e, lit(k))
            return binop("|", x, lit(self.rng.randrange(1 << k))) if \
                self.chance(0.5) else x
        if kind == "wrap32":
            return self.wrap32(e)
        if kind == "trunc":
            return self.trunc_bijective(e)
        if kind == "castchain":
            return self.castchain(e)
        if kind == "cond":
            k = self.rng.randrange(e.lo, e.hi + 1) if span < 1 << 40 else e.lo
            d = span + 1 + self.pick([0, 5])
            return cond(compare(self.pick(["<", "<="]), e, self.const(k)), e,
                        add(e, lit(d, INT if d <= INT.hi else LONG)))
        if kind == "perm":
            if e.lo != 0:
                e = sub(e, lit(e.lo, INT if INT.holds(e.lo, e.lo) else LONG))
            n = e.hi + 1 + self.pick([0, 0, 7])
            if n > 300000:
                raise Reject("permutation too large")
            p = self.new_index_array(perm_n=n)
            return self.gather(K, scope, e, perm=p)
        if kind == "u64wrap":
            if e.lo < 1:
                raise Reject("u64wrap needs a positive subscript")
            d = self.rng.randrange(1, min(e.lo, 50) + 1)
            v = (1 << 64) - d
            x = self.scalar(v, self.pick([SIZE, U64, ULONG])) if self.chance(0.6) \
                else lit(v, self.pick([ULONG, SIZE]))
            return add(e, x)
        raise ValueError(kind)

    def wrap32(self, e):
        """e - d computed as e + (2^32 - d) in unsigned 32-bit arithmetic."""
        if promote(e.ty).bits != 32:
            if not INT.holds(e.lo, e.hi):
                raise Reject("wrap32 needs a 32-bit subscript")
            e = cast(self.pick([INT, UINT, I32]), e)
        if self.chance(0.25) and e.hi - e.lo >= 2 and e.lo >= 0:
            # the wrap happens inside the range: (unsigned)e - K wraps for
            # e < K only, + K brings every value back
            k = self.rng.randrange(e.lo + 1, e.hi + 1)
            x = add(sub(cast(UINT, e), lit(k, UINT)), self.const(k, 0.5)
                    if self.chance(0.3) else lit(k, UINT))
            x.tags.add("wrap32")
            return x
        if e.lo >= 1 and self.chance(0.7):
            d = self.rng.randrange(1, min(e.lo, 40) + 1)
            inner = e
        else:
            d = self.rng.randrange(1, 40)
            inner = add(e, lit(d, UINT))
        v = (1 << 32) - d
        r = self.rng.random()
        if r < 0.5:
            u = self.scalar(v, self.pick([UINT, U32]), prefix="u")
        elif r < 0.8:
            u = lit(v, UINT)
        else:
            u = self.loaded_value(v, UINT)
            if not u.ty.holds(v, v) or u.ty.bits != 32 or u.ty.signed:
                u = lit(v, UINT)
        x = add(inner, u) if self.chance(0.7) else add(u, inner)
        x.tags.add("wrap32")
        return x

    def trunc_bijective(self, e):
        """A truncating cast that stays injective on e's range."""
        span = e.hi - e.lo
        opts = []
        if span <= 255:
            opts += ["u8", "i8", "u8x3"]
        if span <= 65535:
            opts += ["u16", "i16"]
        if INT.holds(e.lo, e.hi):
            opts += ["i32", "u32"]
        if not opts:
            raise Reject("range too wide for a truncating cast")
        k = self.pick(opts)
        if k == "u8":
            return cast(U8, add(e, lit(self.pick([200, 255, 56, 129]))))
        if k == "u8x3":
            return cast(self.pick([U8, U8, U16]), mul(e, lit(3)))
        if k == "i8":
            base = e if e.lo >= 0 else sub(e, lit(e.lo))
            return add(cast(I8, base), lit(128))
        if k == "u16":
            return cast(U16, add(e, lit(self.pick([65000, 65535, 40000]))))
        if k == "i16":
            base = e if e.lo >= 0 else sub(e, lit(e.lo))
            return add(cast(I16, base), lit(32768))
        if k == "i32":
            return cast(INT, add(e, lit(1 << 32, LONG)))
        return cast(UINT, add(e, lit(self.pick([1 << 32, 3 << 32]), LONG)))

    def castchain(self, e):
        k = self.pick(["int-long", "long-unsigned", "size", "short", "i64"])
        if k == "int-long" and INT.holds(e.lo, e.hi):
            return cast(INT, cast(LONG, e))
        if k == "long-unsigned":
            return cast(LONG, cast(UINT, e))
        if k == "size":
            return cast(SIZE, e)
        if k == "short" and SHORT.holds(e.lo, e.hi):
            return cast(SHORT, e)
        return cast(I64, e)

    def r_transform(self, K, scope, e):
        """Any rewrite of e for a read subscript (bounds are fixed later)."""
        kind = self.pick(
            ["w", "mod", "div", "shr", "and", "or", "minmax", "parity",
             "gather", "loaded", "trunc", "sum", "nonlinear", "arg"],
            [30, 8, 7, 5, 5, 3, 5, 3, 6, 6, 8, 4, 2, 6])
        if kind == "w":
            return self.w_transform(K, scope, e)
        if kind == "mod":
            m = self.pick([3, 7, 16, 100, 256, 1000])
            if e.lo < 0 and self.chance(0.5):
                e = sub(e, lit(e.lo, LONG))
            return binop("%", e, self.const(m, 0.6))
        if kind == "div":
            return binop("/", e, self.const(self.pick([2, 3, 4, 7, 10]), 0.6))
        if kind == "shr":
            return binop(">>", e, lit(self.pick([1, 2, 3, 4])))
        if kind == "and":
            return binop("&", e, lit(self.pick([255, 1023, 4095, 65535, 0x7ff0])))
        if kind == "or":
            return binop("|", e, lit(self.pick([1, 3, 8])))
        if kind == "minmax":
            k = self.rng.randrange(e.lo, e.hi + 1) if e.hi - e.lo < 1 << 40 else 0
            return (imin if self.chance(0.5) else imax)(e, self.const(k))
        if kind == "parity":
            c = compare("==", binop("&", e, lit(1)), lit(0))
            return cond(c, e, add(e, lit(self.pick([1, -1, 7]))))
        if kind == "gather":
            if e.lo < 0:
                e = sub(e, lit(e.lo, LONG))
            return self.gather(K, scope, e)
        if kind == "loaded":
            if self.chance(0.5):
                return add(e, self.loaded_value(self.rng.randrange(0, 300)))
            return sub(self.loaded_value(max(e.hi, 0) + self.rng.randrange(0, 9)), e)
        if kind == "trunc":
            t = self.pick([U8, I8, U16, I16, U8])
            x = mul(e, lit(self.pick([1, 3, 5]))) if self.chance(0.4) else \
                add(e, lit(self.pick([0, 100, 200, 65000])))
            return cast(t, x)
        if kind == "sum":
            others = scope.par() + scope.inner()
            a = self.pick(others)[0]
            return add(e, a)
        if kind == "nonlinear":
            others = scope.par() + scope.inner()
            a = self.pick(others)[0]
            if a.hi - a.lo > 1000:
                a = binop("&", a, lit(31))
            return mul(e, a)
        if kind == "arg":
            t = self.pick(SCALAR_TYPES)
            v = self.rng.randrange(max(t.lo, -300), min(t.hi, 300) + 1)
            return add(e, self.scalar(v, t))
        raise ValueError(kind)

    def write_sub(self, K, scope, use_inner):
        self.writing = True
        try:
            e = self.injective_par(scope, use_inner)
            for _ in range(self.pick([0, 0, 1, 1, 1, 2])):
                e = self.w_transform(K, scope, e)
            return e
        finally:
            self.writing = False

    def read_sub(self, K, scope, near=None):
        if near is not None and self.chance(0.6):
            d = self.pick([0, 0, 1, -1, 2, -2, 3])
            return add(near, lit(d)) if d else near
        e = self.injective_par(scope, bool(scope.loops) and self.chance(0.5)) \
            if self.chance(0.6) else self.anylinear(scope)
        for _ in range(self.pick([0, 1, 1, 1, 2])):
            e = self.r_transform(K, scope, e)
        return e

    def col_sub(self, K, scope, cols, role):
        """A column subscript of a 2-D array: in [0, cols)."""
        cands = [c for c in scope.par() + scope.inner() if c[2] - c[1] < cols]
        if cands and self.chance(0.8):
            a, lo, hi, _ = self.pick(cands)
            off = self.rng.randrange(0, cols - (hi - lo))
            e = sub(a, lit(lo - off, INT if INT.holds(lo - off, lo - off) else LONG)) \
                if lo != off else a
            return e, a
        if role == "r" and self.chance(0.5):
            a = self.pick(scope.par() + scope.inner())[0]
            if a.lo < 0:
                a = sub(a, lit(a.lo, LONG))
            return binop("%", a, self.const(cols, 0.5)), None
        return self.const(self.rng.randrange(cols), 0.5), None

    # -- accesses by role ----------------------------------------------------

    def etype_of(self, arr, member=None):
        if arr.kind == "aos":
            return self.aos_members[member][1]
        return arr.etype

    def write_access(self, K, scope, arr=None, base=None):
        """Draws an array and a race-free subscript; returns (lhs text, its
        element type, the row subscript for `near` reads, the array)."""
        for _ in range(8):
            a = arr or self.pick(self.data_arrays())
            try:
                use_inner = bool(scope.loops) and self.chance(0.75)
                member = None
                if a.kind == "2d":
                    col, used = self.col_sub(K, scope, a.cols, "w")
                    if used is not None and "inner-counter" not in used.tags:
                        levels = [p for p in scope.par() if p[0].c != used.c]
                        row = self.injective_par(scope, False, levels)
                    else:
                        row = self.injective_par(scope, use_inner and used is None)
                    if self.chance(0.3):
                        row = self.w_transform(K, scope, row)
                    text = self.access(K, scope, a, "w", row, col=col)
                    return text, a.etype, self._last_sub, a
                if a.kind == "aos":
                    member = self.rng.randrange(len(self.aos_members))
                sub = self.write_sub(K, scope, use_inner) if base is None else \
                    self.w_transform(K, scope, base)
                text = self.access(K, scope, a, "w", sub, member=member)
                return text, self.etype_of(a, member), self._last_sub, a
            except Reject:
                continue
        raise Reject("no race-free write found")

    def read_elem(self, K, scope, near=None):
        """Draws a read access; returns (C text, element type)."""
        arrs = self.data_arrays()
        for _ in range(6):
            a = self.pick(arrs)
            try:
                member = None
                if a.kind == "2d":
                    col, _ = self.col_sub(K, scope, a.cols, "r")
                    row = self.read_sub(K, scope, near)
                    return self.access(K, scope, a, "r", row, col=col), a.etype
                if a.kind == "aos":
                    member = self.rng.randrange(len(self.aos_members))
                sub = self.read_sub(K, scope, near)
                text = self.access(K, scope, a, "r", sub, member=member)
                return text, self.etype_of(a, member)
            except Reject:
                continue
        raise Reject("no valid read found")

    # -- stored values (C text only; UB-free by construction) ---------------

    def to_u64(self, text, t):
        if is_fp(t):
            self.uses_f2i = True
            return "(uint64_t)F2I(%s)" % text
        return "(uint64_t)(%s)" % text

    def int_value(self, K, scope, dst_t, near=None, inplace=None):
        """(dst_t)(an expression computed in uint64_t)."""
        atoms = []
        if inplace:
            atoms.append(self.to_u64(inplace, dst_t))
        for _ in range(self.pick([1, 1, 2, 2, 3])):
            r = self.rng.random()
            if r < 0.62:
                text, t = self.read_elem(K, scope, near)
                atoms.append(self.to_u64(text, t))
            elif r < 0.8:
                c = self.pick(scope.par() + scope.inner())[0]
                atoms.append("(uint64_t)%s" % c.c)
            elif r < 0.88 and self.scalars:
                atoms.append("(uint64_t)%s" % self.pick(self.scalars).name)
            else:
                atoms.append("%dUL" % self.pick([1, 3, 255, 40503, 2654435761,
                                                 0x9E3779B97F4A7C15]))
        e = atoms[0]
        for a in atoms[1:]:
            e = "(%s %s %s)" % (e, self.pick(["+", "-", "*", "^", "|", "&", "+"]), a)
        r = self.rng.random()
        if r < 0.1:
            e = "(%s >> %d)" % (e, self.pick([1, 3, 7, 13, 32]))
        elif r < 0.2:
            e = "(%s * %dUL)" % (e, self.pick([3, 31, 1000003]))
        elif r < 0.25:
            e = "(%s %% %dUL)" % (e, self.pick([7, 1009, 65521]))
        elif r < 0.3 and len(atoms) > 1:
            e = "(%s / (%s | 1UL))" % (atoms[0], atoms[-1])
        elif r < 0.34:
            self.uses_mix = True
            e = "mix(%s, %s)" % (e, atoms[0])
            K.tags.add("pure-call")
        elif r < 0.4 and K.levels:
            # a generator state in a private local, advanced through its
            # address (XSBench's LCG_random_double pattern)
            self.uses_rng = True
            K.seed = "sd%d" % K.kid
            e = "(%s + hrng(&%s))" % (e, K.seed)
            K.tags.add("call-private-pointer")
        return "(%s)(%s)" % (dst_t.cname, e)

    FP_FORMS = [
        "{A} * {c1} + {B}", "{A} + {B} * {c1}", "({A} - {B}) * {c1}",
        "{A} * {c1} + {c2}", "{fmax}({A}, {B}) - {fmin}({A}, {B}) * {c1}",
        "{fabs}({A}) * {c1} + {B}", "{floor}({A} * {c1})",
        "sqrt((double){fabs}({A})) + {B} * {c1}", "{A} / {c3}",
        "({A} > {B} ? {A} : {B} * {c1})",
        "{A} * {fmin}({fmax}({B}, {m2}), {p2}) * {c1} + {C}",
        "{A} * {c1} + {B} * {c1} + {C}", "{trunc}({A}) - {B} * {c1}",
    ]

    def fp_value(self, K, scope, dst_t, near=None, inplace=None):
        """A floating-point value of bounded magnitude (|coefficients| <= 1
        where it feeds back into itself): no infinities, no NaNs."""
        single = dst_t is FLOAT and self.chance(0.35)
        ft = "float" if single else "double"

        def fp_atom():
            r = self.rng.random()
            if r < 0.7:
                text, t = self.read_elem(K, scope, near)
                if is_fp(t):
                    return "(float)%s" % text if single and t is DOUBLE else text
                return "(%s)((%s) & 1023)" % (ft, text)
            if r < 0.85:
                c = self.pick(scope.par() + scope.inner())[0]
                return "(%s)(%s & 255)" % (ft, c.c)
            return self.pick(["0.5", "1.0", "-2.25", "3.0", "0.0625"]) + \
                ("f" if single else "")

        form = self.pick(self.FP_FORMS)
        sfx = "f" if single else ""
        fill = {
            "c1": self.pick(["0.5", "0.25", "0.75", "-0.5", "0.125", "-1.0",
                             "1.0"]) + sfx,
            "c2": self.pick(["1.0", "-3.0", "0.0625", "2.5"]) + sfx,
            "c3": self.pick(["3.0", "7.0", "1.5"]) + sfx,
            "m2": "-2.0" + sfx, "p2": "2.0" + sfx,
        }
        for f in ("fmax", "fmin", "fabs", "floor", "trunc"):
            fill[f] = f + sfx
        fill["A"] = "(%s)" % inplace if inplace else "(%s)" % fp_atom()
        for k in "BC":
            if "{%s}" % k in form:
                fill[k] = "(%s)" % fp_atom()
        text = form.format(**fill)
        K.tags.add("fp-single" if single else "fp-double")
        if "*" in form and "+" in form:
            K.tags.add("fma-candidate")
        return "(%s)(%s)" % (dst_t.cname, text)

    def value(self, K, scope, dst_t, near=None, inplace=None):
        if is_fp(dst_t):
            return self.fp_value(K, scope, dst_t, near, inplace)
        return self.int_value(K, scope, dst_t, near, inplace)

    # -- statements -------------------------------------------------------

    def gen_assign(self, K, scope, base=None):
        lhs, t, row, arr = self.write_access(K, scope, base=base)
        r = self.rng.random()
        if r < 0.3:
            # read-modify-write of the same element (same owner: race-free)
            K.cond_or_read.add(arr.name)
            if is_fp(t):
                op = self.pick(["=", "+=", "-=", "*="])
                val = self.value(K, scope, t, row, None if op != "=" else lhs)
                if op == "*=":
                    val = "(%s)(%s)" % (t.cname, self.pick(["0.5", "1.5", "-1.0", "0.75"]))
            else:
                # no signed overflow: + - only on types narrower than int
                # or unsigned; * also not on uint16_t (promoted to int,
                # 65535 * 65535 overflows)
                narrow_or_unsigned = t.bits < 32 or not t.signed
                mul_ok = t.bits == 8 or (t.bits == 16 and t.signed) or \
                    (t.bits >= 32 and not t.signed)
                op = self.pick(["=", "^=", "|=", "&="] +
                               (["+=", "-="] if narrow_or_unsigned else []) +
                               (["*="] if mul_ok else []))
                val = self.value(K, scope, t, row, lhs if op == "=" else None)
            K.tags.add("in-place")
            return [line("%s %s %s;" % (lhs, op, val))]
        flat = self._last_flat
        val = self.value(K, scope, t, row)
        if flat is not None and lhs.startswith(flat[0]) and self.chance(0.12):
            return [line(self.helper_write(K, flat[0], flat[1], t, val))]
        return [line("%s = %s;" % (lhs, val))]

    def gen_inner_loop(self, K, scope):
        """A serial loop in the body: rectangular, sliding window, triangular
        or downward, counters of several types and steps."""
        pts = K.context_points(scope.loops)
        room = max(1, MAX_POINTS // max(pts, 1))
        if room < 2:
            raise Reject("no room for an inner loop")
        style = self.pick(["rect", "rect", "window", "tri", "down", "down2"])
        ty = self.pick([INT, INT, INT, LONG, UINT, SHORT, SIZE, I64, U16])
        name = self.name("j")
        par = scope.par() + scope.inner()
        trip = self.rng.randrange(1, min(room, 48) + 1)
        s = self.pick([1, 1, 1, 2, 3])
        if style == "rect":
            a = self.pick([0, 0, 1, 3] + ([-4] if ty.signed else []))
            cnd = self.pick(["lt", "lt", "le"] + (["ne"] if s == 1 else []))
            b = a + trip * s if cnd != "le" else a + (trip - 1) * s
            init, bound = self.const(a, 0.7), self.const(b, 0.5)
        elif style == "window":
            c = self.pick(par)[0]
            if c.lo < 0 and not ty.signed:
                raise Reject("unsigned window below 0")
            init = c if self.chance(0.6) else add(c, lit(self.rng.randrange(0, 4)))
            bound = add(init, lit(trip * s))
            cnd = "lt"
            K.tags.add("inner-window")
        elif style == "tri":
            c = self.pick(par)[0]
            if c.hi - c.lo >= room or c.hi > 5000:
                raise Reject("triangle too large")
            if c.lo < 0:
                raise Reject("triangle over negative counter")
            init = self.const(0, 0.8)
            bound = c
            if self.chance(0.35):
                # j < min(i, w): bounded, not affine
                w = self.rng.randrange(c.lo, c.hi + 1)
                bound = imin(c, self.const(w, 0.5)) if self.chance(0.6) else \
                    imax(c, self.const(w, 0.5))
                K.tags.add("inner-minmax-bound")
            cnd = self.pick(["lt", "le"])
            s = 1
            K.tags.add("inner-triangular")
        else:
            s = -self.pick([1, 1, 2, 3] if style == "down" else [1, 2])
            lo = self.pick([0, 0, 1, 2])
            if style == "down2":
                c = self.pick(par)[0]
                if c.lo < 0 or c.hi - c.lo >= room:
                    raise Reject("down triangle")
                init = c
                K.tags.add("inner-triangular")
            else:
                init = self.const(lo + (trip - 1) * -s + self.rng.randrange(0, -s), 0.6)
            cnd = self.pick(["gt", "ge"] + (["ne"] if s == -1 and style == "down" else []))
            if cnd == "gt" and ty.signed is False and lo == 0:
                lo = 0
            b = lo - 1 if cnd == "gt" and ty.signed and self.chance(0.3) else lo
            if cnd == "ne":
                b = init.lo - trip if style == "down" else lo
                if b < ty.lo or (b < 0 and not ty.signed):
                    raise Reject("ne loop bound")
            bound = self.const(b, 0.7)
            K.tags.add("inner-negative-step")
        incr = self.pick(["%s++", "++%s", "%s += 1", "%s = %s + 1"]) if s == 1 else \
            self.pick(["%s--", "--%s", "%s -= 1"]) if s == -1 else \
            self.pick(["%%s += %d" % s, "%%s = %%s + %d" % s]) if s > 0 else \
            self.pick(["%%s -= %d" % -s, "%%s = %%s - %d" % -s])
        incr = incr.replace("%s", name)
        lp = InnerLoop(name, ty, init, cnd, bound, s, incr)
        K.tags.add("inner-step%d" % s)
        K.tags.add("inner-counter-" + ty.cname.replace(" ", "_"))
        n = K.context_points(scope.loops + [lp])
        if n > MAX_POINTS:
            raise Reject("inner loop too long")
        return lp

    def gen_inner(self, K, scope):
        lp = self.gen_inner_loop(K, scope)
        inner = scope.child(lp)
        body = []
        for _ in range(self.pick([1, 1, 2])):
            body += self.gen_assign(K, inner)
        return [Stmt("for", lp.header(), body)]

    def gen_accum(self, K, scope):
        """acc over an inner loop, stored once per iteration."""
        lhs, t, row, _ = self.write_access(K, scope)
        lp = self.gen_inner_loop(K, scope)
        inner = scope.child(lp)
        acc = self.name("acc")
        x, xt = self.read_elem(K, inner, None)
        if self.chance(0.5):
            y, yt = self.read_elem(K, inner, None)
        else:
            y, yt = None, None
        if is_fp(t) and self.chance(0.8):
            xs = x if is_fp(xt) else "(double)((%s) & 1023)" % x
            upd = self.pick(["%s = %s * 0.5 + %s;" % (acc, acc, xs),
                             "%s += %s * 0.25;" % (acc, xs),
                             "%s = fmax(%s, %s);" % (acc, acc, xs)])
            if y is not None:
                ys = y if is_fp(yt) else "(double)((%s) & 1023)" % y
                upd = "%s += %s * %s;" % (acc, xs, "fmin(fmax(%s, -2.0), 2.0)" % ys)
            decl = "double %s = %s;" % (acc, self.pick(["0.0", "1.0", "-0.5"]))
            store = "%s = (%s)%s;" % (lhs, t.cname, acc)
        else:
            xs = self.to_u64(x, xt)
            upd = self.pick(["%s = %s * 31UL + %s;" % (acc, acc, xs),
                             "%s ^= %s;" % (acc, xs),
                             "%s += %s << 3;" % (acc, xs)])
            if y is not None:
                upd = "%s += %s * %s;" % (acc, xs, self.to_u64(y, yt))
            decl = "uint64_t %s = %dUL;" % (acc, self.pick([0, 7, 0xcbf29ce484222325]))
            if is_fp(t):
                store = "%s = (%s)(%s & 0xFFFFF);" % (lhs, t.cname, acc)
            else:
                store = "%s = (%s)%s;" % (lhs, t.cname, acc)
        K.tags.add("inner-accumulate")
        return [Stmt("block", body=[line(decl), Stmt("for", lp.header(), [line(upd)]),
                                    line(store)])]

    def gen_if(self, K, scope):
        r = self.rng.random()
        c = self.pick(scope.par() + scope.inner())[0]
        if r < 0.6:
            k = self.rng.randrange(c.lo, c.hi + 1)
            cnd = self.pick(["(%s & 1) == 0" % c.c, "%s < %s" % (c.c, k),
                             "%s %% 3 != 1" % c.c, "%s >= %s" % (c.c, k)])
        else:
            x, xt = self.read_elem(K, scope, None)
            cnd = "%s > %s" % (x, "0.5" if is_fp(xt) else "3")
        sub = scope.child(conditional=True)
        then = self.gen_assign(K, sub)
        orelse = self.gen_assign(K, sub) if self.chance(0.5) else []
        K.tags.add("conditional-write")
        return [Stmt("if", cnd, then, orelse)]

    def gen_local(self, K, scope):
        """An index local `T k = <expr>;` and a write through it."""
        e = self.injective_par(scope, bool(scope.loops))
        t = self.pick([LONG, INT, LONG, SIZE, UINT]) if e.lo >= 0 else \
            self.pick([LONG, INT, LONG])
        if not t.holds(e.lo, e.hi):
            t = LONG
        name = self.name("k")
        loc = convert_to(t, e)
        loc = IE(name, loc.py, t, loc.lo, loc.hi, loc.tags | {"local"}, loc.uses)
        stmts = self.gen_assign(K, scope, base=loc)
        K.tags.add("index-local")
        return [line("%s %s = %s;" % (t.cname, name, e.c))] + stmts

    def gen_stmts(self, K, scope, n):
        out = []
        for _ in range(n):
            kind = self.pick(["assign", "inner", "accum", "if", "local"],
                             [40, 18, 14, 8, 8])
            try:
                out += getattr(self, "gen_" + kind)(K, scope)
            except Reject:
                continue
        return out

    # -- reductions -----------------------------------------------------------

    def gen_redvar(self, K):
        t = self.pick(INT_ELEMS + [FLOAT, DOUBLE, FLOAT, DOUBLE])
        ops = ["+", "+", "*", "&&", "||", "max", "min", "max", "min", "-"]
        if not is_fp(t):
            ops += ["&", "|", "^", "&", "|", "^"]
        op = self.pick(ops)
        if op == "*" and t is U16:
            t = U32
        name = self.name("r")
        if is_fp(t):
            init = {"+": "1.5", "-": "0.25", "*": self.pick(["1.0", "2.0", "-1.0"]),
                    "&&": "1.0", "||": "0.0", "max": "-1000.0",
                    "min": "1000.0"}[op]
            ival = None
        else:
            ival = {"+": 3, "-": 0, "*": self.pick([1, 1, 3]), "&": t.mask if not t.signed else -1,
                    "|": 0, "^": 0x5A & t.hi, "&&": 1, "||": 0,
                    "max": max(t.lo, -5), "min": min(t.hi, 5000)}[op]
            if op == "*" and t.signed and self.chance(0.3):
                ival = -1
            init = c_literal(ival, t)
        rv = RedVar(name, t, op, init)
        rv.ival = ival
        K.tags.add("red-%s-%s" % (op, t.cname))
        return rv

    def red_update(self, K, scope, rv):
        t, op, r = rv.ty, rv.op, rv.name
        n = K.context_points(scope.loops) * len(K.envs)
        if op in ("+", "-"):
            if is_fp(t):
                if n * 2 >= (1 << 21):
                    raise Reject("float sum not exact")
                x, xt = self.read_elem(K, scope)
                if is_fp(xt):
                    c = "(%s > 0.5 ? 0.5 : 0.125)" % x
                else:
                    c = "(double)((%s) & 15) * 0.125" % x
                if self.chance(0.3):
                    cc = self.pick(scope.par() + scope.inner())[0]
                    c = "(double)(%s & 15) * 0.25" % cc.c
            elif t.signed and t.bits >= 32:
                if n * 15 + 3 > t.hi:
                    raise Reject("sum may overflow")
                x, xt = self.read_elem(K, scope)
                c = "(%s)(%s & 15)" % (t.cname, self.to_u64(x, xt))
            else:
                c = self.int_value(K, scope, t)
            form = self.pick(["%s %s= %s;", "%s = %s %s %s;"])
            text = form % ((r, op, c) if form.count("%s") == 3 else (r, r, op, c))
            return line(text)
        if op == "*":
            if is_fp(t) or (t.signed and t.bits >= 32):
                if self.chance(0.3):
                    x, xt = self.read_elem(K, scope)
                    m = "(%s)" % x if not is_fp(xt) else "(long long)(%s > 1.0)" % x
                    one = "1.0" if is_fp(t) else "1"
                    return line("%s *= ((%s & 31) == 3 ? -%s : %s);" % (r, m, one, one))
                a = self.pick(scope.par() + scope.inner())[0]
                if a.lo < 0:
                    a = sub(a, lit(a.lo, LONG))
                P = self.pick([7, 61, 1000, 4999, 65521])
                cnd = compare("==", binop("%", a, lit(P)), lit(self.rng.randrange(P)))
                per = K.evaluate(scope.loops, [cnd.py])
                hits = sum(sum(1 for v in vals[0] if v) for vals, _ in per)
                limit = {32: 100, 64: 900}[t.bits] if is_fp(t) else t.bits - 4
                if hits > limit:
                    raise Reject("product may overflow")
                if is_fp(t):
                    f = self.pick(["2.0", "0.5"])
                    return line("%s *= (%s ? %s : 1.0);" % (r, cnd.c, f))
                return line("%s *= (%s ? 2 : 1);" % (r, cnd.c))
            return line("%s *= %s;" % (r, self.int_value(K, scope, t)))
        if op in ("&", "|", "^"):
            c = self.int_value(K, scope, t)
            return line(self.pick(["%s %s= %s;" % (r, op, c),
                                   "%s = %s %s %s;" % (r, r, op, c)]))
        if op in ("&&", "||"):
            if self.chance(0.6):
                x, xt = self.read_elem(K, scope)
                c = "(%s > 0.25)" % x if is_fp(xt) else "((%s & 7) != 0)" % x
            else:
                a = self.pick(scope.par() + scope.inner())[0]
                c = "((%s & 1023) != %d)" % (a.c, self.rng.randrange(1024))
            return line("%s = %s %s %s;" % (r, r, op, c))
        # max / min
        if is_fp(t):
            x, xt = self.read_elem(K, scope)
            c = "(%s + 0.0)" % x if is_fp(xt) else "(double)((%s) & 4095)" % x
        else:
            c = self.int_value(K, scope, t)
        cmp = ">" if op == "max" else "<"
        tmp = self.name("t")
        return Stmt("block", body=[
            line("%s %s = %s;" % ("double" if is_fp(t) else t.cname, tmp, c)),
            line(self.pick(["%s = %s %s %s ? %s : %s;" % (r, tmp, cmp, r, tmp, r),
                            "if (%s %s %s) %s = %s;" % (tmp, cmp, r, r, tmp)]))])

    # -- kernels --------------------------------------------------------------

    DIRECTIVES = [
        ("target teams distribute parallel for", 30),
        ("target parallel for", 12),
        ("target teams loop", 10),
        ("target teams distribute parallel for simd", 8),
        ("target parallel for simd", 5),
        ("target teams distribute", 4),
        ("target teams distribute simd", 3),
        ("target simd", 2),
        ("target parallel loop", 3),
    ]
    COUNTER_TYPES = [(INT, 35), (UINT, 10), (LONG, 12), (SIZE, 8), (SHORT, 6),
                     (USHORT, 2), (LLONG, 3), (I64, 4), (U32, 4), (U8, 1),
                     (I8, 1)]

    def bound_expr(self, b):
        r = self.rng.random()
        if r < 0.45:
            return self.const(b, 0.4)
        if r < 0.6:
            return sub(self.const(b + 1, 0.0), lit(1))
        if r < 0.7 and b % 2 == 0:
            return mul(lit(2), self.const(b // 2, 0.0))
        if r < 0.8:
            k = self.rng.randrange(0, 9)
            return add(self.const(b - k, 0.0), lit(k))
        k = self.pick([1, 3, 1000])
        if r < 0.92 and b - k >= 0:
            # n < m ? n : m (and the max form) with b the one that holds; the
            # interval of a conditional spans both sides, the loop's bound
            # is exactly b (both sides non-negative: no conversion changes
            # them, whatever the common type)
            self.bound_minmax = True
            e = imin(self.const(b, 0.3), self.const(b + k, 0.3)) if self.chance(0.5) \
                else imax(self.const(b - k, 0.3), self.const(b, 0.3))
            return IE(e.c, e.py, e.ty, b, b, e.tags, e.uses)
        return self.const(b, 0.0)

    def gen_level(self, K, l, trip):
        name = "i%d" % l
        for _ in range(12):
            ty = self.pick([t for t, _ in self.COUNTER_TYPES],
                           [w for _, w in self.COUNTER_TYPES])
            s = self.pick([1] * 13 + [2] * 3 + [3] * 2 + [-1] * 2)
            step_arg = s == -1
            if step_arg:
                s = self.rng.randrange(1, 5)
            up = self.chance(0.78)
            try:
                if up:
                    starts = [0] * 5 + [1, 2, 5, 17, 100]
                    if ty.signed:
                        starts += [-7, -100]
                    a = self.pick(starts)
                    last = a + (trip - 1) * s
                    cnd = self.pick(["lt"] * 6 + ["le"] * 2 + (["ne"] if s == 1 else []))
                    if cnd == "lt":
                        b = last + 1 + self.rng.randrange(s)
                    elif cnd == "le":
                        b = last + self.rng.randrange(s)
                    else:
                        b = a + trip
                    step = s
                else:
                    lo = self.pick([0, 0, 1, 3] + ([-10] if ty.signed else []))
                    cnd = self.pick(["gt"] * 5 + ["ge"] * 3 + (["ne"] if s == 1 else []))
                    # values a, a-s, ..., last; last > bound (gt) / >= (ge)
                    if cnd == "gt":
                        b = lo
                        last = b + 1 + self.rng.randrange(s)
                    elif cnd == "ge":
                        b = lo
                        last = b + self.rng.randrange(s)
                    else:
                        b = lo
                        last = b + 1
                    a = last + (trip - 1) * s
                    step = -s
                if not ty.holds(min(a, b) - s, max(a, b) + s):
                    continue
                init = self.const(a, 0.6)
                self.bound_minmax = False
                bound = self.bound_expr(b)
                if self.bound_minmax:
                    K.tags.add("bound-minmax")
                if step_arg:
                    # a step of the counter's signedness: with an unsigned
                    # step on a signed counter clang 19 passes the runtime a
                    # trip count off by 2^31 (hetero then refuses to split)
                    st = self.scalar(s, self.pick([INT, LONG, SHORT] if ty.signed
                                                  else [UINT, ty]), prefix="st")
                    step_c = st.c
                    K.tags.add("step-arg")
                else:
                    step_c = str(s)
                if step == 1:
                    incr = self.pick(["%s++", "++%s", "%s += 1", "%s = %s + 1"])
                elif step == -1:
                    incr = self.pick(["%s--", "--%s", "%s -= 1", "%s = %s - 1"])
                elif step > 0:
                    incr = self.pick(["%%s += %s" % step_c, "%%s = %%s + %s" % step_c])
                else:
                    incr = self.pick(["%%s -= %s" % step_c, "%%s = %%s - %s" % step_c])
                L = Level(name, ty, init, cnd, bound, step, step_c,
                          incr.replace("%s", name))
                if len(L.values) != trip:
                    continue
                K.tags.add("counter-" + ty.cname.replace(" ", "_"))
                K.tags.add("loop-%s-step%d" % (cnd, step))
                return L
            except Reject:
                continue
        L = Level(name, INT, lit(0), "lt", lit(trip), 1, "1", "%s++" % name)
        return L

    def trips(self, depth):
        r = self.rng.random()
        if r < 0.05:
            total = self.rng.randrange(0, 4)
        elif r < 0.3:
            total = self.rng.randrange(50, 2000)
        elif r < 0.8:
            total = self.rng.randrange(2000, 30000)
        else:
            total = self.rng.randrange(30000, 200000)
        if depth == 1:
            return [total]
        out = []
        rest = max(total, 1)
        for l in range(depth - 1):
            f = max(1, int(round(rest ** (1.0 / (depth - l)) * self.rng.uniform(0.3, 2.0))))
            if total == 0 and l == 0:
                f = 0
            out.append(f)
            rest = max(1, rest // max(f, 1))
        out.append(rest if total else self.rng.randrange(1, 9))
        if self.chance(0.08) and depth >= 2:
            # a wrap/truncation window: an inner dimension of exactly 256
            out[-1] = 256
            out[0] = max(1, min(out[0], 300))
        return out

    def gen_kernel(self, kid):
        for _ in range(40):
            K = Kernel(self, kid)
            try:
                self.build_kernel(K)
                self.commit(K)
                return K
            except Reject:
                pass  # redraw the whole kernel (state is committed only on success)
        K = Kernel(self, kid)
        self.build_simple(K)
        self.commit(K)
        return K

    def new_kernel_state(self, K):
        K.cond_or_read, K.written, K.touched = set(), set(), set()
        K.pending_max = {}
        K.writes = [dict() for _ in K.envs]
        K.reads = [dict() for _ in K.envs]

    def build_kernel(self, K):
        K.directive = self.pick([d for d, _ in self.DIRECTIVES],
                                [w for _, w in self.DIRECTIVES])
        depth = self.pick([1, 1, 1, 1, 1, 2, 2, 2, 3])
        trips = self.trips(depth)
        K.levels = [self.gen_level(K, l, n) for l, n in enumerate(trips)]
        K.envs = [{}]
        if self.chance(0.1):
            t = self.pick([INT, UINT, LONG, SHORT, U8])
            v0, d = self.rng.randrange(0, 20), self.pick([1, 3, 7])
            s = Scalar(self.name("rep"), t, v0)
            self.scalars.append(s)
            vals = [v0 + r * d for r in range(self.pick([2, 3]))]
            K.rep = (s, vals)
            K.envs = [dict(K.envs[0], **{s.name: v}) for v in vals]
            K.rep_atom = atom(s.name, s.name, t, min(vals), max(vals),
                              {"arg", "relaunch"})
            K.tags.add("relaunch")
        self.new_kernel_state(K)
        K.space = 1
        for l in K.levels:
            K.space *= len(l.values)
        if K.space == 0:
            K.tags.add("zero-trip")
            K.body = [line("%s[0] = 1;" % self.pick(
                [a for a in self.data_arrays() if a.kind == "flat"] or
                [self.new_array()]).name)]
            # the zero-trip body never runs; still touches nothing
            self.clauses(K, depth)
            return
        scope = Scope(K)
        if self.chance(0.35):
            K.reductions = [self.gen_redvar(K) for _ in range(self.pick([1, 1, 2, 3]))]
        K.body = self.gen_stmts(K, scope, self.pick([1, 1, 2, 2, 3]))
        for rv in K.reductions:
            if self.chance(0.3):
                try:
                    lp = self.gen_inner_loop(K, scope)
                    K.body.append(Stmt("for", lp.header(),
                                       [self.red_update(K, scope.child(lp), rv)]))
                    continue
                except Reject:
                    pass
            K.body.append(self.red_update(K, scope, rv))
        if not K.written and not K.reductions:
            raise Reject("kernel has no effect")
        if getattr(K, "seed", None):
            K.body.insert(0, line("uint64_t %s = (uint64_t)(%s) * 2654435761UL + 1UL;"
                                  % (K.seed, K.levels[-1].name)))
        self.clauses(K, depth)

    def clauses(self, K, depth):
        d = K.directive
        cl = []
        if depth > 1 or self.chance(0.05):
            cl.append("collapse(%d)" % depth)
            K.tags.add("collapse%d" % depth)
        byop = {}
        for rv in K.reductions:
            byop.setdefault(rv.op, []).append(rv.name)
        for op, names in byop.items():
            if self.chance(0.5):
                cl.append("reduction(%s: %s)" % (op, ", ".join(names)))
            else:
                cl += ["reduction(%s: %s)" % (op, n) for n in names]
        if "parallel for" in d and self.chance(0.25):
            # no chunk 1 under teams: LLVM 19's libomp computes wrong
            # iterations for `teams distribute parallel for schedule(static,
            # 1)` with num_teams/thread_limit, in the host reference too
            chunks = [2, 7, 64] if "teams" in d else [1, 7, 64]
            cl.append(self.pick(["schedule(static)", "schedule(static, %d)" %
                                 self.pick(chunks)]))
            K.tags.add("schedule-static")
        elif "parallel for" in d and self.chance(0.04):
            cl.append(self.pick(["schedule(dynamic, 4)", "schedule(guided)"]))
            K.tags.add("schedule-dynamic")
        if "distribute" in d and self.chance(0.15):
            cl.append(self.pick(["dist_schedule(static)", "dist_schedule(static, %d)"
                                 % self.pick([16, 100, 1024])]))
            K.tags.add("dist-schedule")
        if "teams" in d and self.chance(0.1):
            cl.append("num_teams(%d)" % self.pick([1, 3, 16]))
        if "teams" in d and self.chance(0.1):
            cl.append("thread_limit(%d)" % self.pick([1, 4, 64]))
        if "parallel" in d and self.chance(0.1):
            cl.append("num_threads(%d)" % self.pick([1, 2, 3]))
        if "simd" in d and self.chance(0.2):
            cl.append("simdlen(%d)" % self.pick([2, 4, 8]))
        # nowait: not with reductions -- LLVM 19's libomp hangs in the host
        # fallback (the reference) on a nowait target with a reduction
        if self.chance(0.06) and not K.reductions:
            cl.append("nowait")
            K.tags.add("nowait")
        K.clauses = cl
        K.tags.add("dir-" + d.replace("target ", "").replace(" ", "-"))
        K.split_counter_decl = self.chance(0.08)
        K.pragmas = self.separate_directives(K) if self.chance(0.25) else None

    # How a combined construct may be written as nested directives, each
    # level taking the clauses that belong to it (OpenMP 5.2, 17.4).
    SEPARATIONS = {
        "target teams distribute parallel for": [
            ["target teams", "distribute parallel for"],
            ["target", "teams distribute parallel for"],
            ["target", "teams", "distribute parallel for"]],
        "target teams distribute parallel for simd": [
            ["target teams", "distribute parallel for simd"],
            ["target", "teams distribute parallel for simd"]],
        "target parallel for": [["target", "parallel for"],
                                ["target parallel", "for"]],
        "target parallel for simd": [["target parallel", "for simd"]],
        "target teams loop": [["target teams", "loop"], ["target", "teams loop"]],
        "target teams distribute": [["target teams", "distribute"]],
        "target teams distribute simd": [["target teams", "distribute simd"]],
        "target simd": [["target", "simd"]],
        "target parallel loop": [["target parallel", "loop"]],
    }

    def separate_directives(self, K):
        """The kernel's pragma lines with its construct written as nested
        directives (the region's body is still just the loop nest)."""
        levels = self.pick(self.SEPARATIONS[K.directive])
        if K.reductions and levels[-1] == "loop" and "teams" in levels[-2]:
            return None  # no reduction clause on a loop bound to teams
        words = [set(l.split()) for l in levels]
        last = len(levels) - 1
        per = [[] for _ in levels]
        red_names = []
        for c in K.clauses:
            head = c.split("(")[0].strip()
            if head == "nowait":
                per[0].append(c)
            elif head in ("num_teams", "thread_limit"):
                per[next(i for i, w in enumerate(words) if "teams" in w)].append(c)
            elif head == "num_threads":
                per[next(i for i, w in enumerate(words) if "parallel" in w)].append(c)
            elif head == "reduction":
                red_names += [n.strip() for n in c.split(":", 1)[1].rstrip(")").split(",")]
                # the loop level reduces (plain distribute takes no
                # reduction), and a teams level above it (else the teams
                # race on one variable); a parallel level above a `for`
                # does not: the variable must stay shared there
                for i, w in enumerate(words):
                    if (i == last and levels[i] != "distribute") or \
                            (i < last and "teams" in w):
                        per[i].append(c)
            else:  # collapse, schedule, dist_schedule, simdlen
                per[last].append(c)
        if red_names and not any(c.startswith("reduction") for c in per[0]):
            # a reduction variable is firstprivate on a `target` level
            # that does not reduce it
            per[0].append("map(tofrom: %s)" % ", ".join(red_names))
        K.tags.add("separate-directives")
        K.tags.add("sep-" + "+".join(l.replace("target ", "").replace(" ", "-")
                                     for l in levels))
        return ["#pragma omp %s%s" % (l, "".join(" " + c for c in per[i]))
                for i, l in enumerate(levels)]

    def array(self, name):
        for a in self.arrays:
            if a.name == name:
                return a
        raise KeyError(name)

    def commit(self, K):
        for name in sorted(K.touched):
            arr = self.array(name)
            arr.maxidx = max(arr.maxidx, K.pending_max.get(name, -1))
            if not arr.touched_by and not getattr(arr, "host_touched", False):
                if name in K.written and name not in K.cond_or_read and \
                        len(K.envs) == 1:
                    arr.first_cover = set(K.writes[0][name].keys())
                    arr.first_cover_kid = K.kid
            arr.touched_by.append(K.kid)
            if name in K.written:
                arr.written = True
        if K.rep:
            s, vals = K.rep
            s.value = vals[-1]
        K.writes = K.reads = None
        self.redvars += K.reductions
        self.kernels.append(K)
        self.events.append(("kernel", K))

    def build_simple(self, K):
        """The fallback when no random kernel could be drawn."""
        K.directive = "target teams distribute parallel for"
        n = self.rng.randrange(100, 5000)
        K.levels = [Level("i0", INT, lit(0), "lt", lit(n), 1, "1", "i0++")]
        K.envs = [{}]
        self.new_kernel_state(K)
        K.space = n
        arr = self.new_array("flat")
        arr.want_from = False
        scope = Scope(K)
        lhs = self.access(K, scope, arr, "w", scope.par()[0][0])
        K.body = [line("%s = (%s)(i0 * 3);" % (lhs, arr.etype.cname))]
        K.tags |= {"fallback-kernel", "dir-teams-distribute-parallel-for"}
        K.split_counter_decl = False

    def gen_producer(self, kid):
        """A small kernel writing mw[i] = f(i): later kernels read mw[k] as a
        loop bound or offset (a value valid only where this kernel ran)."""
        # Its own bound and values never read mw: an iteration would read
        # what another one writes (a race; seed 62730 read mw[9] while
        # writing mw[0:16]).
        saved, self.mw.values = self.mw.values, None
        try:
            return self._gen_producer(kid)
        finally:
            if self.mw.values is None:
                self.mw.values = saved

    def _gen_producer(self, kid):
        mw = self.mw
        K = Kernel(self, kid)
        K.directive = self.pick(["target teams distribute parallel for",
                                 "target parallel for"])
        n = mw.fixed_len
        K.levels = [Level("i0", INT, lit(0), "lt", self.const(n, 0.5), 1, "1", "i0++")]
        self.new_kernel_state(K)
        K.space = n
        i0 = Scope(K).par()[0][0]
        for _ in range(20):
            try:
                c1 = self.pick([1, 3, 7, 100, 1000])
                e = add(mul(i0, lit(c1)), self.const(self.rng.randrange(0, 500), 0.5))
                if self.chance(0.3):
                    e = binop("%", e, lit(self.pick([13, 97, 300])))
                per = K.evaluate([], [e.py])
                vals = per[0][0][0]
                if all(mw.etype.holds(v, v) for v in vals):
                    break
            except Reject:
                continue
        else:
            e, vals = i0, list(range(n))
        K.check_write(mw.name, [(list(range(n)), list(range(n)))])
        K.written.add(mw.name)
        K.touched.add(mw.name)
        K.body = [line("mw[i0] = (%s)(%s);" % (mw.etype.cname, e.c))]
        K.tags |= {"producer-kernel", "dir-" + K.directive.replace("target ", "")
                   .replace(" ", "-")}
        K.split_counter_decl = False
        self.commit(K)
        mw.values = vals
        return K

    def fill_kernel(self, kid, a):
        """A first kernel that writes every element of a (whose length is
        known only at the end: its bound is the length macro), so that a can
        be mapped `from` or `alloc` (device copy never initialised)."""
        K = Kernel(self, kid)
        K.directive = "target teams distribute parallel for"
        K.fill_array = a
        K.tags |= {"fill-kernel", "dir-teams-distribute-parallel-for", "write-flat"}
        a.fill = True
        a.written = True
        a.touched_by.append(kid)
        self.kernels.append(K)
        self.events.append(("kernel", K))

    # -- host code between kernels --------------------------------------------

    def gen_host(self):
        """Host code between two kernels: a target update from (the host
        reads only what it fetched), host changes sent back with target update
        to, new scalar or mapped-parameter values for the next kernels."""
        ops = []
        touched = [a for a in self.data_arrays() if a.touched_by]
        fetch = None
        if touched and self.chance(0.7):
            a = self.pick(touched)
            fetch = ("fetch", a, self.rng.random() * 0.6, self.rng.uniform(0.05, 1.0),
                     len(self.events))
            ops.append(fetch)
        if self.chance(0.5):
            if fetch is not None and self.chance(0.6):
                ops.append(("modify", fetch[1], fetch, True))
            else:
                a = self.pick(self.data_arrays())
                if not a.touched_by:
                    a.host_touched = True
                ops.append(("modify", a, (None, a, self.rng.random() * 0.8,
                                          self.rng.uniform(0.05, 1.0)), False))
        if self.loaded and self.chance(0.3):
            L = self.pick(self.loaded)
            v = L.value + self.pick([-3, -1, 1, 2, 10, 100])
            if L.ty.holds(v, v) and v >= 0:
                ops.append(("setloaded", L, v))
                L.value = v
        if self.scalars and self.chance(0.3):
            s = self.pick(self.scalars)
            if not s.const:
                v = s.value + self.pick([-2, -1, 1, 5, 64])
                if s.ty.holds(v, v):
                    ops.append(("setscalar", s, v))
                    s.value = v
        if ops:
            self.events.append(("host", ops))

    # -- the whole program ----------------------------------------------------

    def generate(self):
        _CXX[0] = self.cxx
        for _ in range(self.pick([2, 3, 3, 4, 5])):
            self.new_array("flat")
        if self.chance(0.3):
            self.new_array("2d")
        if self.chance(0.25):
            mt = [self.pick([I32, I16, U8, I64, U16]), self.pick([DOUBLE, FLOAT]),
                  self.pick(INT_ELEMS), self.pick([FLOAT, DOUBLE, I32])]
            self.aos_members = [("m%d" % k, t) for k, t in
                                enumerate(mt[:self.pick([2, 3, 4])])]
            self.new_array("aos", etype=None)
        if self.chance(0.2):
            for _ in range(2):
                a = self.new_array("soa")
                a.want_from = False
        if self.chance(0.3):
            self.new_enum()
        if self.chance(0.25):
            self.mw = Array("mw", "mw", self.pick([I32, I64, INT]))
            self.mw.fixed_len = self.pick([4, 8, 16])
            self.mw.values = None
            self.arrays.append(self.mw)
        nk = self.pick([1, 2, 2, 3, 3, 4, 4, 5, 6])
        kid = 0
        for a in [a for a in self.arrays if a.want_from]:
            if self.chance(0.6):
                self.fill_kernel(kid, a)
                kid += 1
        for k in range(nk):
            if self.mw is not None and (self.mw.values is None or self.chance(0.15)):
                self.gen_producer(kid)
                kid += 1
            self.gen_kernel(kid)
            kid += 1
            if k < nk - 1 and self.chance(0.4):
                self.gen_host()
        self.finalize()
        return self

    def finalize(self):
        self.enter_exit = self.chance(0.15)
        for a in self.arrays:
            if a.kind in ("idx", "perm", "meta"):
                a.map = "to"
                if a.kind == "idx":
                    a.fixed_len = max(a.maxidx + 1, 1) + a.slack
                if a.kind == "meta":
                    a.fixed_len = max(len(a.values), 1)
            elif a.kind == "mw":
                a.map = "tofrom"
            elif not a.written:
                a.map = "to"
            elif getattr(a, "fill", False):
                a.map = self.pick(["from", "alloc"])
            elif a.want_from and a.first_cover is not None and \
                    len(a.first_cover) == a.length and \
                    a.first_cover == set(range(a.length)):
                a.map = self.pick(["from", "alloc"])
                if self.keep is not None and a.first_cover_kid not in self.keep:
                    a.map = "tofrom"
            else:
                a.map = "tofrom"
        for a in self.arrays:
            if a.kind in ("flat", "2d", "aos", "soa") and \
                    a.length * self.row_bytes(a) > 2 * MAX_BYTES:
                raise AssertionError("generator bug: %s has %d elements" % (a.name, a.length))

    # -- C text -----------------------------------------------------------------

    def init_expr(self, a, q, etype, salt):
        """Deterministic initial value of element q (C text)."""
        if is_fp(etype):
            return "(%s)((double)((long)((%s * %d + %d) %% 257) - 128) * 0.0625)" % (
                etype.cname, q, self.pick([37, 11, 101]), salt)
        return "(%s)((uint64_t)(%s) * %dUL + %dUL)" % (
            etype.cname, q, self.pick([2654435761, 40503, 977, 1]), salt)

    def section(self, a, lo_f, len_f):
        n = a.length
        lo = min(int(lo_f * n), n - 1)
        ln = max(1, min(n - lo, int(len_f * (n - lo))))
        return lo, ln

    def emit_host(self, ops, out):
        for op in ops:
            kind = op[0]
            if kind == "fetch":
                _, a, lo_f, len_f, tag = op
                lo, ln = self.section(a, lo_f, len_f)
                out.append("#pragma omp target update from(%s[%d:%d])" % (a.cexpr, lo, ln))
                out.append('printf("mid%d %s[%d:%d]=%%016llx\\n", (unsigned long long)'
                           'fnv(%s + %d, (size_t)%d * sizeof *%s));' % (
                               tag, a.name, lo, ln, a.cexpr, lo, ln, a.cexpr))
                self.tags.add("update-from")
            elif kind == "modify":
                _, a, region, rmw = op
                if rmw:
                    flo, fln = self.section(a, region[2], region[3])
                    lo = flo + int(self.rng.random() * fln * 0.5)
                    ln = max(1, min(flo + fln - lo, int(fln * self.rng.uniform(0.1, 1.0))))
                else:
                    lo, ln = self.section(a, region[2], region[3])
                out.append("for (long q = %d; q < %d; q++) {" % (lo, lo + ln))
                if a.kind == "2d":
                    out.append("  for (long c = 0; c < %d; c++)" % a.cols)
                    el, t = "%s[q][c]" % a.cexpr, a.etype
                elif a.kind == "aos":
                    # the host copy of the other members may be stale (a
                    # kernel wrote them): `update to` sends whole structs, so
                    # only a fetched struct may be changed member by member
                    m = self.rng.randrange(len(self.aos_members))
                    el, t = "%s[q].%s" % (a.cexpr, self.aos_members[m][0]), \
                        self.aos_members[m][1]
                    if not rmw:
                        for n2, t2 in self.aos_members:
                            if n2 != self.aos_members[m][0]:
                                v2 = "(double)(q % 5)" if is_fp(t2) else "(uint64_t)q * 3UL"
                                out.append("    %s[q].%s = (%s)(%s);" % (
                                    a.cexpr, n2, t2.cname, v2))
                else:
                    el, t = "%s[q]" % a.cexpr, a.etype
                if is_fp(t):
                    val = "%s * 0.5 + 1.0" % el if rmw else "(double)(q % 17) * 0.25 - 1.0"
                else:
                    val = "(uint64_t)%s * 3UL + 1UL" % el if rmw else "(uint64_t)q * 7UL + 5UL"
                out.append("    %s = (%s)(%s);" % (el, t.cname, val))
                out.append("}")
                out.append("#pragma omp target update to(%s[%d:%d])" % (a.cexpr, lo, ln))
                self.tags.add("host-modify-rmw" if rmw else "host-modify")
                self.tags.add("update-to")
            elif kind == "setloaded":
                _, L, v = op
                out.append("%s = %s;" % (L.ctext, c_literal(v, L.ty)))
                if L.where == "prm":
                    out.append("#pragma omp target update to(prm)")
                elif L.where == "pp":
                    out.append("#pragma omp target update to(pp[0:1])")
                else:
                    k = int(L.ctext[L.ctext.index("[") + 1:-1])
                    out.append("#pragma omp target update to(meta[%d:1])" % k)
                self.tags.add("update-to-param")
            elif kind == "setscalar":
                _, sc, v = op
                out.append("%s = %s;" % (sc.name, c_literal(v, sc.ty)))
                self.tags.add("scalar-reassign")

    def emit_kernel(self, K, out):
        pad = ""
        close = []
        if K.rep:
            s, vals = K.rep
            d = vals[1] - vals[0]
            out.append("for (int rep = 0; rep < %d; rep++) {" % len(vals))
            out.append("  %s = (%s)(%d + rep * %d);" % (s.name, s.ty.cname, vals[0], d))
            close.append("}")
            pad += "  "
        if K.split_counter_decl:
            out.append(pad + "{")
            for l in K.levels:
                out.append(pad + "  %s %s;" % (l.ty.cname, l.name))
            close.append(pad + "}")
            pad += "  "
            K.tags.add("counter-declared-outside")
        K.line = len(out) + 1
        if getattr(K, "pragmas", None):
            out += [pad + p for p in K.pragmas]
        else:
            out.append(pad + "#pragma omp %s%s" % (K.directive, "".join(" " + c for c in K.clauses)))
        for l in K.levels:
            out.append(pad + l.header(decl=not K.split_counter_decl))
        body = []
        for st in K.body:
            st.emit(1, body)
        if self.cxx:
            body = self.through_accessors(self.through_lambdas(body, K), K)
        out.append(pad + "{")
        out += [pad + b for b in body]
        out.append(pad + "}")
        if "nowait" in K.clauses:
            out.append(pad + "#pragma omp taskwait")
        out += list(reversed(close))

    # A kernel-body store `lhs = rhs;` whose rhs goes through C++ that gives
    # the same value (the store converts it as before): a generic lambda
    # that captures by copy (`[=](auto v_) { return v_; }(rhs)`), one with
    # an init capture (`[one_ = 1](auto v_) { return v_ * one_; }(rhs)`: a
    # product by 1 keeps a -0.0 and promotes small integers only), a
    # functor's member template operator() (`Pass_{}(rhs)`), or a member
    # function that returns a member of a temporary a function template made
    # (`keep_(rhs).get()`: CXX_HELPERS). Not the statement after an atomic
    # directive, whose form is fixed.
    _STORE = re.compile(r"^(\s*)([A-Za-z_][^=;]*[^=!<>+\-*/%&|^ ])\s=\s(.+);$")

    def through_lambdas(self, body, K):
        out, after_pragma = [], False
        for l in body:
            m = self._STORE.match(l)
            if (m and not after_pragma and "(" not in m.group(2).split("[")[0]
                    and not m.group(2).lstrip().startswith(("for", "if", "#"))
                    and self.cxx_rng.random() < 0.3):
                form = self.cxx_rng.choice(
                    ("lambda", "capture", "functor", "member"))
                pat = {"lambda": "%s%s = [=](auto v_) { return v_; }(%s);",
                       "capture": "%s%s = [one_ = 1](auto v_) "
                                  "{ return v_ * one_; }(%s);",
                       "functor": "%s%s = Pass_{}(%s);",
                       "member": "%s%s = keep_(%s).get();"}[form]
                l = pat % m.groups()
                K.tags.add("cxx-" + form)
            after_pragma = l.lstrip().startswith("#pragma")
            out.append(l)
        return out

    # A kernel-body element access `p[e]` of a flat array, an index array or
    # a view, rewritten as a call of an accessor that returns a reference to
    # the same element (CXX_HELPERS), made where it is used: `V1_<T>{p}(e)`,
    # `VC_<T>{p}(e)`, `V2_<T>{p, 1}(0, e)` or by a function, `v1_(p)(e)`. Subscripts are in range, so converting e to long
    # long keeps its value. Not the statement after an atomic directive,
    # whose form is fixed.
    def through_accessors(self, body, K):
        types = {a.name: a.etype.cname for a in self.arrays
                 if a.kind in ("flat", "idx", "perm")}
        types.update({v.name: v.arr.etype.cname for v in self.views})
        if not types:
            return body
        pat = re.compile(r"(?<![\w.>])(%s)\[" % "|".join(map(re.escape, types)))
        # (parenthesized: a macro's argument may hold it, F2I(...))
        forms = {"view": "(V1_<{t}>{{{p}}}({e}))",
                 "checked-view": "(VC_<{t}>{{{p}}}({e}))",
                 "view2": "(V2_<{t}>{{{p}, 1}}(0, {e}))",
                 "made-view": "(v1_({p})({e}))"}

        def rewrite(text):
            out, i = [], 0
            while True:
                m = pat.search(text, i)
                if m is None:
                    return "".join(out) + text[i:]
                k, depth = m.end(), 1
                while depth:
                    depth += {"[": 1, "]": -1}.get(text[k], 0)
                    k += 1
                inner = rewrite(text[m.end():k - 1])
                out.append(text[i:m.start()])
                if self.cxx_rng.random() < 0.3:
                    form = self.cxx_rng.choice(sorted(forms))
                    K.tags.add("cxx-" + form)
                    out.append(forms[form].format(
                        t=types[m.group(1)], p=m.group(1), e=inner))
                else:
                    out.append("%s[%s]" % (m.group(1), inner))
                i = k

        out, after_pragma = [], False
        for l in body:
            if not after_pragma and not l.lstrip().startswith("#"):
                l = rewrite(l)
            after_pragma = l.lstrip().startswith("#pragma")
            out.append(l)
        return out

    def check_first_covers(self):
        """An array mapped from/alloc because a first kernel writes it whole
        must appear in that kernel's text (by name or through a view). A
        statement that gen_stmts drops on Reject may already have recorded
        its write in the kernel's bookkeeping (seeds 20726 and 20842: a
        first kernel "covering" a4 / a2 whose statement was dropped); the
        array mapped `alloc` was then read uninitialised. Stale bookkeeping
        is otherwise only conservative (races, sizes); here such arrays are
        mapped tofrom instead, and the program is tagged."""
        def texts(stmts):
            for s in stmts:
                yield s.text or ""
                yield from texts(s.body)
                yield from texts(s.orelse)
        for a in self.arrays:
            if a.map not in ("from", "alloc") or getattr(a, "fill", False):
                continue
            K = next((k for k in self.kernels
                      if k.kid == getattr(a, "first_cover_kid", None)), None)
            names = [a.name] + [v.name for v in self.views if v.arr is a]
            text = "\n".join(texts(K.body)) if K is not None else ""
            if not any(re.search(r"\b%s\b" % n, text) for n in names):
                a.map = "tofrom"
                self.tags.add("first-cover-mismatch")

    def emit(self):
        self.tags = set()
        out = []
        w = out.append
        if self.cxx:
            w(CXX_MARKER)
        w("// hetero fuzz program, seed %d (tools/fuzz/gen.py)" % self.seed)
        for h in ("stdint.h", "stdio.h", "stdlib.h", "string.h", "math.h"):
            w("#include <%s>" % h)
        if self.cxx:
            w("#include <algorithm>")
            for line in CXX_HELPERS.split("\n"):  # one line each: K.line
                w(line)
        w("")
        w("static uint64_t fnv(const void *p, size_t n) {")
        w("  const unsigned char *b = (const unsigned char *)p;")
        w("  uint64_t h = 14695981039346656037ULL;")
        w("  for (size_t i = 0; i < n; ++i) { h ^= b[i]; h *= 1099511628211ULL; }")
        w("  return h;")
        w("}")
        w("static unsigned long long bits(const void *p, size_t n) {")
        w("  unsigned long long v = 0; memcpy(&v, p, n); return v;")
        w("}")
        w("#define F2I(x) ((x) > -1e15 && (x) < 1e15 ? (long long)(x) : 3LL)")
        if self.helper_types or self.uses_rng:
            w("#pragma omp declare target")
            for sfx, ct in sorted(self.helper_types.items()):
                w("static %s hld_%s(const %s *p, long long k) { return p[k]; }"
                  % (ct, sfx, ct))
                w("static %s hldp_%s(const %s *p) { return *p; }" % (ct, sfx, ct))
                w("static void hst_%s(%s *p, long long k, %s v) { p[k] = v; }"
                  % (sfx, ct, ct))
                w("static void hstp_%s(%s *p, %s v) { *p = v; }" % (sfx, ct, ct))
            if self.uses_rng:
                w("static uint64_t hrng(uint64_t *s) {")
                w("  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;")
                w("  return *s >> 33;")
                w("}")
            w("#pragma omp end declare target")
        if self.uses_hix:
            w("#pragma omp declare target")
            w("static inline long long hix(long long k, long long z) {"
              " return k + z * 3; }")
            w("#pragma omp end declare target")
        if self.uses_mix:
            w("#pragma omp declare target")
            w("static inline uint64_t mix(uint64_t a, uint64_t b) {")
            w("  return (a ^ (b << 7) ^ (b >> 3)) * 0x9E3779B97F4A7C15ULL;")
            w("}")
            w("#pragma omp end declare target")
        for e in self.enums:
            # C++: the type C gives it (int, or unsigned int without negative
            # enumerators), fixed, so that every value of it is one.
            fixed = (" : " + ("int" if e.signed else "unsigned")) if self.cxx else ""
            w("enum %s%s { %s };" % (e.cname.split()[1], fixed, ", ".join(
                "%s = %d" % (n, v) for n, v in zip(e.enumerators, e.values))))
        if self.aos_members:
            w("struct rec { %s };" % " ".join("%s %s;" % (t.cname, n)
                                                for n, t in self.aos_members))
        soa = [a for a in self.arrays if a.kind == "soa"]
        if soa:
            w("struct soa { %s };" % " ".join("%s *%s;" % (a.etype.cname, a.name)
                                                for a in soa))
        if self.prm_members:
            w("struct prm_t { %s };" % " ".join("%s %s;" % (t.cname, n)
                                                  for n, t, _ in self.prm_members))
        if self.pp_members:
            w("struct pp_t { %s };" % " ".join("%s %s;" % (t.cname, n)
                                                 for n, t, _ in self.pp_members))
        for a in self.arrays:
            w("#define N_%s %d" % (a.name, a.length))
        w("")
        w("int main(void) {")
        for s in self.scalars:
            w("  %s%s %s = %s;" % ("const " if s.const else "", s.ty.cname, s.name,
                                   c_literal(s.init, s.ty)))
        if soa:
            w("  struct soa *S = (struct soa *)calloc(1, sizeof *S);")
        for a in self.arrays:
            n = "N_%s" % a.name
            salt = self.rng.randrange(1000)
            if a.kind == "2d":
                cols = str(a.cols)
                if a.vla:
                    # C++ has no variable length arrays (and clang 19 crashes
                    # on a captured one when an x86_64 offload target is
                    # built, stock clang++ -fopenmp-targets=x86_64-... too).
                    w("  %sint c%s = %d;" % ("const " if self.cxx else "", a.name, a.cols))
                    cols = "c%s" % a.name
                if self.cxx:
                    # C++ names no two variably modified types alike: auto.
                    w("  auto %s = (%s (*)[%s])calloc(%s, sizeof(%s) * %s);"
                      % (a.name, a.etype.cname, cols, n, a.etype.cname, cols))
                else:
                    w("  %s (*%s)[%s] = calloc(%s, sizeof *%s);"
                      % (a.etype.cname, a.name, cols, n, a.name))
                w("  for (long q = 0; q < %s; q++)" % n)
                w("    for (long c = 0; c < %d; c++)" % a.cols)
                w("      %s[q][c] = %s;" % (a.name, self.init_expr(a, "(q * %d + c)" % a.cols,
                                                                    a.etype, salt)))
                continue
            if a.kind == "aos":
                w("  struct rec *%s = (struct rec *)calloc(%s, sizeof *%s);" % (a.name, n, a.name))
                w("  for (long q = 0; q < %s; q++) {" % n)
                for m, t in self.aos_members:
                    w("    %s[q].%s = %s;" % (a.name, m, self.init_expr(a, "q", t, salt)))
                w("  }")
                continue
            w("  %s *%s = (%s *)calloc(%s, sizeof(%s));" % (a.etype.cname, a.cexpr.replace("S->", "S_") if False else a.name,
                                                        a.etype.cname, n, a.etype.cname) if a.kind != "soa"
              else "  S->%s = (%s *)calloc(%s, sizeof(%s));" % (a.name, a.etype.cname, n, a.etype.cname))
            if a.kind in ("idx", "perm"):
                P, Q, R = a.formula
                w("  for (long q = 0; q < %s; q++) %s[q] = (%s)((q * %dL + %dL) %% %dL);"
                  % (n, a.name, a.etype.cname, P, Q, R))
            elif a.kind == "meta":
                for k, v in enumerate(a.values):
                    w("  meta[%d] = %s;" % (k, c_literal(v, a.etype)))
            elif a.kind == "mw":
                pass
            else:
                w("  for (long q = 0; q < %s; q++) %s[q] = %s;" % (
                    n, a.cexpr, self.init_expr(a, "q", a.etype, salt)))
        if self.prm_members:
            w("  struct prm_t prm = { %s };" % ", ".join(c_literal(v, t)
                                                          for _, t, v in self.prm_members))
        if self.pp_members:
            w("  struct pp_t *pp = (struct pp_t *)malloc(sizeof *pp);")
            for m, t, v in self.pp_members:
                w("  pp->%s = %s;" % (m, c_literal(v, t)))
        view_at = len(out)
        for rv in self.redvars:
            w("  %s %s = %s;" % (rv.ty.cname, rv.name, rv.init_c))
        self.check_first_covers()
        maps = []      # (map type, list item)
        if soa:
            maps.append(("to", "S[0:1]"))
        for a in self.arrays:
            maps.append((a.map, "%s[0:N_%s]" % (a.cexpr, a.name)))
            self.tags.add("map-" + a.map)
        if self.prm_members:
            maps.append(("to", "prm"))
        if self.pp_members:
            maps.append(("to", "pp[0:1]"))
        if self.enter_exit:
            # the same mappings through unstructured enter/exit data
            enter = {"tofrom": "to", "to": "to", "from": "alloc", "alloc": "alloc"}
            leave = {"tofrom": "from", "to": "release", "from": "from", "alloc": "delete"}
            w("#pragma omp target enter data %s" % " ".join(
                "map(%s: %s)" % (enter[m], x) for m, x in maps))
            self.tags.add("enter-exit-data")
        else:
            w("#pragma omp target data %s" % " ".join("map(%s: %s)" % mx for mx in maps))
        w("{")
        body = []
        for ev in self.events:
            if ev[0] == "kernel":
                K = ev[1]
                if getattr(K, "fill_array", None) is not None:
                    a = K.fill_array
                    K.line = len(body) + 1
                    body.append("#pragma omp %s" % K.directive)
                    body.append("for (long i0 = 0; i0 < N_%s; i0++)" % a.name)
                    body.append("  %s[i0] = (%s)((uint64_t)i0 * 2654435761UL + 7UL);"
                                % (a.name, a.etype.cname) if not is_fp(a.etype) else
                                "  %s[i0] = (%s)((double)(i0 %% 29) * 0.125);"
                                % (a.name, a.etype.cname))
                    continue
                if self.keep is not None and K.kid not in self.keep and \
                        "producer-kernel" not in K.tags:
                    K.line = -1
                    if K.rep:
                        s, vals = K.rep
                        body.append("%s = %s;" % (s.name, c_literal(vals[-1], s.ty)))
                    continue
                self.emit_kernel(K, body)
                if self.diag:
                    self.emit_diag(K, body)
            else:
                self.emit_host(ev[1], body)
        for a in self.arrays:
            if a.map == "alloc":
                body.append("#pragma omp target update from(%s[0:N_%s])" % (a.cexpr, a.name))
        used = "\n".join(body)
        views = ["  %s *%s = %s + %d;" % (v.arr.etype.cname, v.name, v.arr.name, v.off)
                 for v in self.views if re.search(r"\b%s\b" % v.name, used)]
        if views:
            self.tags.add("pointer-view")
        out[view_at:view_at] = views
        base = len(out)
        for K in self.kernels:
            if K.line is not None and K.line > 0:
                K.line += base
        out += ["  " + l if l else l for l in body]
        w("}")
        if self.enter_exit:
            w("#pragma omp target exit data %s" % " ".join(
                "map(%s: %s)" % (leave[m], x) for m, x in reversed(maps)))
        for a in self.arrays:
            if a.kind in ("idx", "perm", "meta"):
                continue
            w('  printf("%s=%%016llx\\n", (unsigned long long)fnv(%s, (size_t)N_%s * sizeof *%s));'
              % (a.name, a.cexpr, a.name, a.cexpr))
        for rv in self.redvars:
            w('  printf("%s=%%016llx\\n", bits(&%s, sizeof %s));' % (rv.name, rv.name, rv.name))
        w('  printf("done\\n");')
        w("  return 0;")
        w("}")
        return "\n".join(out) + "\n"

    def emit_diag(self, K, out):
        """After kernel K: fetch every array some kernel wrote so far and
        print its hash (localises the first kernel that goes wrong)."""
        for a in self.arrays:
            if a.kind in ("idx", "perm", "meta") or a.map == "to" or not a.touched_by:
                continue
            if min(a.touched_by) > K.kid:
                continue
            out.append("#pragma omp target update from(%s[0:N_%s])" % (a.cexpr, a.name))
            out.append('printf("diag k%d %s=%%016llx\\n", (unsigned long long)fnv(%s, '
                       '(size_t)N_%s * sizeof *%s));' % (K.kid, a.name, a.cexpr, a.name, a.cexpr))
        for rv in K.reductions:
            out.append('printf("diag k%d %s=%%016llx\\n", bits(&%s, sizeof %s));'
                       % (K.kid, rv.name, rv.name, rv.name))

    def meta_json(self):
        return {
            "seed": self.seed,
            "kernels": [{
                "kid": K.kid, "line": K.line, "directive": K.directive,
                "clauses": K.clauses, "depth": len(K.levels), "space": K.space,
                "launches": len(K.envs), "tags": sorted(K.tags),
                "reductions": ["%s:%s" % (rv.op, rv.ty.cname) for rv in K.reductions],
            } for K in self.kernels],
            "arrays": [{"name": a.name, "kind": a.kind, "type": a.etype.cname,
                        "length": a.length, "map": a.map} for a in self.arrays],
            "program_tags": sorted(self.tags),
        }


def generate(seed, diag=False, keep=None):
    """Returns (C source, metadata dict) for a seed. keep: the ids of the
    kernels to emit (a reduced program; producer kernels always stay)."""
    try:
        P = Program(seed, diag, keep).generate()
        src = P.emit()
    finally:
        _CXX[0] = False
    return src, P.meta_json()


def selftest(count, seed, cc="clang-19"):
    """Checks the integer model against the C compiler: random expressions
    over variables of every integer type, evaluated in Python (exact C
    semantics, UB detected) and in C under UBSan; values must agree and C
    must see no UB where Python saw none. Returns the number of mismatches."""
    import subprocess
    import tempfile
    rng = random.Random(seed)
    vars_ = [("x%d" % k, rng.choice(SCALAR_TYPES)) for k in range(6)]

    def rand_ie(depth):
        if depth == 0 or rng.random() < 0.25:
            if rng.random() < 0.7:
                n, t = rng.choice(vars_)
                return atom(n, n, t, t.lo, t.hi)
            t = rng.choice([INT, UINT, LONG, ULONG, LLONG])
            v = rng.choice([0, 1, 3, 200, 255, 65000, 65535, 2 ** 31 - 1, 2 ** 32 - 1,
                            2 ** 32, -1, -7, -128])
            return lit(v, t) if t.holds(v, v) else lit(abs(v) % 1000, t)
        k = rng.random()
        a = rand_ie(depth - 1)
        if k < 0.15:
            return cast(rng.choice(SCALAR_TYPES), a)
        if k < 0.2:
            return neg(a)
        if k < 0.23:
            return bnot(a)
        if k < 0.3:
            return cond(compare(rng.choice(["<", ">=", "==", "!="]), a, rand_ie(0)),
                        a, rand_ie(depth - 1))
        if k < 0.4:
            return binop(rng.choice(["<<", ">>"]), a, lit(rng.randrange(0, 31)))
        op = rng.choice(["+", "-", "*", "/", "%", "&", "|", "^", "+", "-"])
        b = rand_ie(depth - 1)
        if op in "/%" and b.lo <= 0 <= b.hi:
            b = binop("|", cast(UINT, b), lit(1, UINT))
        return binop(op, a, b)

    exprs = []
    while len(exprs) < count:
        try:
            exprs.append(rand_ie(rng.randrange(1, 5)))
        except Reject:
            pass
    samples = []
    for _ in range(8):
        samples.append({n: rng.choice([t.lo, t.hi, 0, 1, -1 if t.signed else 2,
                                       rng.randrange(t.lo, t.hi + 1),
                                       rng.randrange(max(t.lo, -300), min(t.hi, 300))])
                        for n, t in vars_})
    lines = ["#include <stdio.h>", "#include <stdint.h>", "#include <stddef.h>",
             "static volatile long long sink;", "int main(void) {"]
    for n, t in vars_:
        lines.append("  volatile %s v_%s; %s %s;" % (t.cname, n, t.cname, n))
    expect = []
    for si, smp in enumerate(samples):
        for n, t in vars_:
            lines.append("  v_%s = %s; %s = v_%s;" % (n, c_literal(smp[n], t), n, n))
        for ei, e in enumerate(exprs):
            ns = dict(EVAL_HELPERS)
            ns.update(smp)
            try:
                v = eval(e.py, ns)
            except (UB, ZeroDivisionError):
                continue
            v = int(v)
            fmt = '"%%d %%d %%lld\\n", %d, %d, (long long)(%s)' if e.ty.signed else \
                '"%%d %%d %%llu\\n", %d, %d, (unsigned long long)(%s)'
            lines.append("  printf(%s);" % (fmt % (si, ei, e.c)))
            expect.append("%d %d %d" % (si, ei, v))
    lines += ["  return 0;", "}"]
    with tempfile.TemporaryDirectory() as d:
        src, exe = d + "/t.c", d + "/t"
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        subprocess.run([cc, "-O1", "-w", "-fsanitize=undefined", "-fno-sanitize-recover=all",
                        src, "-o", exe], check=True)
        p = subprocess.run([exe], capture_output=True, text=True)
    got = p.stdout.splitlines()
    bad = 0
    if p.returncode != 0:
        print("selftest: C run failed (UB the model missed?):\n" + p.stderr[-2000:])
        bad += 1
    for g, x in zip(got, expect):
        if g != x:
            si, ei = (int(v) for v in x.split()[:2])
            print("selftest: %s: C says %s, Python %s" % (exprs[ei].c, g.split()[2],
                                                           x.split()[2]))
            bad += 1
    print("selftest: %d expressions x %d samples, %d values compared, %d problems"
          % (len(exprs), len(samples), len(expect), bad))
    return bad


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--selftest":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
        sys.exit(1 if selftest(n, int(sys.argv[3]) if len(sys.argv) > 3 else 1) else 0)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", "--output", help="C file (default: stdout)")
    ap.add_argument("--meta", help="write the JSON description here")
    ap.add_argument("--diag", action="store_true",
                    help="fetch and hash every written array after each kernel")
    args = ap.parse_args()
    src, meta = generate(args.seed, args.diag)
    if args.output:
        with open(args.output, "w") as f:
            f.write(src)
    else:
        sys.stdout.write(src)
    if args.meta:
        with open(args.meta, "w") as f:
            json.dump(meta, f, indent=1)


if __name__ == "__main__":
    main()
