// Every routed allocation form in one offloaded loop (run through host
// offloading against the plain build): calloc, aligned_alloc, malloc and
// free; new with parentheses, braces and nothrow, ::new, over-aligned new,
// new[] value-initialised, delete and delete[]; a local whose destructor
// frees; a member function and callees that allocate, also called from host
// code (which keeps the standard allocation: host code frees with std::free
// what one returns).
#include <cstdio>
#include <cstdlib>
#include <new>
#include <random>
#include <vector>

struct alignas(64) Wide {
  double v[8];
};
struct Pair {
  double a, b;
};
struct Buffer {
  double *d;
  explicit Buffer(int n) : d(static_cast<double *>(std::malloc(n * sizeof(double)))) {}
  ~Buffer() { std::free(d); }
};

struct P {
  double x, y, out;
  double scratch() const {
    double *t = static_cast<double *>(std::malloc(2 * sizeof(double)));
    t[0] = x;
    t[1] = y;
    double s = t[0] * t[1];
    std::free(t);
    return s;
  }
};

/// Called from the loop and from host code, which frees the block itself.
static double *filled(int n, double v) {
  auto *d = static_cast<double *>(std::malloc(n * sizeof(double)));
  for (int k = 0; k < n; ++k)
    d[k] = v + k;
  return d;
}

static double sumOf(int n, double base) {
  double *a = static_cast<double *>(std::calloc(n, sizeof(double)));
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += a[k] + base * k;
  std::free(a);
  return s;
}

void step(std::vector<P> &ps) {
  [[clang::soa_conversion_offload_compute]]
  for (auto &p : ps) {
    Pair *q = new Pair{p.x, 2};
    Pair *r = ::new Pair(*q);
    Wide *w = new (std::nothrow) Wide();
    double *arr = new double[5]();
    auto *al = static_cast<double *>(aligned_alloc(64, 128));
    Buffer b(3);
    double *f = filled(2, p.y);
    for (int k = 0; k < 3; ++k)
      b.d[k] = p.y * k;
    al[0] = p.x;
    w->v[7] = p.y;
    arr[4] = q->a * r->b;
    p.out = arr[4] + w->v[7] + al[0] + b.d[2] + sumOf(4, p.x) + p.scratch() +
            (reinterpret_cast<unsigned long>(w) % 64 == 0 ? 1 : 0);
    delete q;
    delete r;
    delete w;
    delete[] arr;
    free(al);
    p.out += f[1];
    free(f);
  }
}

int main(int argc, char **argv) {
  unsigned seed = argc > 1 ? std::atoi(argv[1]) : 1;
  long n = argc > 2 ? std::atol(argv[2]) : 100;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<P> ps(n);
  for (P &p : ps)
    p = {U(rng), U(rng), 0};
  step(ps);
  double s = sumOf(3, 0.5); // host code: the standard allocation
  double *h = filled(3, 0.25);
  s += h[2];
  std::free(h);
  for (const P &p : ps)
    s += p.out;
  std::printf("sum %a\n", s);
}
