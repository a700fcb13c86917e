// Every converted translation unit parses soaview/soaview.h, so it keeps
// to the cheap standard headers: <iterator>, <memory> and the containers
// alone would cost more to parse than the rest of the runtime (compile
// time, docs/benchmarks.md).
// RUN: %soaview_cc1 -H %s 2>&1 | FileCheck %s
#include <soaview/soaview.h>
// CHECK-NOT: {{/(iterator|memory|string|stdexcept|mutex|map|vector|optional|functional|istream|ostream|streambuf|algorithm)$}}
// CHECK: soaview/frame.h
// CHECK-NOT: {{/(iterator|memory|string|stdexcept|mutex|map|vector|optional|functional|istream|ostream|streambuf|algorithm)$}}
