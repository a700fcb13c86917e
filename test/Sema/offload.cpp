// What an offloaded loop may not do.
// RUN: %soaview_verify %offload_syntax %s
#include <list>
#include <vector>
struct P { double x, y; };

void earlyExit(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{'break', 'return' and 'goto' out of the loop have no meaning there}}
  for (auto *p : v) {
    if (p->x > 1)
      break; // expected-error {{cannot offload loop: it can leave the loop early}}
    p->y = 0;
  }
}

void outerWrite(std::vector<P *> &v, double &sum) {
  double local = 0;
  [[clang::soa_conversion_offload_compute]] // expected-note {{on the device each iteration has its own copy}}
  for (auto *p : v)
    local += p->x; // expected-error {{cannot offload loop: it writes a variable declared outside the loop}}
  sum = local;
}

void nested(std::list<P *> &a, std::list<P *> &b) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{hoist the inner view out of the offloaded loop: soa_conversion_hoist(1)}}
  for (auto *p : a)
    [[clang::soa_conversion]]
    for (auto *q : b) // expected-error {{cannot offload loop: its view would be built inside the offloaded loop}}
      p->x += q->y;
}

void innerOffload(std::list<P *> &a, std::list<P *> &b) {
  [[clang::soa_conversion_offload_compute]]
  for (auto *p : a) {
    [[clang::soa_conversion_hoist(1)]] [[clang::soa_conversion_offload_compute]] // expected-note {{a nest is offloaded from its outer loop}}
    for (auto *q : b) // expected-error {{cannot offload loop: it is nested with other converted loops}}
      p->x += q->y;
  }
}

void threeLevels(std::list<P *> &a, std::list<P *> &b) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{a nest is offloaded from its outer loop}}
  for (auto *p : a) { // expected-error {{cannot offload loop: it is nested with other converted loops}}
    [[clang::soa_conversion_hoist(1)]]
    for (auto *q : b) {
      [[clang::soa_conversion_hoist(2)]]
      for (auto *r : b)
        p->x += q->y * r->y;
    }
  }
}

void innerAddresses(std::list<P *> &a, std::list<P *> &b) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{the device copies do not keep the elements' addresses}}
  for (auto *p : a) {
    [[clang::soa_conversion_hoist(1)]]
    for (auto *q : b)
      if (p != q) // expected-error {{cannot offload loop: it compares element addresses}}
        p->x += q->y;
  }
}

void activeLocal(std::list<P *> &local, std::list<P *> &active) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{write through the outer loop's element (local-active order)}}
  for (auto *a : active) {
    [[clang::soa_conversion_hoist(1)]]
    for (auto *l : local)
      l->x += a->y; // expected-error {{cannot offload loop: the inner loop writes field 'x'}}
  }
}

// A pair nest offloads from its outer loop; the inner view is hoisted.
void pairs(std::list<P *> &a, std::list<P *> &b) {
  [[clang::soa_conversion_offload_compute]]
  for (auto *p : a) {
    [[clang::soa_conversion_hoist(1)]]
    for (auto *q : b)
      p->x += q->y;
  }
}

void addresses(std::vector<P *> &v, P *special) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{the device copies do not keep the elements' addresses}}
  for (auto *p : v)
    if (p != special) // expected-error {{cannot offload loop: it compares element addresses}}
      p->x = 0;
}

void outsideIndex(P *buf, int n) {
  int i;
  [[clang::soa_conversion_target("buf")]] [[clang::soa_conversion_offload_compute]] // expected-note {{declare the index in the loop}}
  for (i = 0; i < n; ++i) // expected-error {{cannot offload loop: its index is declared outside the loop}}
    buf[i].x = 1;
}

void inner(int) {}
void fine(std::vector<P> &v) {
  [[clang::soa_conversion_offload_compute]]
  for (auto &p : v) {
    for (int k = 0; k < 3; ++k) { // a nested plain loop may break
      if (k == 1)
        break;
      p.x += k;
    }
  }
}

void hoistedOffload(std::vector<P *> &v, int steps) {
  for (int s = 0; s < steps; ++s) {
    [[clang::soa_conversion_hoist(1)]] [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded views are built where the loop is}}
    for (auto *p : v) // expected-error {{cannot offload loop: it is also hoisted}}
      p->x += p->y;
  }
}

// A virtual call runs converted only after a check of the object's dynamic
// type on the host; offloaded, it is a member function of another class.
struct Dispatching {
  virtual void apply(P &p) const { p.x = 1; } // expected-error {{cannot offload loop: the element is passed to 'Dispatching::apply', a member function of another class}}
};
void dispatchingOffload(std::vector<P> &v, const Dispatching &d) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{on the device it would run on a copy of its object}}
  for (auto &p : v)
    d.apply(p);
}

// A class views carry as bytes stays on the host.
struct Vec3 {
  double v[3];
  Vec3() = default;
  Vec3(const Vec3 &o) {
    for (int i = 0; i < 3; i++)
      v[i] = o.v[i];
  }
};
struct Q3 { Vec3 x; double w; };
inline double first(const Vec3 &v) { return v.v[0]; }
void bytesOffload(std::vector<Q3> &qs) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{device code copies only trivially copyable fields; run this loop on the host}}
  for (auto &q : qs)
    q.w += first(q.x); // expected-error {{cannot offload loop: field 'x' is of a class that is not trivially copyable, which views carry as bytes on the host only}}
}

// The outer loop writes what the inner one reads: on the host both views
// reach it in the element; the device has no such element.
void sharedField(std::list<P *> &a, std::list<P *> &b) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{on the host both views share the element's own field; run this nest on the host, or use the field in one loop of the nest only}}
  for (auto *p : a) {
    [[clang::soa_conversion_hoist(1)]]
    for (auto *q : b)
      p->x += q->x; // expected-error {{cannot offload loop: field 'x' is written through the view of one loop and used through the view of another, so the views reach it in the element, in host memory}}
  }
}
