// Known broken under annotate=all (issue #29, found on real code): soaview converts
// the loop and its generated code does not compile. XFAIL until fixed; then make
// it a test/Exec/constructs program compared bit for bit with the plain build.
// XFAIL: *
// RUN: %soaview_cc1 -fplugin-arg-soaview-annotate=all %s
// Shape: loop over a non-dependent range (std::vector<P> member) inside a member function template of a
// non-template class: the generated code names soaview_select_L_C, which soaview declares only after the class
// ("use of undeclared identifier 'soaview_select_..'"). The same happens in a member of a class template (AP::set below).
// From AutoPas: src/autopas/AutoPasDecl.h:899, :928, :957, :986 (for (auto iType : InteractionTypeOption::getMostOptions())
// in AutoPas<Particle_T>::setAllowed...; non-dependent range inside a class template); also met while reducing FullParticleCell.h:288.
#include <vector>
struct P { double x, v; int own; };
struct Cell {
  std::vector<P> ps;
  template <typename L> void forEach(L l) {
    for (P &p : ps) {
      if (p.own) l(p.x);
    }
  }
};
void run(Cell &c, double &s) {
  c.forEach([&](double x) { s += x; });
}
std::vector<P> allOpts();
template <class T> struct AP {
  int m[8];
  void set(int x) { for (auto o : allOpts()) m[o.own & 7] = x; }
};
void use(AP<int> &a) { a.set(3); }
