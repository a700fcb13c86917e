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
