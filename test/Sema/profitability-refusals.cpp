// A loop the profitability rule leaves as written is not converted, so a
// construct only the conversion would have refused does not fail the build;
// but legality comes before cost: such a loop gets a warning with the
// error it would get (never the remark's fix-it to "always", which would
// lead into that error), and the same loop marked "always" is refused as
// usual. Remarks name the element type fully qualified.
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
  [[clang::CONVERT]]
  for (ns::Shape *s : v) // expected-warning {{loop left as written: it visits each element once, and it could not be converted}} expected-note {{soa_conversion("always") would give this error; change the loop as the error says, or remove the attribute}}
    s->a = s->area(); // expected-note {{cannot convert loop: virtual call to 'ns::Shape::area'}}
}

#ifndef ALWAYS
// The shapes a newcomer met (#51): the element's address kept in a global,
// the iterated container grown in the loop, an index loop without a target.
std::vector<ns::Shape *> kept;
void keepAddress(std::vector<ns::Shape> &v) {
  [[clang::soa_conversion]]
  for (ns::Shape &s : v) // expected-warning {{loop left as written}} expected-note {{soa_conversion("always") would give this error}}
    kept.push_back(&s); // expected-note {{cannot convert loop}}
}
void grow(std::vector<ns::Shape *> &v) {
  [[clang::soa_conversion]]
  for (ns::Shape *s : v) { // expected-warning {{loop left as written}} expected-note {{soa_conversion("always") would give this error}}
    s->a = 1;
    v.push_back(s); // expected-note {{cannot convert loop}}
  }
}
void noTarget(std::vector<ns::Shape> &v, std::vector<ns::Shape> &w) {
  [[clang::soa_conversion]]
  for (unsigned i = 0; i < v.size(); ++i) // expected-warning {{loop left as written}} expected-note {{soa_conversion("always") would give this error}} expected-note {{needs soa_conversion_target}}
    v[i].a = w[i].a;
}
// A loop that would convert keeps the remark and its fix-it.
void fine(std::vector<ns::Shape *> &v) {
  [[clang::soa_conversion]] // expected-note {{write soa_conversion("always") to convert it anyway}}
  for (ns::Shape *s : v) // expected-remark {{loop left unconverted: it visits each element once}}
    s->a = s->w * s->h;
}
#endif

void widths(std::vector<ns::Shape *> &v) {
  [[clang::soa_conversion("always")]]
  for (ns::Shape *s : v) // expected-remark {{view of 'ns::Shape' in {w} out {a}}}
    s->a = s->w;
}
