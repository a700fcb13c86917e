// A loop whose instantiations with one element type use different fields
// picks its view by its template's arguments: an argument that cannot be
// named outside the function (a lambda's closure type, a local class, a
// template template argument) is refused, naming it (issue #50 part 7).
// RUN: %soaview_verify %s
// RUN: %soaview_verify %offload_syntax -DOFFLOAD %s
#include <vector>

struct P { double x, y; };

#ifdef OFFLOAD
// An offloaded loop cannot pick its view by its template's arguments.
template <int W> void offloaded(std::vector<P> &ps) {
  [[clang::soa_conversion_offload_compute]]
  for (auto &p : ps) // expected-error 2 {{use different fields or member functions of 'P', and an offloaded loop or sweep cannot pick its view by its template arguments}} expected-note 2 {{offload it from a function written for each use}}
    if constexpr (W == 0)
      p.x += 1;
    else
      p.y *= 2;
}
void both(std::vector<P> &ps) {
  offloaded<0>(ps);
  offloaded<1>(ps);
}
#else
template <class F> void each(F f, std::vector<P> &ps) {
  [[clang::soa_conversion]]
  for (auto &p : ps) // expected-error 2 {{use different fields or member functions of 'P', so each picks its view by its template arguments, and the argument for 'F' here is the closure type of a lambda, which cannot be named outside the function}}
    f(p);
}

void lambdas(std::vector<P> &ps) {
  each([](P &p) { p.x += 1; }, ps); // expected-note {{declared here; pass a class declared at namespace scope instead}}
  each([](P &p) { p.y *= 2; }, ps); // expected-note {{declared here; pass a class declared at namespace scope instead}}
}

template <class F> void local(F &f, std::vector<P> &ps) {
  [[clang::soa_conversion]]
  for (auto &p : ps) // expected-error {{the argument for 'F' here is the local class 'Twice'}}
    f.aos(p);
}
struct Once { void aos(P &p) { p.x += 1; } };
void locals(std::vector<P> &ps) {
  struct Twice { void aos(P &p) { p.y *= 2; } }; // expected-note {{declared here; pass a class declared at namespace scope instead}}
  Once o;
  Twice t;
  local(o, ps);
  local(t, ps);
}

template <class T> struct AddX { void aos(T &p) { p.x += 1; } };
template <class T> struct MulY { void aos(T &p) { p.y *= 2; } };
template <template <class> class F> // expected-note 2 {{declared here; pass a class declared at namespace scope instead}}
void byTemplate(std::vector<P> &ps) {
  F<P> f;
  [[clang::soa_conversion]]
  for (auto &p : ps) // expected-error 2 {{the argument for 'F' here is a template template argument}}
    f.aos(p);
}
void templates(std::vector<P> &ps) {
  byTemplate<AddX>(ps);
  byTemplate<MulY>(ps);
}
#endif
