// An index loop may reach other elements of its target (`A[k]`, k free of
// the index; `A.size()`): they stay on the array as written, and what they
// touch is checked against the view like any other access to an element
// (test/Exec/constructs/other-elements.cpp). Refused, located: a field the
// view writes read or written there, a field the view reads written there,
// a use that could change the container, one spelt in a macro, and
// offloaded loops.
// RUN: %soaview_verify %offload_syntax %s
#include <vector>

struct P { // #P
  double x, v, m;
  int hits;
};

void readsWhatTheViewWrites(P *A, int n, int target) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i) // expected-note {{in the loop annotated here}}
    A[i].x += A[target].x; // expected-error {{cannot convert loop: field 'x' is read through another object of the element type while the loop writes it through the view}} expected-note {{the view works on a copy of the field}}
}

void writesWhatTheViewReads(P *A, int n, int sink) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i) // expected-note {{in the loop annotated here}}
    A[sink].m += A[i].m; // expected-error {{field 'm' is written through another object of the element type while the loop reads it through the view}} expected-note {{the view works on a copy of the field}}
}

void wholeCopy(std::vector<P> &A, int n, int k) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i) // expected-note {{in the loop annotated here}}
    A[k] = A[i]; // expected-error {{field 'x' is written through another object of the element type}} expected-note@#P {{the view works on a copy}}
}

void growsTheContainer(std::vector<P> &A, int n) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i) // expected-note {{a view holds exactly the element of the current iteration}}
    if (A[i].x > 0)
      A.push_back(P{}); // expected-error {{target 'A' is used as 'A.push_back', not as 'A[i]' or 'A[i + c]' with c loop-invariant, or 'A[list[i]]' with a local list}}
}

#define AT(k) A[k]
void throughAMacro(P *A, int n) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i) // expected-note {{a view holds exactly the element of the current iteration}}
    A[i].v += AT(0).m; // expected-error {{target 'A' is used as 'AT', not as 'A[i]'}}
}

void offloaded(P *A, int n, int target) {
  [[clang::soa_conversion_target("A"), clang::soa_conversion_offload_compute]] // expected-note {{on the device the loop has only the view of its own element; read the value into a local variable before the loop, or remove the attribute to convert the loop on the host}}
  for (int i = 0; i < n; ++i)
    A[i].v += A[target].m; // expected-error {{cannot offload loop: it reaches other elements of its target as 'A[target]'}}
}

// Reading fields the view does not write converts.
void readsOthers(P *A, int n, int target) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i)
    A[i].v += A[target].m * A[i].x;
}
