// Library templates with annotated loops, included before the element type
// (test/Rewrite/explicit-instantiation-only.cpp).
#include <vector>
namespace lib {
template <class P> struct Cluster {
  P *first = nullptr;
  std::vector<Cluster *> *neighbours = nullptr;
};
template <class P> struct Lists {
  std::vector<Cluster<P>> clusters;
  unsigned long load() {
    unsigned long sum = 0;
    [[clang::soa_conversion("always")]]
    for (auto &c : clusters)
      if (c.neighbours)
        sum += c.neighbours->size();
    return sum;
  }
};
template <class P> struct Container {
  Lists<P> lists;
  bool compute(int k) { return lists.load() > (unsigned long)k; }
};
} // namespace lib
