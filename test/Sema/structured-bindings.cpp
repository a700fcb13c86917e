// Structured bindings as a loop variable: what soaview refuses, and why.
// The binding that is a struct or a pointer to one stands for the element
// (test/Exec/constructs/structured-bindings.cpp runs the ones that convert).
// RUN: %soaview_verify -std=c++20 %offload_syntax %s
#include <map>
#include <utility>
#include <vector>

struct P { double x, v; };

void noStruct(std::vector<std::pair<int, double>> &v) {
  [[clang::soa_conversion]]
  for (auto &[k, d] : v) // expected-error {{cannot convert a loop whose structured bindings name no struct}} expected-note {{soaview views the one binding that is a struct or a pointer to a struct}}
    d += k;
}

// A pair list of two particles: which one would the view stand for?
void twoStructs(std::vector<std::pair<P *, P *>> &pairs) {
  [[clang::soa_conversion]]
  for (auto &[p, q] : pairs) // expected-error {{cannot convert a loop whose structured bindings name 2 structs}} expected-note {{'p' and 'q' are both structs or pointers to structs}}
    p->x += q->x;
}

// The neighbour list beside the particle is a std::vector: not the element.
void neighbours(std::vector<std::pair<P *, std::vector<P *>>> &lists) {
  [[clang::soa_conversion("always")]] // converts
  for (auto &[p, nb] : lists)
    for (P *q : nb)
      p->v += q->x;
}

// A range yielding pairs by value: the particle would end with its pair.
struct Generated {
  struct It {
    int i;
    std::pair<int, P> operator*() const { return {i, P{1.0 * i, 0}}; }
    It &operator++() { ++i; return *this; }
    bool operator!=(const It &o) const { return i != o.i; }
  };
  It begin() const { return {0}; }
  It end() const { return {10}; }
};
double temporaries(Generated g) {
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (auto [k, p] : g) // expected-error {{cannot convert a loop whose structured bindings bind to a temporary}} expected-note {{loop over a container that holds the elements}}
    s += p.x * k;
  return s;
}

// The pointer binding refers to the pair's member: assigning it would
// change the container, so it is not the view's to assign.
void reseat(std::vector<std::pair<int, P *>> &v, P &other) {
  [[clang::soa_conversion("always")]]
  for (auto &[k, p] : v) { // expected-note {{in the loop annotated here}}
    p->x += k;
    p = &other; // expected-error {{the element or its address is assigned}} expected-note {{a view element exists only during its iteration}}
  }
}

void offloaded(std::map<int, P> &m) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offload a loop over the elements themselves}}
  for (auto &[id, p] : m) // expected-error {{cannot offload loop: its variable is a structured binding, whose other bindings stay in host memory}}
    p.x += p.v;
}

// Not a binding, but refused with the loops above: an init-statement.
void initStatement(std::vector<P> &v) {
  [[clang::soa_conversion]]
  for (int k = 0; auto &p : v) // expected-error {{unsupported loop form: a range-based for loop with an init-statement}} expected-note {{declare it before the loop, in a block of its own}}
    p.x = k++;
}

// One rewrite serves every instantiation: each must pick the same binding.
inline void bump(P *p) { p->x += 1; }
inline void bump(double *d) { *d += 1; }
template <class Pair> void either(std::vector<Pair> &v) {
  [[clang::soa_conversion("always")]]
  for (auto &[a, b] : v) // expected-error {{its instantiations use different fields or member functions of 'P' (in {x} out {x} through binding b here)}}
    bump(a), bump(b);
}
void both(std::vector<std::pair<P *, double *>> &a,
          std::vector<std::pair<double *, P *>> &b) {
  either(a); // expected-note {{an instantiation using in {x} out {x} through binding a is here}}
  either(b);
}
