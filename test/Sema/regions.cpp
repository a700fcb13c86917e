// View regions: a region reaches the annotated loops of the functions it
// calls; anything else in it that meets their elements is refused with the
// statement, the field and the region named (docs/offload.md, "View
// regions"; docs/diagnostics.md, "View regions").
// RUN: %soaview_verify -fopenmp -ferror-limit=0 -fplugin-arg-soaview-remarks %s
#include <algorithm>
#include <cstring>
#include <soaview/sync.h>
#include <vector>

struct P {
  double x, rho;
  double twice() const { return 2 * x; }
};
struct Cell {
  std::vector<P *> local;
};

void sweep(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-remark@+1 {{cells swept}}
  for (Cell &c : cells) {
    [[clang::soa_conversion]] // expected-remark@+1 {{view of 'P' in {x, rho} out {rho}}}
    for (P *p : c.local)
      p->rho += p->x;
  }
}

void hostLoop(std::vector<Cell> &cells) {
  for (Cell &c : cells)
    [[clang::soa_conversion("always")]] // expected-remark@+1 {{view of 'P' in {x} out {x}}}
    for (P *p : c.local)
      p->x *= 0.5;
}

// A loop that is not annotated inside an annotated one does not make its
// elements the region's: `n.w` below is not refused.
struct Neighbour {
  double w;
};
void weighted(Cell &c, std::vector<Neighbour> &ns) {
  [[clang::soa_conversion("always")]] // expected-remark@+1 {{view of 'P' in {rho} out {rho}}}
  for (P *p : c.local)
    for (Neighbour &n : ns)
      p->rho += n.w;
}
void notElements(std::vector<Cell> &cells, std::vector<Neighbour> &ns) {
  [[clang::soa_conversion_region]] { // expected-remark {{view region: 2 annotated loop(s) share their views: P}}
    sweep(cells);
    weighted(cells[0], ns);
    ns[0].w = 1;
  }
}

// Passes: two sweeps and a host loop, through calls.
void passes(std::vector<Cell> &cells, int n) {
  [[clang::soa_conversion_region]] // expected-remark@+1 {{view region: 2 annotated loop(s) share their views: P}}
  for (int s = 0; s < n; ++s) {
    sweep(cells);
    hostLoop(cells);
  }
}

void readsField(const std::vector<Cell> &cells, int n) {
  [[clang::soa_conversion_region]] {
    // expected-note@-1 {{in the region here}}
    sweep(const_cast<std::vector<Cell> &>(cells));
    double r = cells[0].local[0]->rho; // expected-error {{cannot keep views in this region: it uses field 'rho' of 'P' outside the region's annotated loops}} expected-note {{move the statement out of the region}}
    (void)r;
  }
}

void touch(const Cell &c) {
  c.local[0]->x = 1; // expected-error {{it uses field 'x' of 'P'}} expected-note {{move the statement out of the region}}
}
void throughCall(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    touch(cells[0]); // expected-note {{reached through this call}}
  }
}

void callsMethod(std::vector<Cell> &cells) {
  const std::vector<Cell> &cc = cells;
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    (void)cc[0].local[0]->twice(); // expected-error {{it calls 'twice' of 'P' outside the region's annotated loops}} expected-note {{move the statement out of the region}}
  }
}

void changesList(std::vector<Cell> &cells, P *q) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    cells[0].local.push_back(q); // expected-error {{'push_back' may change 'std::vector<P *>', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

void reseatsEntry(std::vector<Cell> &cells, P *q) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    P *mine = cells[0].local[0]; // reads the list: fine
    mine = q;                    // a variable of its own: fine
    cells[0].local[0] = mine; // expected-error {{cannot keep views in this region: '=' may change 'P *', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

// The pointer's type as the code names it (the canonical 'P *' before).
using PPtr = P *;
void reseatsNamedEntry(std::vector<Cell> &cells, PPtr *slot, PPtr q) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    *slot = q; // expected-error {{cannot keep views in this region: '=' may change 'PPtr', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

