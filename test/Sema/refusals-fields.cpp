// Fields and types a view cannot hold or place.
// RUN: %soaview_verify %s
#include <vector>

struct V {
  volatile double sensor; // expected-note {{a view works on a temporary copy}}
  struct {                // expected-note {{give the struct or union member a name}}
    double a;
  };
  double b;
};

void volatileField(std::vector<V *> &v, double &s) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    s += p->sensor; // expected-error {{field 'sensor' is volatile or atomic}}
}

void anonymousStruct(std::vector<V *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    p->a = 1; // expected-error {{the loop uses a member of an anonymous struct or union}}
}

void localType() {
  struct L { double x; };
  std::vector<L> v(3);
  [[clang::soa_conversion]]
  for (auto &e : v) // expected-error {{cannot convert loop: element type 'L' is not defined at namespace scope before the function holding the loop}}
    e.x = 1;
  // expected-note@-5 {{defined here}}
}

template <class T> struct Box {
  static void bump(T &v) { v.b += 1; } // expected-note {{make it a free function or a function template}}
};
void classTemplateMember(std::vector<V *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    Box<V>::bump(*p); // expected-error {{'Box<V>::bump' is a member of a class template; it cannot be cloned}}
}
