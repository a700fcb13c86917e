// Index loops named by soa_conversion_target over T*, T[N] and
// std::vector<T>, with a non-zero start ([Radtke2025], Listing 5, and variants).
#include "common.h"

#include <vector>

struct Data {
  double a, b, unused;
};

void addB(Data *buf, int lo, int size) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = lo; i < size; i++) {
    buf[i].a += buf[i].b;
  }
}

void scaleVec(std::vector<Data> &buf, double s) {
  [[clang::soa_conversion_target("buf")]]
  for (std::size_t i = 0; i < buf.size(); ++i)
    buf[i].b = buf[i].a * s;
}

double sumArray(Data (&arr)[64]) {
  double s = 0;
  [[clang::soa_conversion_target("arr")]]
  for (long k = 0; k < 64; k += 1) {
    Data &d = arr[k];
    s += d.a - d.b;
    d.unused = s;
  }
  return s;
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv);
  std::mt19937 rng(a.seed);
  std::uniform_real_distribution<double> U(0, 1);
  std::vector<Data> v(static_cast<std::size_t>(a.n));
  for (Data &d : v)
    d = {U(rng), U(rng), U(rng)};
  for (int r = 0; r < a.reps; ++r) {
    addB(v.data(), 1, static_cast<int>(a.n) - 1);
    scaleVec(v, 0.5);
  }
  static Data arr[64];
  for (Data &d : arr)
    d = {U(rng), U(rng), 0};
  double s = sumArray(arr);
  double ca = 0, cb = 0;
  for (const Data &d : v) {
    ca += d.a;
    cb += d.b;
  }
  printValue("a", ca);
  printValue("b", cb);
  printValue("arr", s + arr[63].unused);
}