// A library function given a position it may write through: an iterator
// or a pointer into a list, or a pointer to an element. Searching,
// counting and an iterator's steps and comparisons write nothing.
void sortsList(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    std::sort(cells[0].local.begin(), cells[0].local.end()); // expected-error {{cannot keep views in this region: 'sort' may change 'std::vector<P *>', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

void reversesData(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    P **first = cells[0].local.data();
    std::reverse(first, first + cells[0].local.size()); // expected-error {{'reverse' may change 'P **', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

void copiesIntoList(std::vector<Cell> &cells, P *q) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    std::memcpy(cells[0].local.data(), &q, sizeof q); // expected-error {{'memcpy' may change 'std::vector<P *>', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

void sortsCells(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    std::reverse(cells.begin(), cells.end()); // expected-error {{'reverse' may change 'std::vector<Cell>', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

void copiesIntoElement(std::vector<Cell> &cells, const P &from) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    P *p = cells[0].local[0];
    std::memcpy(p, &from, sizeof from); // expected-error {{'memcpy' may change 'P *', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

int searches(std::vector<Cell> &cells, P *q) {
  int found = 0;
  [[clang::soa_conversion_region]] { // expected-remark {{view region: 1 annotated loop(s) share their views: P}}
    sweep(cells);
    std::vector<P *> &l = cells[0].local;
    found += std::find(l.begin(), l.end(), q) != l.end();
    found += std::count(l.begin(), l.end(), q);
    for (auto it = l.begin(); it != l.end(); ++it)
      found += *it == q;
    found += std::max(l.front(), q) == q;
    P *first = nullptr;
    std::memcpy(&first, l.data(), sizeof first); // reads the list
    found += first == q;
  }
  return found;
}

void swapsLists(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    std::swap(cells[0].local, cells[1].local); // expected-error {{'swap' may change 'std::vector<P *>'}} expected-note {{change containers before or after the region}}
  }
}

void elsewhere(std::vector<Cell> &cells);
void unseen(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    elsewhere(cells); // expected-error {{it calls 'elsewhere', whose body is not in this translation unit}} expected-note {{define the function in this file, call it outside the region, or call it in soaview::sync(lists, f)}}
  }
}

void indirect(std::vector<Cell> &cells, void (*step)(std::vector<Cell> &)) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    step(cells); // expected-error {{it calls a function through a pointer}} expected-note {{call it directly, outside the region, or in soaview::sync(lists, f)}}
  }
}

struct Stepper {
  virtual void step(std::vector<Cell> &) {}
};
void virtualCall(std::vector<Cell> &cells, Stepper &s) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    s.step(cells); // expected-error {{it calls a function through a virtual call}} expected-note {{call it directly, outside the region, or in soaview::sync(lists, f)}}
  }
}

void parallel(std::vector<Cell> &cells, int n) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
#pragma omp parallel for // expected-error {{it runs an OpenMP directive}} expected-note {{a region belongs to the thread that enters it}}
    for (int i = 0; i < n; ++i)
      (void)i;
  }
}

template <class C> void inTemplate(C &cells) {
  [[clang::soa_conversion_region]] // expected-error@+1 {{cannot keep views in this region: it is in a template}} expected-note@+1 {{put the region in a function that is not a template}}
  for (int s = 0; s < 2; ++s)
    sweep(cells);
}
template void inTemplate(std::vector<Cell> &);

void empty(int n, double *v) {
  [[clang::soa_conversion_region]] // expected-warning@+1 {{this region reaches no annotated loop; it is left as written}}
  for (int i = 0; i < n; ++i)
    v[i] = 0;
}

void misplaced(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] int k = 0; // expected-error {{'soa_conversion_region' attribute only applies to compound statements and loops}} expected-note {{place it before '{', 'for', 'while' or 'do'}}
  [[clang::soa_conversion_region]] sweep(cells); // expected-error {{'soa_conversion_region' attribute only applies to compound statements and loops}} expected-note {{place it before '{', 'for', 'while' or 'do'}}
  [[clang::soa_conversion_region(1)]] { // expected-error {{'soa_conversion_region' attribute takes no arguments}}
    (void)k;
  }
}

// Lists of lists: moving them away, and the standard library's names for
// an entry (`lists[0]` is a `value_type`), shown as the user's types.
using List = std::vector<P *>;
void sweepLists(std::vector<List> &lists) {
  [[clang::soa_conversion_offload_compute]] // expected-remark@+1 {{cells}}
  for (List &l : lists) {
    [[clang::soa_conversion]] // expected-remark@+1 {{view of 'P' in {x, rho} out {rho}}}
    for (P *p : l)
      p->rho += p->x;
  }
}

void movesLists(std::vector<List> &lists) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweepLists(lists);
    auto moved = std::move(lists); // expected-error {{'move' may change 'std::vector<List>', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
    (void)moved;
  }
}

