// soaview::sync(reads, writes, f): the two lists hold one element type;
// lists of two types are refused where the sync is instantiated
// (soaview/sync.h; docs/offload.md, "Synchronisation points"). Its own file:
// a compile error here stops the plugin's checks of a file.
// RUN: %soaview_verify -fopenmp %s
#include <soaview/sync.h>
#include <vector>

struct P {
  double x;
};
struct Other {
  double y;
};

void mixedSync(std::vector<P *> &ps, std::vector<Other *> &os) {
  soaview::sync(ps, os, [] {}); // expected-note {{in instantiation of function template specialization}}
}
// expected-error@soaview/sync.h:* {{both lists must hold one element type; sync each type apart, or use soaview::sync(f)}}

// One type, as lists of pointers and of lists: accepted.
void sameType(std::vector<P *> &ps, std::vector<std::vector<P *>> &cells) {
  soaview::sync(ps, cells, [] {});
}
