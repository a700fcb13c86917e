// A loop the profitability rule leaves as written is not converted, so a
// construct only the conversion would have refused does not fail the build;
// the same loop marked "always" is refused as usual. Remarks name the
// element type fully qualified.
// RUN: env -u SOAVIEW_CONVERT %soaview_verify -fplugin-arg-soaview-remarks %s
// RUN: env -u SOAVIEW_CONVERT not %soaview_cc1 -DALWAYS %s 2>&1 | FileCheck %s
// CHECK: error: soaview: cannot convert loop: virtual call to 'ns::Shape::area'
#include <vector>

namespace ns {
struct Shape {
  double w, h, a;
  virtual double area() const { return w * h; }
};
} // namespace ns

#ifdef ALWAYS
#define CONVERT soa_conversion("always")
#else
#define CONVERT soa_conversion
#endif

void areas(std::vector<ns::Shape *> &v) {
  [[clang::CONVERT]] // expected-note {{write soa_conversion("always") to convert it anyway}}
  for (ns::Shape *s : v) // expected-remark {{loop left unconverted: it visits each element once}}
    s->a = s->area();
}

void widths(std::vector<ns::Shape *> &v) {
  [[clang::soa_conversion("always")]]
  for (ns::Shape *s : v) // expected-remark {{view of 'ns::Shape' in {w} out {a}}}
    s->a = s->w;
}
