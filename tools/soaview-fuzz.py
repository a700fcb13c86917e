#!/usr/bin/env python3
"""soaview-fuzz: differential testing of the whole compiler.

  soaview-fuzz --count N --seed S [--jobs J] [--keep DIR] [--save-failures DIR]

Generates N random valid C++ programs (structs of 2-40 mixed fields, nested
structs, fixed-size arrays, containers of values and pointers with repeated
elements, annotated loops whose bodies read, write and compound-assign random
fields under conditions, with continue/break, through chains of free
functions, methods, getters/setters and templates, nested pair loops with
hoisting, offloaded loops run through OpenMP host offloading), builds each with plain clang++-19 and with soaview-clang++, runs
both and compares their output. The constructs of real particle codes are in
the grammar too: anonymous unions and structs, private members of class and
alias type behind getters, setters and non-const accessors `T &mut_f()`
(read or written through; a friend helper reads them), nested
namespaces, static members and functions reached from templates, GNU
__typeof__ statement-expression macros, sizeof/decltype of fields, pair
templates taking both views through one parameter, a lambda written outside
the loops that takes the element by its own type, pair loops writing a
field through both views (Newton's third law), const element pointers,
discarded elements (`(void)p;`), user ranges found by argument-dependent
lookup (free begin/end only), scratch allocation in offloaded bodies
(new/delete, new[]/delete[], malloc/free: routed to soaview's device heap),
and the loop forms of docs/attributes.md: iterator loops (`*it`, `it->`;
begin/end, std::begin/std::end, cbegin, `it++`, the end first, a
condition asking the iterator, `it.isValid()`), members named with their
class (`e->S::x`), and index loops with `<=`
from 1 (`buf[i - 1]`) and `!=` with an offset (`buf[i - first]`), their
target written or inferred, reads of other elements of an index loop's target
(`buf[n / 2]`, a neighbour list `buf[ngb[k]]`), neighbour-list loops
(`buf[ngb[k]]` over a list with repeats), classes carried as bytes
with copies of their own (the C++98 idiom with an empty destructor, an
array member copied in a loop), symmetric iterator pair loops over
`std::vector<S *>` (with repeats in half the programs: the nest then runs
as written), and calls of a function that changes
another global container of the loops' pointer type (the container rule
follows calls; such loops still convert).

A failure is: different output, a crash or hang of either build, a compiler
crash, or a converted build that fails although the plain build compiled --
unless soaview refused a loop with a located diagnostic, which is counted as a
refusal. Failures are reduced (statement by statement) and saved as lit tests.
The last line is exactly "N programs, M mismatches".
"""
import argparse
import concurrent.futures as cf
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def stable_hash(text):
    """A hash that does not change between runs (str hash is salted)."""
    h = 0
    for ch in text:
        h = (h * 131 + ord(ch)) % 1000003
    return h


# --------------------------------------------------------------------------
# Program generation. Every statement that may be removed by the reducer sits
# on its own line ending in "// @r".

class Field:
    def __init__(self, name, kind, n=0, sub=None):
        self.name, self.kind, self.n, self.sub = name, kind, n, sub