void clearsEntry(std::vector<List> &lists) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweepLists(lists);
    lists[0].clear(); // expected-error {{'clear' may change 'std::vector<P *>', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

// A container of structs that hold lists holds elements too; a class of
// the user's that holds them is followed into, not refused.
void clearsCells(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    cells.clear(); // expected-error {{'clear' may change 'std::vector<Cell>', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

struct Simulation {
  std::vector<Cell> cells;
  int steps = 0;
  void step() {
    sweep(cells);
    ++steps;
  }
};
void runs(Simulation &s, int n) {
  [[clang::soa_conversion_region]] // expected-remark@+1 {{view region: 1 annotated loop(s) share their views: P}}
  for (int k = 0; k < n; ++k)
    s.step();
}

// soaview::sync(lists, f): f runs as outside the region (the runtime writes
// the lists' elements back first and gathers them again after), so what it
// does is not refused: it may touch the elements and call what soaview
// cannot follow. The same code outside a sync is refused.
void exchangeElsewhere(std::vector<P *> &halo);
void exchanges(std::vector<Cell> &cells, std::vector<P *> &halo) {
  [[clang::soa_conversion_region]] // expected-remark@+1 {{view region: 1 annotated loop(s) share their views: P}}
  for (int s = 0; s < 2; ++s) {
    soaview::sync(halo, [&] {
      exchangeElsewhere(halo);
      halo[0]->rho = cells[0].local[0]->x;
    });
    sweep(cells);
    soaview::sync([&] { halo[1]->x = 0; });
    // What f reads and what it writes apart: both lists are the region's
    // code, f is not.
    soaview::sync(cells[0].local, halo, [&] {
      exchangeElsewhere(halo);
      *halo[0] = *cells[0].local[0];
    });
  }
}
void exchangesOutsideSync(std::vector<Cell> &cells, std::vector<P *> &halo) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    exchangeElsewhere(halo); // expected-error {{it calls 'exchangeElsewhere', whose body is not in this translation unit}} expected-note {{define the function in this file, call it outside the region, or call it in soaview::sync(lists, f)}}
  }
}

// Constructors and destructors run code that is no call in the source:
// soaview follows them as it follows calls (a local variable's destructor
// runs where the region leaves its scope, a temporary's at the end of its
// statement, its members' after its own body).
struct Touch {
  P *p;
  explicit Touch(P *q) : p(q) { p->rho = 1; } // expected-error {{it uses field 'rho' of 'P' outside the region's annotated loops}} expected-note {{move the statement out of the region}}
};
struct Untouch {
  P *p;
  ~Untouch() { p->x = 2; } // expected-error {{it uses field 'x' of 'P' outside the region's annotated loops}} expected-note {{move the statement out of the region}}
};
struct Holder {
  Untouch u; // destroyed after ~Holder's body
  ~Holder() {}
};
void constructs(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] { // expected-note 2 {{in the region here}}
    sweep(cells);
    Touch t(cells[0].local[0]); // expected-note {{reached through this call}}
    Holder h{{cells[0].local[0]}}; // expected-note {{reached through this call}}
    sweep(cells);
  }
}
struct Base {
  virtual ~Base() {}
};
void deletes(std::vector<Cell> &cells, Base *b) {
  [[clang::soa_conversion_region]] { // expected-note {{in the region here}}
    sweep(cells);
    delete b; // expected-error {{it calls a function through a virtual call}} expected-note {{call it directly, outside the region, or in soaview::sync(lists, f)}}
  }
}
// Objects whose constructors and destructors do not meet the elements are
// accepted, a container of them too.
struct Counter {
  int n = 0;
  ~Counter() { ++n; }
};
void counts(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] // expected-remark@+1 {{view region: 1 annotated loop(s) share their views: P}}
  for (int s = 0; s < 2; ++s) {
    std::vector<Counter> counters(3);
    sweep(cells);
  }
}

// Bytes written through an untyped pointer in a region pass (they are not
// seen as a list's), but the runtime then checks every run's lists element
// by element; the remark says where (docs/offload.md, "The check of
// unchanged lists").
void bytes(std::vector<Cell> &cells, void *to, const void *from) {
  [[clang::soa_conversion_region]] // expected-remark@+1 {{view region: 1 annotated loop(s) share their views: P}}
  for (int s = 0; s < 2; ++s) {
    sweep(cells);
    std::memcpy(to, from, 8); // expected-note {{the region checks its sweeps' lists element by element at every run: this call that may write bytes through a pointer, which may change a list where soaview cannot see it}}
  }
}
