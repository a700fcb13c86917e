// soaview-translate's output carries no soaview attribute: those of loops
// left as written (the profitability rule, --convert=never) become comments
// of the same length, as those of converted loops, so that g++ (which warns
// about every unknown attribute) builds it with -Wall -Werror (issue #51,
// item 8).
// RUN: %soaview-translate --convert=profitable %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s < %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -isystem %S/../../runtime/include %t.cpp
// Nothing converted at all: the file as written, the attributes as comments.
// RUN: %soaview-translate --convert=never %s -o %t.never.cpp -- -std=c++17
// RUN: FileCheck %s --check-prefix=NEVER < %t.never.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only %t.never.cpp
#include <vector>
struct P { double x, y; };
void drift(std::vector<P *> &ps) {
  [[clang::soa_conversion]]
  for (P *p : ps)
    p->x += p->y;
}
void kick(std::vector<P *> &ps) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps)
    p->y += p->x;
}
// CHECK: #include <soaview/soaview.h>
// CHECK-LABEL: void drift(
// CHECK-NEXT: /*clang::soa_conversion*/
// CHECK-NEXT: for (P *p : ps)
// CHECK-LABEL: void kick(
// CHECK-NEXT: /*clang::soa_conversion("always")*/
// CHECK-NOT: {{\[\[}}clang::soa
// NEVER-NOT: soaview.h
// NEVER: /*clang::soa_conversion*/
// NEVER: /*clang::soa_conversion("always")*/
// NEVER-NOT: {{\[\[}}clang::soa