NUM_KINDS = ["double", "float", "int", "long", "unsigned"]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        # Constructs added after the reduce test's seed was fixed draw from
        # their own stream, so the main stream's programs stay as they were.
        self.r2 = random.Random(seed * 7919 + 17)
        self.seed = seed
        self.lines = []
        self.in_template = False
        self.in_device = False
        self.host_only = set()
        self.iterator = False  # the body's element is *it (not it itself)
        self.symptr = set()  # symit kernels over std::vector<S *>

    def pick(self, xs):
        return self.r.choice(xs)

    # ---- struct -----------------------------------------------------------
    def make_struct(self):
        r = self.r
        fields = []
        nf = r.randint(2, 40)
        inner = None
        for i in range(nf):
            k = r.random()
            if k < 0.55:
                fields.append(Field(f"f{i}", self.pick(NUM_KINDS)))
            elif k < 0.7:
                fields.append(Field(f"a{i}", self.pick(["double", "int", "float"]), n=r.randint(1, 4)))
            elif k < 0.8:
                fields.append(Field(f"c{i}", "char", n=r.randint(1, 9)))
            elif k < 0.92 and inner is None:
                inner = [Field("x", "double"), Field("y", self.pick(NUM_KINDS)),
                         Field("z", "int", n=2)]
                fields.append(Field(f"in{i}", "inner", sub=inner))
            else:
                fields.append(Field(f"p{i}", "char"))  # padding-ish
        if not any(f.kind in NUM_KINDS for f in fields):
            fields.append(Field("f_last", "double"))
        # Constructs of real particle codes (SWIFT, Peano4, N-body).
        self.anon_union = r.random() < 0.3   # union { struct {..} ua; struct {..} ub; };
        self.anon_struct = r.random() < 0.3  # struct { double s0; int s1; };
        self.private = r.random() < 0.3      # private Real pv; Vec2 pw; + accessors
        self.namespaced = r.random() < 0.3   # S inside namespace ns1::ns2
        self.bvec = r.random() < 0.3         # BVec bv: copied as bytes (Peano4's Vector)
        # its special members: copies of its own; or the C++98 idiom (a
        # constructor zeroing, an empty destructor); or an array copied in a loop
        self.bvec_style = self.pick(["copies", "cxx98", "array"])
        self.catomic = r.random() < 0.1      # CAtom at: a copyable atomic, never converted
        # or, drawn only then, a lock inline in S (pthread_mutex_t mx): the
        # view's copy would be locked, so never converted either
        self.lock_style = self.pick(["catom", "mutex"]) if self.catomic else None
        self.fields = fields
        self.inner = inner

    def scalars(self):
        """Numeric lvalue paths: (expr suffix, kind)."""
        out = []
        for f in self.fields:
            if f.kind in NUM_KINDS and not f.n:
                out.append((f.name, f.kind))
            if f.n and f.kind in ("double", "int", "float"):
                for k in range(f.n):
                    out.append((f"{f.name}[{k}]", f.kind))
            if f.kind == "inner":
                for s in f.sub:
                    if s.n:
                        for k in range(s.n):
                            out.append((f"{f.name}.{s.name}[{k}]", s.kind))
                    else:
                        out.append((f"{f.name}.{s.name}", s.kind))
        # Loops use one member of the anonymous union (ua), and update()
        # sometimes writes ub over it then ua again (overlapping members):
        # init and dump never read ub, which shares its storage.
        if self.anon_union:
            out += [("ua.u0", "double"), ("ua.u1", "double")]
        if self.anon_struct:
            out += [("s0", "double"), ("s1", "int")]
        if self.bvec and not self.in_device:  # views carry BVec as bytes on the host only
            out += [("bv.x", "double"), ("bv.y", "double")]
        return out

    def chars(self):
        return [(f"{f.name}[{k}]", "char") for f in self.fields
                if f.kind == "char" and f.n for k in range(f.n)]

    # ---- expressions -------------------------------------------------------
    def update(self, obj, arrow):
        """One statement updating a field of obj, bounded, without UB."""
        acc = "->" if arrow else "."
        r = self.r
        if self.chars() and r.random() < 0.1:
            c, _ = self.pick(self.chars())
            return f"{obj}{acc}{c} = (char)('a' + ({obj}{acc}{c} - 'a' + 1 + 26) % 26);"
        if self.anon_union and r.random() < 0.08:
            # Overlapping union members (SWIFT's ghost): ub.v0 shares ua.u0's
            # storage; written from ua, then ua written back over it, so the
            # dumped ua (read as written last) stays defined.
            U = f"{obj}{acc}"
            return (f"{{ {U}ub.v0 = {U}ua.u1 * 0.5 + 0.25; double t_ = {U}ub.v0; "
                    f"{U}ua.u0 = t_; }}")
        if self.bvec and not self.in_device and r.random() < 0.08:  # BVec whole, both ways
            B = f"{obj}{acc}bv"
            return f"{{ auto t_ = {B}; t_.x = t_.x * 0.5 + t_.y * 0.25; {B} = t_; }}"
        lhs, kind = self.pick(self.scalars())
        rhs, rk = self.pick(self.scalars())
        L = f"{obj}{acc}{lhs}"
        # A member named with its class (`e->S::x`), as MercuryDPM writes.
        R = f"{obj}{acc}{'S::' if r.random() < 0.08 else ''}{rhs}"
        if kind in ("double", "float") and r.random() < 0.15:
            # GNU macro (statement expression over __typeof__), decltype and
            # sizeof of fields: unevaluated operands are not accesses.
            if r.random() < 0.5:
                return f"{L} = SV_MAX({L}, {R}) * 0.5;"
            return f"{{ decltype({L}) t_ = {L}; {L} = t_ * 0.5 + (sizeof({R}) > 4 ? 0.25 : 0.125); }}"
        if kind in ("double", "float"):
            c = round(r.uniform(-2, 2), 3)
            form = r.randint(0, 3)
            if form == 0:
                return f"{L} = {L} * 0.5 + {c};"
            if form == 1:
                return f"{L} += 0.25 * ({R} > 0 ? 1 : -1);"
            if form == 2:
                return f"{L} = ({L} + {R}) * 0.5;"
            return f"{L} -= {c} * 0.125;"
        # integers stay in [0, 1000)
        form = r.randint(0, 2)
        if form == 0:
            return f"{L} = ({L} * 3 + 1) % 1000;"
        if form == 1:
            return f"{L} = ({L} + ({R} > 0 ? 7 : 3)) % 1000;"
        return f"{L} = {L} / 2 + 1;"

    def pair_updates(self, outs, ins, dst, src, guard, acc):
        """1-3 statements of a pair loop: a field of dst (`l->`, `buf[i].`)
        updated from the sign of a field of src, optionally summed in acc."""
        lines = []
        for _ in range(self.r.randint(1, 3)):
            o, ok = self.pick(outs)
            i2, ik = self.pick(ins)
            if ok in ("double", "float"):
                lines.append(f"      {guard}{dst}{o} = {dst}{o} * 0.75 + 0.125 * ({src}{i2} > 0 ? 1 : -1); // @r")
            else:
                lines.append(f"      {guard}{dst}{o} = ({dst}{o} + ({src}{i2} > 0 ? 1 : 2)) % 1000; // @r")
            if acc:
                lines.append(f"      acc += {src}{i2}; // @r")
        return lines

    def note_host_only(self, name, lines):
        """Functions whose code uses the BVec (host only: offloaded loops
        do not call them)."""
        if any("bv" in l for l in lines):
            self.host_only.add(name)

    def on_device(self, sc, device):
        """The fields an offloaded loop may use: not the BVec (host only)."""
        return [x for x in sc if not (device and x[0].startswith("bv."))]

    def unmentioned(self, body):
        """A scalar field the body's text does not name (a read of it on
        another element converts; one the body writes would be refused), or
        any when it names them all."""
        text = "\n".join(body)
        sc = self.scalars()
        free = [x for x in sc
                if "." + x[0].split(".")[0].split("[")[0] not in text]
        return self.pick(free or sc)[0]

    def split_fields(self, sc):
        """Scalars split by top-level field into (written, read) halves, so
        the two views of a nest share no leaf."""
        tops = sorted({p.split('.')[0].split('[')[0] for p, _ in sc})
        half = max(1, len(tops) // 2)
        out_tops = set(tops[:half])
        outs = [x for x in sc if x[0].split('.')[0].split('[')[0] in out_tops]
        ins = [x for x in sc if x[0].split('.')[0].split('[')[0] not in out_tops] or outs
        return outs, ins

    def cond(self, obj, arrow):
        acc = "->" if arrow else "."
        lhs, kind = self.pick(self.scalars())
        if kind in ("double", "float"):
            return f"{obj}{acc}{lhs} > {round(self.r.uniform(-1, 1), 2)}"
        return f"{obj}{acc}{lhs} % {self.r.randint(2, 7)} == 0"

    # ---- program -----------------------------------------------------------
    def program(self):
        r = self.r
        self.make_struct()
        L = []
        w = L.append
        w("#include <algorithm>")
        w("#include <array>")
        w("#include <atomic>")
        w("#include <cmath>")
        w("#include <cstdio>")
        w("#include <cstdlib>")
        w("#include <cstring>")
        w("#include <deque>")
        w("#include <functional>")
        w("#include <list>")
        w("#include <pthread.h>")
        w("#include <vector>")
        w("#include <utility>")
        w("#define SV_MAX(a, b) ({ __typeof__(a) a_ = (a); __typeof__(b) b_ = (b); a_ > b_ ? a_ : b_; })")
        w("")
        w("struct Access;")
        if self.namespaced:
            w("namespace ns1::ns2 {")
        if self.inner:
            w("struct Inner {")
            for s in self.inner:
                w(f"  {s.kind} {s.name}" + (f"[{s.n}]" if s.n else "") + ";")
            w("};")
        if self.private:
            w("struct Vec2 { double v[2]; };")
        if self.bvec:  # not trivially copyable; its value is its bytes
            w("struct BVec {")
            w("  double x, y;")
            if self.bvec_style == "cxx98":
                w("  BVec() : x(0), y(0) {}")
                w("  BVec(const BVec &o) : x(o.x), y(o.y) {}")
                w("  ~BVec() {}")
            else:
                w("  BVec() = default;")
                w("  BVec(const BVec &o) : x(o.x) { y = o.y; }")
            if self.bvec_style == "array":
                w("  double w[2];")
                w("  BVec &operator=(const BVec &o) {")
                w("    if (this != &o) {")
                w("      x = o.x;")
                w("      this->y = o.y;")
                w("      for (int k = 0; k < 2; ++k)")
                w("        w[k] = o.w[k];")
                w("    }")
                w("    return *this;")
                w("  }")
            else:
                w("  BVec &operator=(const BVec &o) { x = o.x; y = o.y; return *this; }")
            w("};")
        if self.lock_style == "catom":  # derived from std::atomic with copies of its own
            w("struct CAtom : std::atomic<int> {")
            w("  CAtom() : std::atomic<int>(0) {}")
            w("  CAtom(const CAtom &o) : std::atomic<int>(o.load()) {}")
            w("  CAtom &operator=(const CAtom &o) { store(o.load()); return *this; }")
            w("};")
        w("struct S {")
        w("  static constexpr double kHalf = 0.5;")
        w("  static constexpr double kW[2] = {0.5, 0.25};")
        w("  enum Mode { ModeA = 1, ModeB = 2 };")
        w("  using Real = double;")
        w("  static double twice(double x) { return x + x; }")
        for f in self.fields:
            t = "Inner" if f.kind == "inner" else f.kind
            w(f"  {t} {f.name}" + (f"[{f.n}]" if f.n else "") + ";")
        if self.anon_union:
            w("  union { struct { double u0; double u1; } ua; struct { double v0; } ub; };")
        if self.anon_struct:
            w("  struct { double s0; int s1; };")
        if self.bvec:
            w("  BVec bv;")
        if self.lock_style == "catom":
            w("  CAtom at;")
        if self.lock_style == "mutex":
            w("  pthread_mutex_t mx;")
        if self.private:
            w("  Real get_pv() const { return pv; }")
            w("  const Real &ref_pv() const { return pv; }")
            w("  const double &ref_pw0() const { return pw.v[0]; }")
            w("  void set_pv(Real x) { pv = x; }")
            w("  double get_pw0() const { return pw.v[0]; }")
            w("  void set_pw0(double x) { pw.v[0] = x; }")
            w("  Real &mut_pv() { return pv; }")
            w("  double &mut_pw0() { return pw.v[0]; }")
        # methods: getters, setters, an updater
        sc = self.scalars()
        getters = []
        for i in range(r.randint(0, 3)):
            path, kind = self.pick(sc)
            if "[" in path or "." in path or path in [g for g, _ in getters]:
                continue
            w(f"  {kind} get_{path}() const {{ return {path}; }}")
            w(f"  const {kind} &ref_{path}() const {{ return {path}; }}")
            w(f"  void set_{path}({kind} v) {{ {path} = v; }}")
            # a non-const accessor: read or written where it is called
            w(f"  {kind} &mut_{path}() {{ return {path}; }}")
            getters.append((path, kind))
        if self.private:
            getters += [("pv", "double"), ("pw0", "double")]
        w("  void step(double t) {")
        at = len(L)
        for _ in range(r.randint(1, 3)):
            w("    " + self.update("this", True).replace("this->", "") + " // @r")
        self.note_host_only("step", L[at:])
        w("    (void)t;")
        w("  }")
        if self.private:
            w("  friend struct ::Access;")
            w("private:")
            w("  using Priv = double;")
            w("  Priv pv;")
            w("  Vec2 pw;")
        w("};")
        if self.namespaced:
            w("} // namespace ns1::ns2")
            w("using ns1::ns2::S;")
        # The private members, for init and dump.
        w("struct Access {")
        w("  static void init(S &s, unsigned k) {")
        if self.private:
            w("    s.pv = (double)(k % 13) / 4; s.pw.v[0] = (double)(k % 7) / 8; s.pw.v[1] = 0.5;")
        w("    (void)s, (void)k;")
        w("  }")
        w("  static void dump(const S &s) {")
        if self.private:
            w('    std::printf("%a %a ", s.pv, s.pw.v[0]);')
        w("    (void)s;")
        w("  }")
        w("};")
        w("")
        # free function chain and a template
        nfun = r.randint(1, 3)
        for j in reversed(range(nfun)):
            ptr = r.random() < 0.5
            p = "S *s" if ptr else "S &s"
            w(f"static void fn{j}({p}, int depth) {{")
            at = len(L)
            for _ in range(r.randint(1, 3)):
                w("  " + self.update("s", ptr) + " // @r")
            calls_host_only = f"fn{j + 1}" in self.host_only  # the next in the chain
            self.note_host_only(f"fn{j}", L[at:] + (["bv"] if calls_host_only else []))
            if j + 1 < nfun:
                call = f"fn{j+1}({'s' if ptr == self.fnptr.get(j+1, False) else ('*s' if ptr else '&s')}, depth);"
                w(f"  if (depth > 0) {call} // @r")
            w("}")
            self.fnptr[j] = ptr
        w("template <class T> void tfn(T &s) {")
        at = len(L)
        for _ in range(r.randint(1, 2)):
            w("  " + self.update("s", False) + " // @r")
        self.note_host_only("tfn", L[at:])
        if r.random() < 0.5:
            path, kind = self.pick([x for x in self.scalars() if x[1] == "double"] or [("", "")])
            if path:
                w(f"  s.{path} = (typename T::Real)(T::twice(s.{path}) * T::kHalf) + (T::ModeA - 1) + "
                  f"s.kW[1] * (sizeof(T::kW) / sizeof(double) - 2); // @r")
        w("}")
        # A functor: a class template whose members receive the element
        # (one out of line, one a member template, a call operator, a final
        # override of a virtual one) and keep state of their own (a count).
        w("template <class T> struct FxBase { virtual ~FxBase() = default; virtual void hit(T &s) = 0; };")
        w("template <class T> struct Fx final : FxBase<T> {")
        w("  double k = 0.5; long n = 0;")
        w("  void apply(T &s);")
        w("  template <int N> void bump(T &s, const T &o) {")
        w("    " + self.update("s", False) + " // @r")
        w("    n += N;")
        w("    (void)o;")
        w("  }")
        w("  void operator()(T &s) { " + self.update("s", False) + " ++n; } // @r")
        w("  void hit(T &s) override { " + self.update("s", False) + " } // @r")
        w("};")
        w("template <class T> void Fx<T>::apply(T &s) {")
        w("  " + self.update("s", False) + " // @r")
        w("  n += 2;")
        w("}")
        w("static Fx<S> fx;")
        # A lambda written outside every loop that takes the element by its
        # own type: its parameters become `auto` where written.
        w("static long tln = 0;")
        w("static auto tl = [](S &s, const S &o) { " + self.update("s", False) + " (void)o; ++tln; };")
        # A function that changes a global container of the loops' pointer
        # type by name: not an iterated container, so loops calling it convert
        # (the container rule follows calls: checks/ContainerChecks.cpp).
        w("static std::vector<S *> lg;")
        w("static void logc() { if (lg.size() < 3) lg.push_back(nullptr); }")
        # A class with a virtual member that is not final, called through a
        # reference bound to it or to a derived class's object (decided at
        # run time): the converted loop runs after a check of the dynamic type,
        # the loop as written otherwise.
        w("struct Vk { virtual ~Vk() = default; long n = 0;")
        w("  virtual void hit(S &s) { " + self.update("s", False) + " ++n; } // @r")
        w("};")
        w("struct Vk2 : Vk {")
        w("  void hit(S &s) override { " + self.update("s", False) + " n += 3; } // @r")
        w("};")
        w("static Vk vk0;")
        w("static Vk2 vk1;")
        w(f"static volatile int vsel = {r.randint(0, 1)};")
        w("static Vk &vk = vsel ? static_cast<Vk &>(vk1) : vk0;")
        w("")
        return L, getters

    def body(self, var, arrow, getters, device=False):
        """Random loop body. A device (offloaded) body cannot leave the loop
        early or write variables declared outside it."""
        r = self.r
        acc = "->" if arrow else "."
        ref = f"*{var}" if arrow else var
        ptr = var if arrow else f"&{var}"
        if self.iterator:  # `it` itself is not the element: only *it, it->
            ptr = f"&{ref}"
        self.in_device = device  # host only: BVec copied whole
        out = []
        for _ in range(r.randint(2, 7)):
            k = r.random()
            if k < 0.35:
                out.append(self.update(var, arrow))
            elif k < 0.45:
                out.append(f"if ({self.cond(var, arrow)}) continue;")
            elif k < 0.5 and device:
                out.append(f"if ({self.cond(var, arrow)}) {{ {self.update(var, arrow)} continue; }}")
            elif k < 0.5:
                out.append(f"if ({self.cond(var, arrow)} && {self.cond(var, arrow)}) break;")
            elif k < 0.6:
                out.append(f"if ({self.cond(var, arrow)}) {{ {self.update(var, arrow)} }} else {{ {self.update(var, arrow)} }}")
            elif k < 0.7:
                j = r.randint(0, len(self.fnptr) - 1)
                arg = ptr if self.fnptr[j] else ref
                depth = r.randint(0, 2)
                if not (device and f"fn{j}" in self.host_only):
                    out.append(f"fn{j}({arg}, {depth});")
            elif k < 0.77:
                if not (device and "tfn" in self.host_only):
                    out.append(f"tfn({ref});")
            elif k < 0.84:
                if not (device and "step" in self.host_only):
                    out.append(f"{var}{acc}step(0.5);")
            elif k < 0.9 and getters:
                path, kind = self.pick(getters)
                if len(out) % 2:  # through the non-const accessor (no draw)
                    out.append(f"{var}{acc}mut_{path}() = ({kind})({var}{acc}mut_{path}() / 2);")
                else:
                    out.append(f"{var}{acc}set_{path}(({kind})({var}{acc}get_{path}() / 2));")
            elif k < 0.93 and not device:
                out.append(f"if ({self.cond(var, arrow)} && {self.cond(var, arrow)}) return acc;")
            elif k < 0.93 and device:  # scratch from the device heap (routed)
                lhs, kind = self.pick(self.scalars())
                upd, x = self.update(var, arrow), f"{var}{acc}{lhs}"
                out.append(r.choice([
                    f"{{ {kind} *t = new {kind}({x}); {upd} (void)*t; delete t; }}",
                    f"{{ {kind} *t = new {kind}[2](); t[1] = {x}; {upd} (void)t[0]; delete[] t; }}",
                    f"{{ auto *t = static_cast<{kind} *>(std::malloc(sizeof({kind}))); "
                    f"if (t) *t = {x}; {upd} std::free(t); }}"]))
            elif k < 0.945 and not device:  # functor members
                calls = [f"fx.apply({ref});", f"fx({ref});", f"fx.hit({ref});",
                         f"fx.bump<2>({ref}, {ref});"]
                if not self.in_template and not device:  # guarded virtual calls
                    calls.append(f"vk.hit({ref});")
                out.append(r.choice(calls))
            elif k < 0.95 and not device:  # lvalues only read: ?:, a const& getter
                (a, ka), (b, kb) = self.pick(self.scalars()), self.pick(self.scalars())
                if ka == kb:
                    out.append(f"acc += ({self.cond(var, arrow)} ? {var}{acc}{a} : {var}{acc}{b});")
                elif getters:
                    path, _ = self.pick(getters)
                    # a const getter, or a non-const accessor only read
                    get = "mut" if len(out) % 2 else "ref"
                    out.append(f"acc += {var}{acc}{get}_{path}();")
                else:
                    out.append(f"(void){var}{acc}{a};")
            elif k < 0.96:
                upd = self.update("q", False)
                out.append(f"{{ auto &q = {ref}; {upd} }}")
            elif k < 0.98:
                upd = self.update("q", False)
                out.append(f"{{ auto bump = [&](S &q) {{ {upd} }}; bump({ref}); {self.update(var, arrow)} }}")
            elif device:
                lhs, kind = self.pick(self.scalars())
                out.append(f"{{ {kind} t = {var}{acc}{lhs}; {self.update(var, arrow)} (void)t; }}")
            else:
                lhs, _ = self.pick(self.scalars())
                out.append(f"acc += {var}{acc}{lhs};")
        if self.catomic and r.random() < 0.5:  # must be refused (check())
            use = (f"{var}{acc}at.fetch_add(1);" if self.lock_style == "catom" else
                   f"{{ pthread_mutex_lock(&{var}{acc}mx); acc += 1; pthread_mutex_unlock(&{var}{acc}mx); }}")
            out.insert(r.randint(0, len(out)), use)
        if not device and r.random() < 0.1:  # a library function given a field's address
            (a, ka), (b, kb) = self.pick(self.scalars()), self.pick(self.scalars())
            if ka in ("double", "float"):
                out.insert(r.randint(0, len(out)), f"acc += std::modf({var}{acc}{a}, &{var}{acc}{a});")
            elif ka == kb:
                out.insert(r.randint(0, len(out)), f"std::memcpy(&{var}{acc}{a}, &{var}{acc}{b}, sizeof({ka}));")
        if r.random() < 0.1 and not self.iterator:  # a discarded element: `(void)p;`
            out.insert(r.randint(0, len(out)), f"(void){var};")
        if not device and not self.in_template and r.random() < 0.15:
            out.insert(r.randint(0, len(out)), f"vk.hit({ref});")  # guarded virtual
        if not device and r.random() < 0.2:  # a typed lambda written outside
            out.insert(r.randint(0, len(out)), f"tl({ref}, {ref});")
        if not device and self.r2.random() < 0.15:  # changes another container
            out.insert(self.r2.randint(0, len(out)), "logc();")
        self.in_device = False
        return [s + " // @r" for s in out]

    def generate(self):
        r = self.r
        self.fnptr = {}
        self.offload = False
        self.offloaded = set()
        L, getters = self.program()
        w = L.append
        sc = self.scalars()
        # init and print
        w("static void init(S &s, unsigned k) {")
        for path, kind in sc:
            if kind in ("double", "float"):
                w(f"  s.{path} = (({kind})((k * 7919u + {stable_hash(path) % 97}u) % 2000u) - 1000) / 500;")
            else:
                w(f"  s.{path} = ({kind})((k * 31u + {stable_hash(path) % 89}u) % 1000u);")
        for c, _ in self.chars():
            w(f"  s.{c} = (char)('a' + (k + {stable_hash(c) % 26}) % 26);")
        if self.lock_style == "mutex":  # all zeros: PTHREAD_MUTEX_INITIALIZER
            w("  std::memset(&s.mx, 0, sizeof s.mx);")
        w("  Access::init(s, k);")
        w("}")
        w("static void dump(const S &s) {")
        for path, kind in sc:
            if kind in ("double", "float"):
                w(f'  std::printf("%a ", (double)s.{path});')
            else:
                w(f'  std::printf("%ld ", (long)s.{path});')
        for c, _ in self.chars():
            w(f'  std::printf("%c", s.{c});')
        w("  Access::dump(s);")
        w('  std::printf("\\n");')
        w("}")
        w("")
        # kernels
        kernels = []
        nk = r.randint(1, 3)
        for k in range(nk):
            kind = self.pick(["vecval", "vecptr", "listptr", "deque", "array", "stdarray", "index",
                              "vindex", "tmpl", "pair", "cptr", "nbody", "sweep",
                              "adlptr", "bindptr", "holder", "itvec", "itptr", "itlist",
                              "index1", "indexoff", "refptr", "wrap", "wrapvar",
                              "symidx", "symit", "ngblist", "itvalid"])
            name = f"kernel{k}"
            if kind == "adlptr" and all(kd != "adlptr" for _, kd in kernels):
                # A user range a range-for finds through argument-dependent
                # lookup only: free begin/end, no members, no size().
                w("struct PtrRange { S **first; int n; };")
                w("inline S **begin(const PtrRange &r) { return r.first; }")
                w("inline S **end(const PtrRange &r) { return r.first + r.n; }")
            if kind == "itvalid" and all(kd != "itvalid" for _, kd in kernels):
                # An iterator that says itself when it is done (AutoPas's
                # and ls1-mardyn's particle iterators): no end to compare.
                # Its constructor has a default argument (a cursor's
                # `Cursor it(first, last)` repeats only what is written).
                w("struct Cursor {")
                w("  S *const *p, *const *e;")
                w("  Cursor(S *const *first, S *const *last, int skip = 0) : p(first), e(last) {")
                w("    for (; skip > 0 && p != e; --skip) ++p;")
                w("  }")
                w("  bool isValid() const { return p != e; }")
                w("  S *const &operator*() const { return *p; }")
                w("  Cursor &operator++() { ++p; return *this; }")
                w("};")
            kernels.append((name, kind))
            # Offloaded loops run through OpenMP host offloading: their own
            # device data environment, so a missing copy changes the output.
            # (Loops over structured bindings stay on the host.)
            # (Ranges of std::reference_wrapper stay on the host too.)
            device = r.random() < 0.25 and kind not in ("cptr", "nbody", "bindptr", "holder",
                                                        "wrap", "wrapvar", "symidx", "symit",
                                                        "ngblist", "itvalid")
            attr = "[[clang::soa_conversion_offload_compute]]" if device else "[[clang::soa_conversion]]"
            self.offload = self.offload or device
            if device:
                self.offloaded.add(name)
            # Range loops: (parameter, loop header, is a pointer).
            ranges = {
                "vecval": ("std::vector<S> &c", "auto &e : c", False),
                "vecptr": ("std::vector<S *> &c", "S *e : c", True),
                "listptr": ("std::list<S *> &c", "S *e : c", True),
                "deque": ("std::deque<S> &c", "S &e : c", False),
                "array": ("S (&c)[17]", "auto &e : c", False),
                # `auto` names the element as std::array's value_type.
                "stdarray": ("std::array<S, 17> &c", "auto &e : c", False),
                "tmpl": ("C &c", "auto *e : c", True),
                "adlptr": ("PtrRange c", "S *e : c", True),
                # Structured bindings: the pointer stands for the element,
                # the key binds into the pair (as written: a reference or
                # a copy).
                "bindptr": ("std::vector<std::pair<int, S *>> &c",
                            self.pick(["auto &[key, e] : c", "const auto &[key, e] : c",
                                       "auto [key, e] : c"]), True),
                # A reference to the container's pointer, only read.
                "refptr": ("std::vector<S *> &c",
                           self.pick(["auto &e : c", "S *&e : c", "S *const &e : c",
                                      "const auto &e : c"]), True),
                # References in all but name: the element, or the wrapper
                # `w` (the body starts `S &e = w.get();`).
                "wrap": ("std::vector<std::reference_wrapper<S>> &c",
                         "S &e : c", False),
                "wrapvar": ("std::list<std::reference_wrapper<S>> &c",
                            self.pick(["auto &w : c", "auto w : c", "const auto &w : c"]), False),
            }
            # Iterator loops: (parameter, loop header, element, over pointers).
            iterators = {
                "itvec": ("std::vector<S> &c", self.pick([
                    "auto it = c.begin(); it != c.end(); ++it",
                    "std::vector<S>::iterator it = std::begin(c); it != std::end(c); it++"]),
                    "it", True),
                "itptr": ("std::vector<S *> &c", "auto it = c.begin(); c.end() != it; ++it",
                          "(*it)", True),
                "itlist": ("std::list<S *> &c", "auto it = c.cbegin(); it != c.cend(); it++",
                           "(*it)", True),
                "itvalid": ("std::vector<S *> &c", self.pick([
                    "Cursor it{c.data(), c.data() + c.size()}; it.isValid(); ++it",
                    "Cursor it(c.data(), c.data() + c.size()); it.isValid(); ++it",
                    "auto it = Cursor{c.data(), c.data() + c.size()}; it.isValid(); ++it"]),
                    "(*it)", True),
            }
            if kind in iterators:
                param, header, elem, arrow = iterators[kind]
                w(f"double {name}({param}) {{")
                w("  double acc = 0;")
                w(f"  {attr}")
                w(f"  for ({header}) {{")
                self.iterator = True
                L.extend("    " + s for s in self.body(elem, arrow, getters, device))
                self.iterator = False
            elif kind in ("index1", "indexoff"):
                # `<=` from 1 (A[i - 1]), or `!=` from an offset (A[i - first])
                w(f"double {name}(S *buf, int n) {{")
                w("  double acc = 0;")
                w("  const int first = 3;")
                # The target is inferred when only soa_conversion is written.
                if not device and r.random() < 0.5:
                    w("  [[clang::soa_conversion]]")
                else:
                    w('  [[clang::soa_conversion_target("buf")]]' + (f" {attr}" if device else ""))
                if kind == "index1":
                    w("  for (int i = 1; i <= n; i += 1) {")
                    elem = "buf[i - 1]"
                else:
                    w("  for (int i = first; i != n + first; i++) {")
                    elem = "buf[i - first]"
                L.extend("    " + s for s in self.body(elem, False, getters, device))
            elif kind == "cptr":  # read-only loop over const element pointers
                w(f"double {name}(const std::vector<const S *> &c) {{")
                w("  double acc = 0;")
                w(f"  {attr}")
                w("  for (const S *e : c) {")
                for _ in range(r.randint(1, 4)):
                    lhs, _k = self.pick(sc)
                    if r.random() < 0.3:
                        w(f"    if ({self.cond('e', True)}) continue; // @r")
                    w(f"    acc += e->{lhs} * 0.5; // @r")
            elif kind in ranges:
                param, header, arrow = ranges[kind]
                tmpl = "template <class C> " if kind == "tmpl" else ""
                w(f"{tmpl}double {name}({param}) {{")
                w("  double acc = 0;")
                w(f"  {attr}")
                w(f"  for ({header}) {{")
                self.in_template = kind == "tmpl"
                if kind == "wrapvar":
                    w(f"    S &e = {self.pick(['w.get()', 'w'])}; // @r")
                L.extend("    " + s for s in self.body("e", arrow, getters, device))
                if kind == "bindptr":
                    w("    acc += key * 0.5; // @r")
                self.in_template = False
            elif kind == "holder":
                # A traversal holding the virtual functor by reference
                # (AutoPas's CellFunctor): called in the loop, or from a
                # lambda capturing `this`; converted under the dynamic
                # type check of `this->k`.
                w(f"struct H{name} {{ Vk &k; double run(std::vector<S *> &c); }};")
                w(f"double {name}(std::vector<S *> &c) {{ H{name} h{{vk}}; return h.run(c); }}")
                w(f"double H{name}::run(std::vector<S *> &c) {{")
                w("  double acc = 0;")
                w("  auto via = [this](auto &s) { k.hit(s); };")
                w(f"  {attr}")
                w("  for (S *e : c) {")
                L.extend("    " + s for s in self.body("e", True, getters, False))
                w("    " + r.choice(["k.hit(*e);", "via(*e);"]) + " // @r")
            elif kind == "vindex":
                w(f"double {name}(std::vector<S> &buf) {{")
                w("  double acc = 0;")
                # The target is inferred when only soa_conversion is written.
                if not device and r.random() < 0.5:
                    w("  [[clang::soa_conversion]]")
                else:
                    w('  [[clang::soa_conversion_target("buf")]]' + (f" {attr}" if device else ""))
                w("  for (std::size_t i = 0; i < buf.size(); i++) {")
                body = self.body("buf[i]", False, getters, device)
                if not device and r.random() < 0.3:  # another element, the size
                    f = self.unmentioned(body)
                    w(f"    acc += buf[buf.size() / 2].{f} * 0.25 + (double)buf.size(); // @r")
                L.extend("    " + s for s in body)
            elif kind == "ngblist":  # a neighbour list with repeats: buf[ngb[k]]
                w(f"double {name}(S *buf, const std::vector<int> &ngb) {{")
                w("  double acc = 0;")
                w('  [[clang::soa_conversion_target("buf")]]')
                w("  for (std::size_t k = 0; k < ngb.size(); ++k) {")
                L.extend("    " + s for s in self.body("buf[ngb[k]]", False, getters, device))
            elif kind == "index":
                w(f"double {name}(S *buf, int n) {{")
                w("  double acc = 0;")
                lo = r.randint(0, 2)
                # The target is inferred when only soa_conversion is written.
                if not device and r.random() < 0.5:
                    w("  [[clang::soa_conversion]]")
                else:
                    w('  [[clang::soa_conversion_target("buf")]]' + (f" {attr}" if device else ""))
                w(f"  for (int i = {lo}; i < n; ++i) {{")
                body = self.body("buf[i]", False, getters, device)
                if not device and r.random() < 0.3:  # another element: in or past the range
                    f = self.unmentioned(body)
                    w(f"    acc += buf[{self.pick(['n / 2', 'n + 3'])}].{f} * 0.25; // @r")
                elif not device and r.random() < 0.3:  # a neighbour list, read
                    f = self.unmentioned(body)
                    w("    const int ngb[3] = {i / 2, n - 1, (i * 7) % n};")
                    w("    for (int k = 0; k < 3; ++k)")
                    w(f"      acc += buf[ngb[k]].{f} * 0.125; // @r")
                L.extend("    " + s for s in body)
            elif kind == "sweep":  # cells: offloaded, all cells in one sweep; else per cell
                outs, ins = self.split_fields(self.on_device(sc, device))
                w(f"double {name}(std::vector<std::vector<S *>> &locals, std::vector<std::vector<S *>> &actives) {{")
                w("  double acc = 0;")
                if device:
                    w(f"  {attr}")
                w("  for (std::size_t c = 0; c < locals.size(); ++c) {")
                if r.random() < 0.5:  # a declaration of the cell, used in a range
                    w("    std::vector<S *> &mine = locals[c];")
                    local = "mine"
                else:
                    local = "locals[c]"
                active = "actives[c]"
                if not device and self.seed % 5 == 0:  # ranges the size gate may evaluate
                    w("    std::vector<S *> &theirs = actives[c];")
                    active = "theirs"
                w("    [[clang::soa_conversion]]")
                w(f"    for (S *l : {local}) {{")
                w("      [[clang::soa_conversion_hoist(1)]]")
                w(f"      for (const S *a : {active}) {{")
                for line in self.pair_updates(outs, ins, "l->", "a->", "", not device):
                    w("  " + line)
                w("      }")
                w("    }")
            elif kind == "nbody":  # one target, both loops: buf[i] writes A, buf[j] reads B
                outs, ins = self.split_fields(self.on_device(sc, device))
                w(f"double {name}(S *buf, int n) {{")
                w("  double acc = 0;")
                w('  [[clang::soa_conversion_target("buf")]]')
                w("  for (int i = 0; i < n; ++i) {")
                w('    [[clang::soa_conversion_target("buf"), clang::soa_conversion_hoist(1)]]')
                w("    for (int j = 0; j < n; ++j) {")
                for line in self.pair_updates(outs, ins, "buf[i].", "buf[j].", "", True):
                    w(line)
                w("    }")
            elif kind in ("symidx", "symit"):  # Newton's third law: each pair once, both written
                fields = self.on_device(sc, device)
                if kind == "symidx":
                    w(f"double {name}(S *buf, int n) {{")
                    w("  double acc = 0;")
                    w('  [[clang::soa_conversion_target("buf")]]')
                    w(self.pick(["  for (int i = 0; i < n; ++i) {", "  for (int i = 0; i != n; i++) {"]))
                    w('    [[clang::soa_conversion_target("buf")]]')
                    w(self.pick(["    for (int j = i + 1; j < n; ++j) {", "    for (int j = i + 1; j != n; j++) {"]))
                    one, two = "buf[i].", "buf[j]."
                else:
                    # Over pointers (`ptrs`, with repeats in half the
                    # programs), the nest runs as written on a repeat.
                    ptr = self.r2.random() < 0.5
                    if ptr:
                        self.symptr.add(name)
                    w(f"double {name}(std::vector<S{' *' if ptr else ''}> &c) {{")
                    w("  double acc = 0;")
                    w("  [[clang::soa_conversion]]")
                    w("  for (auto it = c.begin(); it != c.end(); ++it) {")
                    w("    [[clang::soa_conversion]]")
                    start = self.pick(["std::next(it)", "it + 1"])
                    w(f"    for (auto jt = {start}; jt != c.end(); ++jt) {{")
                    one, two = ("(*it)->", "(*jt)->") if ptr else ("it->", "jt->")
                for line in self.pair_updates(fields, fields, one, two, "", True):
                    w(line)
                for line in self.pair_updates(fields, fields, two, one, "", False):
                    w(line)
                w("    }")
            else:  # pair: outer writes A, inner (hoisted) reads B, disjoint
                outs, ins = self.split_fields(self.on_device(sc, device))
                # Offloaded: the nest runs on the device from its outer
                # loop (no address comparison, no outer accumulator).
                shared = r.random() < 0.5
                if shared:  # one template parameter receives both views
                    o, ok = self.pick(outs)
                    i2, ik = self.pick(ins)
                    w(f"template <class P> void pt{name}(P &x, const P &y) {{")
                    if ok in ("double", "float"):
                        w(f"  x.{o} = x.{o} * 0.5 + 0.25 * (y.{i2} > 0 ? 1 : -1); // @r")
                    else:
                        w(f"  x.{o} = (x.{o} + (y.{i2} > 0 ? 3 : 5)) % 1000; // @r")
                    w("}")
                w(f"double {name}(std::list<S *> &local, std::list<S *> &active) {{")
                w("  double acc = 0;")
                w(f"  {attr}")
                w("  for (S *l : local) {")
                w(f"    [[clang::soa_conversion_hoist({1})]]")
                w("    for (S *a : active) {")
                guard = "" if device else "if (l != a) "
                for line in self.pair_updates(outs, ins, "l->", "a->", guard, not device):
                    w(line)
                if shared:
                    w(f"      {guard}pt{name}(*l, *a); // @r")
                # Newton's third law: the inner loop writes a field the outer
                # one writes too, which both views share in the element.
                tops = [x for x in outs if re.match(r"^(f\w*|a\d+)(\[\d+\])?$", x[0])]
                if not device and tops and r.random() < 0.4:
                    o, ok = self.pick(tops)
                    if ok in ("double", "float"):
                        w(f"      {guard}a->{o} = a->{o} * 0.5 - 0.125 * (l->{o} > 0 ? 1 : -1); // @r")
                    else:
                        w(f"      {guard}a->{o} = (a->{o} + (l->{o} > 0 ? 5 : 1)) % 1000; // @r")
                w("    }")
            w("  }")
            w("  return acc;")
            w("}")
            w("")
        # main
        n = r.randint(0, 40)
        w("int main() {")
        w(f"  const int n = {n};")
        w("  std::vector<S> store(n + 17);")
        w("  for (int k = 0; k < n + 17; ++k) init(store[k], k);")
        w("  std::vector<S *> ptrs; std::list<S *> lst, act;")
        w("  for (int k = 0; k < n; ++k) { ptrs.push_back(&store[(k * 7) % n]); lst.push_back(&store[k]); }")
        dup = r.random() < 0.5
        if dup:
            w("  if (n > 2) { ptrs.push_back(&store[1]); lst.push_back(&store[0]); }")
        w("  for (int k = 0; k < n + 17; ++k) act.push_back(&store[k]);")
        if any(kind == "bindptr" for _, kind in kernels):
            w("  std::vector<std::pair<int, S *>> kptrs;")
            w("  for (std::size_t k = 0; k < ptrs.size(); ++k) kptrs.push_back({(int)k, ptrs[k]});")
        w("  std::vector<const S *> cptrs(ptrs.begin(), ptrs.end());")
        if any(kind in ("wrap", "wrapvar") for _, kind in kernels):
            w("  std::vector<std::reference_wrapper<S>> wrefs;")
            w("  for (S *p : ptrs) wrefs.push_back(std::ref(*p));")
            w("  std::list<std::reference_wrapper<S>> lrefs(wrefs.begin(), wrefs.end());")
        if self.offload:
            w("  std::vector<S *> uptrs; std::list<S *> ulst;")
            w("  for (int k = 0; k < n; ++k) { uptrs.push_back(&store[n - 1 - k]); ulst.push_back(&store[k]); }")
        if any(kind == "sweep" for _, kind in kernels):
            # Three cells: each element local in one; the active lists hold
            # two cells' locals and, half the time, one element local in no
            # cell (without one, the inner view shares the local view's
            # buffers of the fields both read).
            ghost = " cact[c].push_back(&store[n + c]);" if r.random() < 0.5 else ""
            w("  std::vector<std::vector<S *>> cloc(3), cact(3);")
            w("  for (int k = 0; k < n; ++k) cloc[k % 3].push_back(&store[k]);")
            w("  for (int c = 0; c < 3; ++c) { for (int d = 0; d < 2; ++d) for (S *p : cloc[(c + d) % 3]) cact[c].push_back(p);" + ghost + " }")
        if any(kind == "ngblist" for _, kind in kernels):  # indices, with repeats
            w("  std::vector<int> ngbl;")
            w("  for (int k = 0; k < 2 * n; ++k) ngbl.push_back((k * 7 + k / 3) % n);")
        w("  std::deque<S> dq(store.begin(), store.begin() + n);")
        w("  S arr[17]; for (int k = 0; k < 17; ++k) init(arr[k], 3 * k + 1);")
        w("  std::array<S, 17> sarr; for (int k = 0; k < 17; ++k) init(sarr[k], 5 * k + 2);")
        w("  double acc = 0;")
        reps = r.randint(1, 3)
        w(f"  for (int rep = 0; rep < {reps}; ++rep) {{")
        for name, kind in kernels:
            arg = {"vecval": "store", "vecptr": "ptrs", "listptr": "lst", "deque": "dq",
                   "array": "arr", "stdarray": "sarr", "index": "store.data(), n", "pair": "lst, act",
                   "nbody": "store.data(), n",
                   "vindex": "store", "tmpl": "ptrs", "cptr": "cptrs",
                   "sweep": "cloc, cact",
                   "adlptr": "PtrRange{ptrs.data(), (int)ptrs.size()}",
                   "bindptr": "kptrs", "holder": "ptrs", "itvec": "store",
                   "itptr": "ptrs", "itlist": "lst", "index1": "store.data(), n",
                   "indexoff": "store.data(), n", "refptr": "ptrs", "wrap": "wrefs",
                   "wrapvar": "lrefs", "symidx": "store.data(), n", "symit": "store",
                   "ngblist": "store.data(), ngbl", "itvalid": "ptrs"}[kind]
            if name in self.symptr:
                arg = "ptrs"
            if name in self.offloaded:
                # Offloaded iterations run in parallel: the containers hold
                # each element once (the runtime refuses repeats with writes).
                arg = {"ptrs": "uptrs", "lst": "ulst", "lst, act": "ulst, act",
                       "PtrRange{ptrs.data(), (int)ptrs.size()}":
                       "PtrRange{uptrs.data(), (int)uptrs.size()}"}.get(arg, arg)
            w(f"    acc += {name}({arg});")
        w("  }")
        sweeps = [name for name, kind in kernels if kind == "sweep"]
        if sweeps and r.random() < 0.5:
            # A view region around more steps of the sweeps: the offloaded
            # ones share one set of device buffers, a host one (cell by
            # cell) writes the region's views back first.
            if r.random() < 0.5:
                # Built without an offload target: the region's sweeps run
                # on the host (one loop over all cells, host buffers kept
                # between them).
                L.insert(0, HOST_BUILD)
            reps = r.randint(1, 3)
            # Entered once or twice: from its second entry on, the region's
            # first sweep gathers the views all its sweeps used.
            entries = r.randint(1, 2)
            pad = "  " if entries > 1 else ""
            if entries > 1:
                w(f"  for (int entry = 0; entry < {entries}; ++entry) {{")
            w(f"{pad}  [[clang::soa_conversion_region]]")
            w(f"{pad}  for (int rep = 0; rep < {reps}; ++rep) {{")
            for name in sweeps:
                if r.random() < 0.3:
                    # Over part of the region's cells: the first two, then
                    # the last (copies of their lists), as a slab's inner
                    # cells and its edge row; or the first two, then the
                    # last two (windows that overlap in the middle cell).
                    parts = (f"std::vector<std::vector<S *>> ploc(cloc.begin(), cloc.begin() + 2), "
                             f"pact(cact.begin(), cact.begin() + 2), qloc(cloc.begin() + 2, cloc.end()), "
                             f"qact(cact.begin() + 2, cact.end()), rloc(cloc.begin() + 1, cloc.end()), "
                             f"ract(cact.begin() + 1, cact.end());")
                    at = L.index(f"{pad}  [[clang::soa_conversion_region]]")
                    if parts not in L[at - 1]:
                        L.insert(at, f"{pad}  {parts}")
                    w(f"{pad}    acc += {name}(ploc, pact);")
                    w(f"{pad}    acc += {name}({r.choice(['qloc, qact', 'rloc, ract'])});")
                    continue
                w(f"{pad}    acc += {name}(cloc, cact);")
                if r.random() < 0.3:
                    # Library calls that only read the lists between the
                    # sweeps (searching, counting, an iterator's steps).
                    c = r.randint(0, 2)
                    w(f"{pad}    acc += std::count(cloc[{c}].begin(), cloc[{c}].end(), "
                      f"cact[{c}].empty() ? nullptr : cact[{c}].back()) + "
                      f"(std::find(cact[{c}].begin(), cact[{c}].end(), "
                      f"cloc[{c}].empty() ? nullptr : cloc[{c}].front()) - cact[{c}].begin());")
            if r.random() < 0.5:
                # A synchronisation point (soaview::sync): code soaview
                # does not follow writes the elements of one cell's list
                # (written back before it, gathered again after it), or,
                # without lists, of all of them.
                # It moves whole structs (the cell's values rotate by one
                # element, as an exchange receives them) and updates fields.
                c = r.randint(0, 2)
                upd = " ".join(self.update("q", True) for _ in range(2))
                body = (f"auto &l_ = cloc[{c}]; if (l_.size() > 1) {{ S t_ = *l_[0]; "
                        f"for (std::size_t k = 0; k + 1 < l_.size(); ++k) *l_[k] = *l_[k + 1]; "
                        f"*l_.back() = t_; }} for (S *q : l_) {{ {upd} }}")
                if r.random() >= 0.7:
                    w(f"{pad}    soaview::sync([&] {{ {body} }});")
                elif r.random() < 0.6:
                    w(f"{pad}    soaview::sync(cloc[{c}], [&] {{ {body} }});")
                else:
                    # What f reads and what it writes apart: it copies the
                    # structs of cell c's first elements over those of cell
                    # d (written whole, then updated), reading only cell c.
                    d = (c + r.randint(1, 2)) % 3
                    body = (f"for (std::size_t k = 0; k < wr_.size(); ++k) "
                            f"{{ *wr_[k] = *rd_[k]; S *q = wr_[k]; {upd} }}")
                    before = (f"std::vector<S *> rd_(cloc[{c}]), wr_(cloc[{d}].begin(), "
                              f"cloc[{d}].begin() + std::min(cloc[{c}].size(), cloc[{d}].size()));")
                    at = L.index(f"{pad}  [[clang::soa_conversion_region]]")
                    L.insert(at, f"{pad}  {before}")
                    w(f"{pad}    soaview::sync(rd_, wr_, [&] {{ {body} }});")
            if r.random() < 0.3:
                # Bytes written through an untyped pointer (not a list's):
                # soaview cannot see what they change, so the region checks
                # every run's lists in full instead of finding them where
                # they were (region_lists::kept otherwise).
                at = L.index(f"{pad}  [[clang::soa_conversion_region]]")
                L.insert(at, f"{pad}  long bytes_ = 0; void *bytes_at_ = &bytes_;")
                w(f"{pad}    std::memcpy(bytes_at_, &rep, sizeof rep);")
            w(f"{pad}  }}")
            if entries > 1:
                w("  }")
        w("  if (!store.empty()) tl(store[0], store[0]);")
        w('  std::printf("%a %ld %ld %ld %zu\\n", acc, fx.n, vk0.n + vk1.n, tln, lg.size());')
        w("  for (auto &s : store) dump(s);")
        w("  for (auto &s : dq) dump(s);")
        w("  for (auto &s : arr) dump(s);")
        w("  for (auto &s : sarr) dump(s);")
        w("  return 0;")
        w("}")
        if any("soaview::sync(" in line for line in L):
            L.insert(L.index("#include <algorithm>"), "#include <soaview/sync.h>")
        return "\n".join(L) + "\n"


# --------------------------------------------------------------------------
# Building and comparing.

# The fuzzer tests the conversion machinery: every annotated loop is
# converted, including single loops the profitability rule would leave.
# Every fifth seed is built under the profitability rule instead: its pair
# nests with a hoisted view get the size gate (the nest as written next to
# the converted one, ::soaview::pays_off choosing at run time), and single
# loops stay as written.
SOAVIEW_FLAGS = ["-fplugin-arg-soaview-convert=always"]
RULE_FLAGS = ["-fplugin-arg-soaview-convert=profitable"]


def soaview_flags(seed):
    return RULE_FLAGS if seed % 5 == 0 else SOAVIEW_FLAGS
OFFLOAD_ATTR = "soa_conversion_offload_compute"
def llvm_libdir(plain):
    """The lib directory of the LLVM installation that holds `plain`
    (clang++-19 is /usr/lib/llvm-19/bin/clang++: /usr/lib/llvm-19/lib)."""
    exe = shutil.which(plain) or plain
    return os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(exe))), "lib")


