// A sweep in a view region holds an anonymous union whole wherever it uses
// it (the region keeps one buffer per field name, docs/regions.md); a union
// with a bit-field cannot be held so. Writing its member in a region sweep
// is refused where the sweep is offloaded; compiled for the host alone, the
// sweep's nest converts cell by cell instead (the region writes back around
// it), with a remark saying why. Reading such a member is exact.
// RUN: %soaview_verify -Xclang -verify=host -fopenmp -fplugin-arg-soaview-remarks %s
// RUN: %soaview_verify -Xclang -verify=offload %offload_syntax %s
#include <vector>

struct Packed {
  double x;
  union {
    struct {
      float w;
    } d;
    int flags : 4;
  };
};
struct PackedCell {
  std::vector<Packed *> local;
};
void packedSweep(std::vector<PackedCell> &cells) {
  [[clang::soa_conversion_offload_compute]] // host-remark@+1 {{cells not swept: it cannot run swept on the host: cannot keep views in this region: field 'd.w' is written, and the region cannot hold its anonymous union whole; the nest converts for the host, cell by cell}}
  for (PackedCell &c : cells) {
    [[clang::soa_conversion]] // offload-note@+1 {{in the loop annotated here}} host-remark@+1 {{view of 'Packed' in {} out {d.w}}}
    for (Packed *p : c.local)
      p->d.w = 1; // offload-error {{cannot keep views in this region: field 'd.w' is written, and the region cannot hold its anonymous union whole}} offload-note {{write the union's members outside the region}}
  }
}
void packedRegion(std::vector<PackedCell> &cells) {
  [[clang::soa_conversion_region]] // host-remark@+1 {{view region: 1 annotated loop(s) share their views: Packed}}
  for (int s = 0; s < 2; ++s)
    packedSweep(cells);
}
// Two views of a pair sweep hold one union whole: one may write members the
// other does not read; a member written by one and read by the other is
// refused as for any field two views share (compiled for the host alone,
// the nest is then tried cell by cell, members apart, and refused there).
struct Gas {
  double x;
  union { // host-note {{views share such a field in the element itself}} offload-note {{views share such a field in the element itself}}
    struct {
      float w;
    } d;
    struct {
      float p, a;
    } f;
  };
};
struct GasCell {
  std::vector<Gas *> local, near;
};
void gasPairs(std::vector<GasCell> &cells) {
  [[clang::soa_conversion_offload_compute]] // host-remark@+1 {{cells swept on the host}}
  for (GasCell &c : cells) {
    [[clang::soa_conversion]] // host-remark@+1 {{view of 'Gas' in {union {d, f}} out {union {d, f}}}}
    for (Gas *p : c.local) {
      [[clang::soa_conversion_hoist(1)]] // host-remark@+1 {{view of 'Gas' in {union {d, f}} out {}}}
      for (const Gas *q : c.near)
        p->f.a += q->f.p;
    }
  }
}
void gasClash(std::vector<GasCell> &cells) {
  [[clang::soa_conversion_offload_compute]] // host-remark@+1 {{cells not swept: it cannot run swept on the host: cannot convert loops: field 'union {d, f}' is written through the view of one loop and held by the view of another loop}}
  for (GasCell &c : cells) {
    [[clang::soa_conversion]] // host-note@+1 {{the loop writing it}} offload-note@+1 {{the loop writing it}}
    for (Gas *p : c.local) {
      [[clang::soa_conversion_hoist(1)]] // host-note@+1 {{the loop holding it}} offload-note@+1 {{the loop holding it}}
      for (const Gas *q : c.near)
        p->f.a += q->f.a; // host-error {{field 'f.a' is written through the view of one loop and held by the view of another loop}} offload-error {{field 'union {d, f}' is written through the view of one loop and held by the view of another loop}}
    }
  }
}
void gasRegion(std::vector<GasCell> &cells) {
  [[clang::soa_conversion_region]] // host-remark@+1 {{view region: 2 annotated loop(s) share their views: Gas}}
  for (int s = 0; s < 2; ++s) {
    gasPairs(cells);
    gasClash(cells);
  }
}
