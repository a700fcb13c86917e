// Known broken under annotate=all (issue #29, found on real code): soaview converts
// the loop and its generated code does not compile. XFAIL until fixed; then make
// it a test/Exec/constructs program compared bit for bit with the plain build.
// XFAIL: *
// RUN: %soaview_cc1 -fplugin-arg-soaview-annotate=all %s
// Shape: the element type is a private nested class of a class template, the loop is in a member function of
// that template; the generated code names the nested class from outside ("'Data' is a private member of 'lib::Functor<..>'"
// / "no matching function for call to 'soaview_select_..'"). From AutoPas:
// applicationLibrary/molecularDynamics/molecularDynamicsLibrary/LJFunctor.h:646 and :669
// (for (auto &data : _aosThreadDataGlobals) data.setZero(); / accumulate in endTraversal), via tests/multiSiteTests/LJMultisiteFunctorTest.cpp.
#include <vector>
namespace lib {
template <class T> class Functor {
 public:
  void init() {
    for (auto &d : _data) d.setZero();
  }
  double end() {
    double s = 0;
    for (const auto &d : _data) s += d.e;
    return s;
  }
 private:
  class Data {
   public:
    void setZero() { e = 0; v = 0; }
    double e, v;
  };
  std::vector<Data> _data{4};
};
}  // namespace lib
double use(lib::Functor<int> &f) { f.init(); return f.end(); }
