// The particle and the virtual functors of the functor programs
// (virtual-functors.cpp, functor-members.cpp): an AoSFunctor-like `aos`
// that is virtual and not final, overridden once more in Corrected.
#ifndef CONSTRUCTS_PAIRWISE_FUNCTORS_H
#define CONSTRUCTS_PAIRWISE_FUNCTORS_H

struct Part {
  double r[2], f[2], rho;
  int owned;
};

struct PairwiseFunctor {
  virtual ~PairwiseFunctor() = default;
  virtual void aos(Part &a, Part &b, bool newton3) = 0;
};

struct Density : PairwiseFunctor {
  double h = 0.4;
  long visits = 0;
  void aos(Part &a, Part &b, bool newton3) override {
    visits += newton3 ? 2 : 1;
    double d = a.r[0] - b.r[0], w = d * d < h * h ? h * h - d * d : 0;
    a.rho += w;
  }
};

// Derived again: a Density& may denote one of these.
struct Corrected : Density {
  void aos(Part &a, Part &b, bool newton3) override {
    Density::aos(a, b, newton3);
    a.f[1] += 0.5 * b.r[1];
  }
};

#endif
