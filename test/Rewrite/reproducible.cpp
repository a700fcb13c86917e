// Two compiles give byte-identical output (no addresses or counters in
// generated names).
// RUN: %soaview_dump %s > %t.1
// RUN: %soaview_dump %s > %t.2
// RUN: diff %t.1 %t.2
// RUN: grep -c "struct Q_11_3" %t.1
#include <list>
struct Q { double a, b; };
void f(std::list<Q *> &l) {
  [[clang::soa_conversion]]
  for (Q *q : l)
    q->a = q->b;
}
