// A system header (found through -isystem) holding an annotated loop.
#include <vector>
struct SysP { double x; };
inline void sysLoop(std::vector<SysP *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v)
    p->x += 1;
}
