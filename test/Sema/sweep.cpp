// Sweeps over cells: soa_conversion_offload_compute on a loop whose body runs
// an annotated nest offloads all cells at once; what would change the result
// is refused, and a nest whose inner loop writes stays on the host.
// RUN: %soaview_verify %offload_syntax -fplugin-arg-soaview-remarks %s
// Without -fopenmp the nest converts for the host, cell by cell.
// RUN: %soaview_verify -fplugin-arg-soaview-remarks -DHOST %s
// With -fopenmp but no offload target, the same: there is no device.
// RUN: %soaview_verify -fopenmp -fplugin-arg-soaview-remarks -DHOST %s
#include <vector>

struct P {
  double x, rho, f;
};
struct Cell {
  std::vector<P *> local, active;
  double scale;
};

#ifdef HOST
void hostOnly(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-remark@+1 {{cells not swept: compile with an offload target (-fopenmp with --offload-arch or -fopenmp-targets, or the CUDA backend) to offload; the nest converts for the host, cell by cell}}
  for (Cell &c : cells) {
    [[clang::soa_conversion]] // expected-remark@+1 {{view of 'P' in {x, rho} out {rho}}}
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]] // expected-remark@+1 {{view of 'P' in {x} out {}}}
      for (const P *q : c.active)
        p->rho += q->x * p->x;
    }
  }
}
#else
void swept(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-remark@+1 {{cells swept: one gather, one transfer and one launch for all cells; offloaded (OpenMP target), a bare kernel}}
  for (Cell &c : cells) {
    [[clang::soa_conversion]] // expected-remark@+1 {{view of 'P' in {x, rho} out {rho} (gather 16 B, scatter 8 B per element); offloaded (OpenMP target)}}
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]] // expected-remark@+1 {{view of 'P' in {x} out {}}}
      for (const P *q : c.active)
        p->rho += q->x * p->x;
    }
  }
}

// A nest whose code calls a function defined elsewhere (it may use OpenMP)
// keeps OpenMP's worksharing loop; the note says where.
double elsewhere(double);
void worksharing(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-remark-re@+1 {{cells swept: one gather, one transfer and one launch for all cells; offloaded (OpenMP target){{$}}}}
  for (Cell &c : cells) {
    [[clang::soa_conversion]] // expected-remark@+1 {{view of 'P' in {rho} out {rho}}}
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]] // expected-remark@+1 {{view of 'P' in {x} out {}}}
      for (const P *q : c.active)
        p->rho += elsewhere(q->x); // expected-note {{its kernel keeps OpenMP's worksharing loop, not a bare kernel: the code here may use OpenMP's device runtime}}
    }
  }
}

// The active-local order: the inner loop writes, so every element would be
// written from several cells at once.
void activeLocal(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-remark@+1 {{cells not swept: the inner loop writes field 'rho' (each element would be written from several cells at once); the nest converts for the host, cell by cell}}
  for (Cell &c : cells) {
    [[clang::soa_conversion]] // expected-remark@+1 {{view of 'P' in {x} out {}}}
    for (const P *q : c.active) {
      [[clang::soa_conversion_hoist(1)]] // expected-remark@+1 {{view of 'P' in {x, rho} out {rho}}}
      for (P *p : c.local)
        p->rho += q->x * p->x;
    }
  }
}

void otherStatement(std::vector<Cell> &cells, int &n) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{a sweep records every cell's lists by running the cell loop}}
  for (Cell &c : cells) {
    ++n; // expected-error {{cannot sweep the cells of this loop: its body may hold only declarations, then the annotated nest}}
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->rho = 0;
  }
}

void cellVariable(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{the nest runs on the device apart from the cell loop}}
  for (Cell &c : cells) {
    const double s = c.scale;
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->rho *= s; // expected-error {{cannot sweep the cells of this loop: the nest uses 's', which is declared in the cell loop}}
  }
}

// A field written through the local elements and read through the inner
// loop: the views share it in the element, in host memory, so the nest runs
// on the host, cell by cell (swept, a later cell would read what an earlier
// one wrote).
void writtenRead(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-remark@+1 {{cells not swept: field 'rho' is written through the local elements and read through the inner loop (the views share it in the element, in host memory); the nest converts for the host, cell by cell}}
  for (Cell &c : cells) {
    [[clang::soa_conversion]] // expected-remark@+1 {{view of 'P' in {rho} out {rho} (gather 0 B, scatter 0 B per element); in the element: {rho}}}
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]] // expected-remark@+1 {{view of 'P' in {rho} out {} (gather 0 B, scatter 0 B per element); in the element: {rho}}}
      for (const P *q : c.active)
        p->rho += q->rho;
    }
  }
}

void declarationEffects(std::vector<Cell> &cells, int &n) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{the declarations run for every cell before any cell's nest runs}}
  for (Cell &c : cells) {
    int k = n++; // expected-error {{cannot sweep the cells of this loop: a declaration in its body has side effects}}
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->rho = 0;
  }
}

void declarationReads(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{the declarations run for every cell before any cell's nest runs}}
  for (Cell &c : cells) {
    std::vector<P *> &l = c.local;
    const double first = l.empty() ? 0 : l[0]->rho; // expected-error {{a declaration in its body reads field 'rho' of the elements}}
    [[clang::soa_conversion]]
    for (P *p : l)
      p->f = 1;
  }
}

template <class T> void inTemplate(std::vector<T> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{a sweep records}}
  for (T &c : cells) { // expected-error {{cannot sweep the cells of this loop: it is in a template}}
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->rho = 0;
  }
}
template void inTemplate(std::vector<Cell> &);

void indexNest(std::vector<std::vector<P>> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{a sweep records}}
  for (auto &c : cells) {
    P *arr = c.data();
    const std::size_t n = c.size();
    [[clang::soa_conversion_target("arr")]]
    for (std::size_t i = 0; i < n; ++i) // expected-error {{cannot sweep the cells of this loop: the nest's loops must be range loops}}
      arr[i].rho = 0;
  }
}

void hoistedCells(std::vector<Cell> &cells) {
  for (int r = 0; r < 2; ++r) {
    [[clang::soa_conversion_offload_compute]] [[clang::soa_conversion_hoist(1)]] // expected-note {{a sweep records}}
    for (Cell &c : cells) { // expected-error {{cannot sweep the cells of this loop: a cell loop takes no hoist or target attribute}}
      [[clang::soa_conversion]]
      for (P *p : c.local)
        p->rho = 0;
    }
  }
}

#define EACH_CELL(c, cells) for (Cell & c : cells)
void inMacro(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{a sweep records}}
  EACH_CELL(c, cells) { // expected-error {{cannot sweep the cells of this loop: it is written in a macro}}
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->rho = 0;
  }
}
#endif