# Host offloading: a separate device data environment on the CPU, so CI
# checks offloaded views without a GPU.
def offload_flags(plain):
    return ["-fopenmp", "-fopenmp-targets=x86_64-pc-linux-gnu",
            "-Wl,-rpath," + llvm_libdir(plain)]
OFFLOAD_ENV = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY")
# A program with this first line is built with -fopenmp and no offload
# target: its offload attributes have no device, and the sweeps a view
# region reaches run on the host.
HOST_BUILD = "// soaview-fuzz: built without an offload target"


def host_flags(plain):
    return ["-fopenmp", "-Wl,-rpath," + llvm_libdir(plain)]


def runtime_flags(soaview):
    """soaview's runtime headers and library (soaview-config beside the
    wrapper), for a plain build that calls soaview::sync."""
    config = os.path.join(os.path.dirname(os.path.abspath(soaview)), "soaview-config")
    out = subprocess.run([config, "--cxxflags", "--ldflags"], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    return out.split()


def run(cmd, timeout, cwd=None, env=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout, cwd=cwd, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


# An annotated loop's body that uses the copyable atomic (body()).
ATOMIC_USE = re.compile(r"((->|\.)at\.fetch_add\(1\);|pthread_mutex_unlock\(&[^)]*mx\); \}) // @r")


def check(src, work, plain, soaview, flags, svflags=SOAVIEW_FLAGS):
    """Returns (verdict, detail): ok, refused, or a failure kind."""
    path = os.path.join(work, "prog.cpp")
    with open(path, "w") as f:
        f.write(src)
    pexe, sexe = os.path.join(work, "plain"), os.path.join(work, "sv")
    env = None
    if src.startswith(HOST_BUILD):
        flags = flags + host_flags(plain)
    elif OFFLOAD_ATTR in src:
        flags, env = flags + offload_flags(plain), OFFLOAD_ENV
    if "soaview::sync(" in src:  # the plain build calls the runtime too
        flags = flags + runtime_flags(soaview)
    rc, _, err = run([plain] + flags + ["-Wno-unknown-attributes", path, "-o", pexe], 120)
    if rc != 0:
        return "generator", "plain build failed: " + err[:2000]
    rc, _, err = run([soaview] + flags + svflags + [path, "-o", sexe], 120)
    if rc == "timeout":
        return "compiler-hang", ""
    if rc != 0:
        if re.search(r"prog\.cpp:\d+:\d+: error: soaview: ", err) and "internal error" not in err \
                and not re.search(r"error: (?!soaview)", err):
            return "refused", err
        if rc < 0 or "PLEASE submit a bug report" in err or "Stack dump" in err:
            return "compiler-crash", err[:4000]
        return "converted-build-failed", err[:4000]
    rc1, out1, _ = run([pexe], 30, env=env)
    rc2, out2, err2 = run([sexe], 30, env=env)
    if rc1 != 0:
        return "generator", f"plain program exit {rc1}"
    if rc2 == "timeout":
        return "hang", ""
    if rc2 != 0:
        return "crash", f"exit {rc2}: {err2[:2000]}"
    if out1 != out2:
        return "mismatch", ""
    # An atomic used in a loop must be refused where every loop converts;
    # under the profitability rule a loop left as written keeps it.
    if ATOMIC_USE.search(src) and svflags is not RULE_FLAGS:
        return "atomic-converted", ""
    return "ok", ""


def reduce(src, kind, work, plain, soaview, flags, svflags=SOAVIEW_FLAGS):
    """Drops removable statements while the failure keeps its kind."""
    lines = src.split("\n")
    removable = [i for i, l in enumerate(lines) if l.rstrip().endswith("// @r")]
    chunk = max(1, len(removable) // 2)
    while chunk >= 1:
        i = 0
        changed = False
        while i < len(removable):
            trial = set(removable[i:i + chunk])
            cand = "\n".join(l for j, l in enumerate(lines) if j not in trial)
            if check(cand, work, plain, soaview, flags, svflags)[0] == kind:
                lines = [l for j, l in enumerate(lines) if j not in trial]
                removable = [j for j, l in enumerate(lines) if l.rstrip().endswith("// @r")]
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return "\n".join(lines)


def one(args):
    seed, plain, soaview, flags, keep = args
    src = Gen(seed).generate()
    work = tempfile.mkdtemp(prefix=f"soaview-fuzz-{seed}-")
    try:
        verdict, detail = check(src, work, plain, soaview, flags, soaview_flags(seed))
        if keep:
            shutil.copy(os.path.join(work, "prog.cpp"), os.path.join(keep, f"fuzz-{seed}.cpp"))
        return seed, verdict, detail, src
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--plain", default="clang++-19",
                    help="the plain compiler (the clang++ soaview drives)")
    ap.add_argument("--soaview", default=os.path.join(HERE, "soaview-clang++"))
    ap.add_argument("--flags", default="-O1")
    ap.add_argument("--keep", help="directory to keep every generated program")
    ap.add_argument("--save-failures", help="directory for reduced lit tests of failures")
    ap.add_argument("--show-refusals", action="store_true")
    ap.add_argument("--print", type=int, help="print the program of one seed and exit")
    a = ap.parse_args()
    if a.print is not None:
        sys.stdout.write(Gen(a.print).generate())
        return 0
    flags = a.flags.split()
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    seeds = range(a.seed, a.seed + a.count)
    counts = {}
    failures = []
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for seed, verdict, detail, src in ex.map(
                one, [(s, a.plain, a.soaview, flags, a.keep) for s in seeds]):
            counts[verdict] = counts.get(verdict, 0) + 1
            if verdict == "refused" and a.show_refusals:
                print(f"seed {seed}: refused\n{detail}", file=sys.stderr)
            if verdict not in ("ok", "refused"):
                failures.append((seed, verdict, detail, src))
                print(f"seed {seed}: {verdict}\n{detail}", file=sys.stderr)
    for seed, verdict, detail, src in failures:
        if not a.save_failures or verdict == "generator":
            continue
        os.makedirs(a.save_failures, exist_ok=True)
        work = tempfile.mkdtemp(prefix="soaview-reduce-")
        small = reduce(src, verdict, work, a.plain, a.soaview, flags, soaview_flags(seed))
        shutil.rmtree(work, ignore_errors=True)
        out = os.path.join(a.save_failures, f"fuzz-{seed}.cpp")
        with open(out, "w") as f:
            f.write(f"// Reduced by soaview-fuzz from seed {seed}: {verdict}.\n")
            off = OFFLOAD_ATTR in small
            fl = " ".join(flags) + (" %offload_host_flags" if off else "")
            envp = "env OMP_TARGET_OFFLOAD=MANDATORY " if off else ""
            if off:
                f.write("// REQUIRES: offload-host\n")
            f.write(f"// RUN: %clangxx {fl} -Wno-unknown-attributes %s -o %t.plain\n")
            rule = soaview_flags(seed) is RULE_FLAGS
            f.write(f"// RUN: {'env -u SOAVIEW_CONVERT ' if rule else ''}%soaviewxx {fl}"
                    f"{' ' + RULE_FLAGS[0] if rule else ''} %s -o %t.sv\n")
            f.write(f"// RUN: {envp}%t.plain > %t.plain.out && {envp}%t.sv > %t.sv.out\n")
            f.write("// RUN: diff %t.plain.out %t.sv.out\n")
            f.write(small)
        print(f"saved {out}", file=sys.stderr)
    mism = sum(v for k, v in counts.items() if k not in ("ok", "refused"))
    refused = counts.get("refused", 0)
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"{refused} refused ({100.0 * refused / max(1, a.count):.1f}%); {summary}")
    print(f"{a.count} programs, {mism} mismatches")
    return 1 if mism else 0


if __name__ == "__main__":
    sys.exit(main())
