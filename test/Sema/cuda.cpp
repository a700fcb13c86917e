// What a loop offloaded to CUDA may not use (plugin/checks/CudaChecks.cpp): each
// refusal says why and where the loop is offloaded.
// RUN: %soaview_verify -I%inputs -fplugin-arg-soaview-backend=cuda -fplugin-arg-soaview-dump=%t.cu %s
// The translator refuses the same loops, with the same diagnostics.
// RUN: not %soaview-translate --backend=cuda %s -o %t.out -- -std=c++17 -I%inputs 2>&1 | FileCheck %s
// CHECK: error: {{.*}}cannot offload loop to CUDA: it uses 'this'
#include "cuda_marked.h"
#include <vector>
struct P { double x, y; };

struct Solver {
  double scale = 2;
  void run(std::vector<P *> &v) {
    [[clang::soa_conversion_offload_compute]] // expected-note {{copy the members it needs into local variables before the loop}}
    for (auto *p : v)
      p->x *= scale; // expected-error {{cannot offload loop to CUDA: it uses 'this' (members of the enclosing object)}}
  }
};

void pointerCapture(std::vector<P *> &v, const double *table) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{pointers, references and objects holding them would refer to host memory}}
  for (auto *p : v)
    p->x = table[0]; // expected-error {{cannot offload loop to CUDA: it uses 'table' (of type 'const double *'), declared outside the loop}}
}

void vectorCapture(std::vector<P *> &v, std::vector<double> &w) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{the kernel receives a copy of each value it uses}}
  for (auto *p : v)
    p->x = w[0]; // expected-error {{it uses 'w' (of type 'std::vector<double> &'), declared outside the loop}}
}

struct Plain { double a, b[2]; };
void valueCaptures(std::vector<P *> &v, const Plain &c, double k) {
  [[clang::soa_conversion_offload_compute]] // values, references to values: accepted
  for (auto *p : v)
    p->x = c.a * c.b[1] + k;
}

double gScale = 3;
constexpr double kScale = 4;
const double cScale = 5;
void globals(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{device code sees only constants}}
  for (auto *p : v)
    p->x = kScale * cScale * gScale; // expected-error {{cannot offload loop to CUDA: it uses the variable 'gScale', which lives in host memory}}
}

static double readsGlobal(double x) { return x * gScale; } // expected-error {{'readsGlobal', called in the loop, uses the variable 'gScale'}}
void calleeGlobal(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{device code sees only constants}}
  for (auto *p : v)
    p->x = readsGlobal(p->y);
}

double external(double); // expected-note {{the device needs the function's code}}
void noDefinition(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded here}}
  for (auto *p : v)
    p->x = external(p->y); // expected-error {{cannot offload loop to CUDA: it calls 'external', whose definition is not in this file}}
}

void headerFunctions(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded here}}
  for (auto *p : v)
    p->x = libScale(p->y) + libConst(p->y) + libUnmarked(p->y); // expected-error {{it calls 'libUnmarked', declared in a header that soaview-translate does not rewrite}}
  // expected-note@cuda_marked.h:9 {{a macro that is '__host__ __device__' under nvcc and empty otherwise}}
}

void outerLambda(std::vector<P *> &v) {
  auto f = [](double x) { return x + 1; };
  [[clang::soa_conversion_offload_compute]] // expected-note {{define the lambda inside the loop body}}
  for (auto *p : v)
    p->x = f(p->y); // expected-error {{cannot offload loop to CUDA: it calls a lambda defined outside the loop}}
}

void innerLambda(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // accepted: compiled inside the kernel
  for (auto *p : v) {
    auto f = [](double x) { return x + 1; };
    p->x = f(p->y);
  }
}

class Private {
  void run(std::vector<P *> &v) {
    [[clang::soa_conversion_offload_compute]] // expected-note {{nvcc accepts the kernel's __device__ lambda only in a named function}}
    for (auto *p : v) // expected-error {{cannot offload loop to CUDA: the function holding it is a private or protected member}}
      p->x = 1;
  }
public:
  void call(std::vector<P *> &v) { run(v); }
};

auto deduced(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{move the loop into such a function}}
  for (auto *p : v) // expected-error {{cannot offload loop to CUDA: the function holding it has a deduced return type}}
    p->x = 1;
  return 0;
}

class Outer {
  struct Hidden {
    void run(std::vector<P *> &v) {
      [[clang::soa_conversion_offload_compute]] // expected-note {{move the loop into such a function}}
      for (auto *p : v) // expected-error {{cannot offload loop to CUDA: the function holding it is a member of a private or protected nested class}}
        p->x = 2;
    }
  };
public:
  void call(std::vector<P *> &v) { Hidden().run(v); }
};

struct Public {
  void run(std::vector<P *> &v) {
    [[clang::soa_conversion_offload_compute]] // accepted: a public member of a named class
    for (auto *p : v)
      p->x = 3;
  }
};

// Constant tables (const, constant initializer, at namespace scope of the
// translated file) get a device copy: read in the loop and in a function
// it calls, accepted (test/Offload/tables.test runs them). Named inside a
// macro, read in a header soaview does not rewrite, or defined in a class,
// soaview cannot name the copy instead: refused, located.
const double kTab[4] = {0.5, 0.25, 0.125, 0.0625};
static double tabulated(int i) { return kTab[i & 3]; }
void tables(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]]
  for (auto *p : v)
    p->x = kTab[1] * p->y + tabulated(2);
}
#define TAB(i) kTab[i] // expected-note {{write the name outside the macro}}
void tableInMacro(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded here}}
  for (auto *p : v)
    p->x = TAB(1) * p->y; // expected-error {{cannot offload loop to CUDA: the constant table 'kTab' is named inside a macro}}
}
const double kReadByHeader[2] = {3, 5}; // expected-note {{read the table there, or pass the values through a local variable}}
#include "cuda_table_reader.h"
void tableInHeader(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded here}}
  for (auto *p : v)
    p->x = readerLookup(1) * p->y;
}
// expected-error@cuda_table_reader.h:* {{cannot offload loop to CUDA: the constant table 'kReadByHeader' is read in a header that soaview does not rewrite}}
struct Coeffs {
  static const double w[2];
};
const double Coeffs::w[2] = {1.5, 2.5}; // expected-error {{cannot offload loop: the constant table 'w' cannot be declared for the device where it is defined}} expected-note {{define it there, or pass the values through a local variable}}
void memberTable(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded here}}
  for (auto *p : v)
    p->x = Coeffs::w[1] * p->y;
}
