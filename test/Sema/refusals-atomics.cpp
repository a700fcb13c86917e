// Atomic fields and atomic uses of fields are refused, located, in every
// kind of loop soaview converts: a view works on a copy of the fields, so an
// atomic operation or a lock taken on it would exclude no other thread
// (docs/semantics.md, "Atomics"). Classes derived from std::atomic or
// std::atomic_flag with copy operations of their own ("copyable atomics"),
// and classes that hold atomics at any depth, are refused too.
// RUN: %soaview_verify -std=c++20 -Xclang -verify=host -fopenmp -ferror-limit=0 %s
// RUN: %soaview_verify -std=c++20 -Xclang -verify=offload %offload_syntax -ferror-limit=0 -DOFFLOAD %s
#include <atomic>
#include <omp.h>
#include <pthread.h>
#include <soaview/sync.h>
#include <vector>

// A spin lock that particles can be copied with: the copy starts unlocked.
struct CopyableFlag : std::atomic_flag {
  CopyableFlag() = default;
  CopyableFlag(const CopyableFlag &) : std::atomic_flag() {}
  CopyableFlag &operator=(const CopyableFlag &) { return *this; }
};
// A counter that copies its value with an atomic load.
struct CopyableCount : std::atomic<int> {
  CopyableCount() : std::atomic<int>(0) {}
  CopyableCount(const CopyableCount &o) : std::atomic<int>(o.load()) {}
  CopyableCount &operator=(const CopyableCount &o) {
    store(o.load());
    return *this;
  }
};
struct Guarded {
  double w;
  CopyableCount hits;
};

struct P {
  double x, rho;
  std::atomic<int> count;   // host-note 2 {{'std::atomic<int>' is atomic}} offload-note {{'std::atomic<int>' is atomic}}
  std::atomic_flag flag;    // host-note {{'std::atomic_flag' is atomic}}
  CopyableFlag lock;        // host-note 2 {{'CopyableFlag' is atomic}}
  Guarded g;                // host-note {{'CopyableCount' is atomic}}
  int n;
  void acquire() {
    while (lock.test_and_set(std::memory_order_acquire)) // host-error {{field 'lock' is volatile or atomic}}
      ;
  }
};
struct Cell {
  std::vector<P *> local, active;
};

#ifndef OFFLOAD
void atomicLoad(std::vector<P *> &ps, long &s) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    s += p->count.load(); // expected-error {{field 'count' is volatile or atomic}}
}

void atomicFlag(std::vector<P> &ps) {
  [[clang::soa_conversion("always")]]
  for (P &p : ps) // expected-note {{in the loop annotated here}}
    p.flag.clear(); // expected-error {{field 'flag' is volatile or atomic}}
}

// The copyable spin lock: taken through a method of the element.
void lockedDrift(std::vector<P *> &ps) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps) { // expected-note {{in the loop annotated here}}
    p->acquire();
    p->x += 1;
  }
}

// A member holding a copyable atomic, used whole.
void wholeGuarded(std::vector<P *> &ps, std::vector<Guarded> &out) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    out.push_back(p->g); // expected-error {{field 'g' is used whole and holds the atomic member 'hits'}}
}

// A plain member of a class that holds an atomic elsewhere converts: only
// `g.w` is gathered.
void plainPartOfGuarded(std::vector<P *> &ps, double &s) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps)
    s += p->g.w;
}

// Plain fields used atomically.
void atomicRef(std::vector<P *> &ps) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    std::atomic_ref<double>(p->rho).fetch_add(p->x); // expected-error {{field 'rho' is used atomically, by 'std::atomic_ref<double>'}} expected-note {{an atomic operation on it would exclude no other thread}}
}

void gnuBuiltin(std::vector<P *> &ps) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    __atomic_fetch_add(&p->n, 1, __ATOMIC_RELAXED); // expected-error {{field 'n' is used atomically, by an atomic builtin}} expected-note {{exclude no other thread}}
}

void syncBuiltin(std::vector<P *> &ps) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    __sync_fetch_and_add(&p->n, 1); // expected-error {{field 'n' is used atomically, by '__sync_fetch_and_add'}} expected-note {{exclude no other thread}}
}

void ompAtomic(std::vector<P *> &ps) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps) { // expected-note {{in the loop annotated here}}
#pragma omp atomic
    p->rho += p->x; // expected-error {{field 'rho' is used atomically, by '#pragma omp atomic'}} expected-note {{exclude no other thread}}
  }
}

// A helper that updates through the address it is given.
inline void atomicAdd(double *to, double v) {
  __atomic_fetch_add(to, v, __ATOMIC_RELAXED);
}
void throughHelper(std::vector<P *> &ps) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    atomicAdd(&p->rho, p->x); // expected-error {{field 'rho' is used atomically, by an atomic builtin}} expected-note {{exclude no other thread}}
}

// A pair nest: the inner element's lock.
void pairNest(std::vector<P *> &local, std::vector<P *> &active) {
  [[clang::soa_conversion]]
  for (P *p : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (P *q : active) { // expected-note {{in the loop annotated here}}
      while (q->lock.test_and_set()) // expected-error {{field 'lock' is volatile or atomic}}
        ;
      p->rho += q->x;
    }
  }
}

// A view region around a sweep whose loop counts atomically.
void counted(std::vector<Cell> &cells) {
  for (Cell &c : cells) {
    [[clang::soa_conversion("always")]]
    for (P *p : c.local) // expected-note {{in the loop annotated here}}
      p->count.fetch_add(1); // expected-error {{field 'count' is volatile or atomic}}
  }
}
void region(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] {
    counted(cells);
  }
}

// Locks inline in the element, handed by address to a library function
// soaview cannot see into: the view's copy would be locked.
struct Locked {
  double x, f;
  omp_lock_t lock;
  pthread_mutex_t m;
};
void ompLock(std::vector<Locked *> &ps) {
  [[clang::soa_conversion("always")]]
  for (Locked *p : ps) { // expected-note {{in the loop annotated here}}
    omp_set_lock(&p->lock); // expected-error {{the address of field 'lock' (of type 'omp_lock_t') is passed to 'omp_set_lock', whose body soaview cannot see}}
    p->f += p->x;
    omp_unset_lock(&p->lock);
  }
}
// expected-note@omp.h:* {{the callee would get the view's copy of the field, not the element's own object}}
void mutexThroughLocal(std::vector<Locked *> &ps) {
  [[clang::soa_conversion("always")]]
  for (Locked *p : ps) { // expected-note {{in the loop annotated here}}
    pthread_mutex_t *m = &p->m; // expected-error {{the address of field 'm' (of type 'pthread_mutex_t') is passed to 'pthread_mutex_lock'}}
    pthread_mutex_lock(m);
    p->f += p->x;
    pthread_mutex_unlock(m);
  }
}
// expected-note@pthread.h:* {{the callee would get the view's copy of the field}}
#else
// Offloaded loops and sweeps over cells.
void offloaded(std::vector<P *> &ps) {
  [[clang::soa_conversion_offload_compute]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    p->rho += p->count.load(); // expected-error {{field 'count' is volatile or atomic}}
}

void sweep(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active) // expected-note {{in the loop annotated here}}
        p->rho += q->x * __atomic_load_n(&q->n, __ATOMIC_RELAXED); // expected-error {{field 'n' is used atomically, by an atomic builtin}} expected-note {{exclude no other thread}}
    }
  }
}
#endif
