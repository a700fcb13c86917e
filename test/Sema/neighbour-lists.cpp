// Neighbour-list loops (`A[list[k]]`) gather through the list before the
// loop (test/Exec/constructs/neighbour-lists.cpp). Refused, located: a
// body that changes the list, two lists in one loop, a list that is not a
// local variable or parameter (a callee could change it), a pair loop
// through a list (an element listed twice would have two views), a list
// loop inside a loop over its target that is not hoisted out of it, and
// offloaded loops (the list stays in host memory).
// RUN: %soaview_verify %offload_syntax %s
#include <vector>

struct P {
  double x, v, m;
};

void changesList(P *A, std::vector<int> &ngb, std::size_t n) {
  [[clang::soa_conversion_target("A")]]
  for (std::size_t k = 0; k < n; ++k) { // expected-note {{the view is built from the container's elements before the loop starts}}
    A[ngb[k]].x += 1;
    ngb[k] = 0; // expected-error {{cannot convert loop: the iterated container 'ngb' may be modified in the loop}}
  }
}

void twoLists(P *A, const int *l1, const int *l2, int n) {
  [[clang::soa_conversion_target("A")]]
  for (int k = 0; k < n; ++k) // expected-note {{a view holds exactly the element of the current iteration}}
    A[l1[k]].x += A[l2[k]].m; // expected-error {{target 'A' is indexed as 'A[l1[k]]' and as 'A[l2[k]]': two elements in one iteration}}
}

struct Cell {
  std::vector<int> members;
  void kick(P *A) {
    [[clang::soa_conversion_target("A")]]
    for (std::size_t k = 0; k < members.size(); ++k) // expected-note {{a view holds exactly the element of the current iteration}}
      A[members[k]].v += 1; // expected-error {{target 'A' is used as 'A[members[k]]', not as 'A[k]' or 'A[k + c]' with c loop-invariant, or 'A[list[k]]' with a local list}}
  }
};

void pairs(P *A, const int *list, int n) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("A")]]
    for (int j = i + 1; j < n; ++j) { // expected-error {{cannot convert symmetric pair loop: its elements come through the list 'list', and an element listed twice would have two views}} expected-note {{a pair loop walks the view of the loop around it}}
      A[list[i]].v += A[list[j]].x;
      A[list[j]].v -= A[list[i]].x;
    }
}

void notHoisted(P *A, int n, const std::vector<std::vector<int>> &ngbs) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i) {
    const std::vector<int> &mine = ngbs[i];
    [[clang::soa_conversion_target("A")]]
    for (std::size_t k = 0; k < mine.size(); ++k) // expected-error {{cannot convert symmetric pair loop: it loops over 'A', the target of the loop around it, from '0': hoist it out of that loop (soa_conversion_hoist) or leave it unannotated (it then reads the neighbours as written)}} expected-note {{a pair loop walks the view of the loop around it}}
      A[i].v += A[mine[k]].x;
  }
}

void offloaded(P *A, const int *list, int n) {
  [[clang::soa_conversion_target("A"), clang::soa_conversion_offload_compute]] // expected-note {{gather the listed elements into a container of pointers ('std::vector<T *>') and offload a loop over it, or remove the attribute to convert the loop on the host}}
  for (int k = 0; k < n; ++k)
    A[list[k]].v += A[list[k]].m; // expected-error {{cannot offload loop: it reaches its elements through the list 'list', which stays in host memory}}
}
