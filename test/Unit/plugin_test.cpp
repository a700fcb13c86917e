// Unit tests of the plugin's machinery (ctest plugin.machinery): the edit
// buffer's offset mapping and #line directives, fresh names, the rendering
// of namespace-scope chunks, and the code writer's fragments and layout.
#include "check.h"

#include "emit/Chunks.h"
#include "emit/CodeWriter.h"
#include "emit/Names.h"
#include "support/EditBuffer.h"

#include <string>

using namespace soaview;

static void editBufferOffsets() {
  //                         0123456789012
  EditBuffer B("f.cpp", "int a;\nint b;\n");
  CHECK(B.insert(0, "X"));         // before 'int a'
  CHECK(B.replace(4, 5, "alpha")); // a -> alpha
  CHECK(!B.replace(4, 6, "z"));    // overlaps the replacement
  CHECK(B.conflicts() == 1);
  CHECK(B.result() == "Xint alpha;\nint b;\n");
  CHECK(B.mapOffset(0) == 1);  // 'i' moved by the insertion
  CHECK(B.mapOffset(4) == 5);  // inside the replaced range: its start
  CHECK(B.mapOffset(7) == 12); // 'i' of 'int b'
  bool Generated = false;
  CHECK(B.originalOffset(0, Generated) == 0 && Generated);
  CHECK(B.originalOffset(12, Generated) == 7 && !Generated);
  CHECK(B.lineCol(7) == std::make_pair(2u, 1u));
}

static void editBufferOrderAndLines() {
  EditBuffer B("dir/f.cpp", "x;\ny;\n");
  // Same offset: priority first, then the order they were added.
  B.insert(3, "b", 1);
  B.insert(3, "a", 0);
  B.insert(3, "c", 1);
  // A replacement spanning lines is followed by #line back to the user's
  // position (line 2, column 2: after 'y').
  B.replace(4, 4, "/*\n*/");
  CHECK(B.result() == "x;\nabcy/*\n*/\n#line 2 \"dir/f.cpp\"\n ;\n");
}

static void freshNames() {
  FreshNames Names({"sv3_5_frame", "P_3_5", "P_3_5x", "other"});
  CHECK(Names.fresh("sv3_5") == "sv3_5x"); // an identifier starts with it
  CHECK(Names.fresh("sv4_1") == "sv4_1");
  CHECK(Names.fresh("P_3_5") == "P_3_5xx");
  CHECK(Names.fresh("oth") == "othx");
  CHECK(sanitize("ns::Part<int, 3>") == "ns_Part_int_3");
}

static void chunkRendering() {
  int A = 0, B = 0; // two scopes, told apart by identity
  Scope Ns{&A, {"namespace ns {"}}, NsAgain{&B, {"namespace ns {"}};
  Scope Global{nullptr, {}};
  Chunks C;
  C.add(Ns, "struct V1;\n");
  C.add(Ns, "struct V2;\n"); // same scope: one block
  C.add(NsAgain, "void f();\n");
  C.add(Global, "int g;\n");
  CHECK(C.render({"namespace user {", "inline namespace v1 {"}) ==
        "} } // soaview: leave the namespace to emit views\n"
        "namespace ns { \nstruct V1;\nstruct V2;\n} \n"
        "namespace ns { \nvoid f();\n} \n"
        "int g;\n"
        "namespace user { inline namespace v1 { ");
  CHECK(Chunks().render({"namespace n {"}).empty());
}

static void codeWriter() {
  CHECK(fill("auto &&${P}range = ${Range};",
             {{"P", "sv1_2_"}, {"Range", "ps"}}) == "auto &&sv1_2_range = ps;");
  CHECK(fill("no holes", {}) == "no holes");
  CodeWriter W;
  W.block(
      "struct V",
      [](CodeWriter &S) {
        S.line("double x;");
        S.constructor("V(const S &s)", {"x(s.x)", "y(s.y)"},
                      [](CodeWriter &Ctor) { Ctor.line("(void)s;"); });
        S.block("static int f()", [](CodeWriter &F) {
          F.spread("return 0", {"a", "b"}, "+ ", ";");
        });
        S.directive("#pragma once");
      },
      ";");
  CHECK(W.str() == "struct V {\n"
                   "  double x;\n"
                   "  V(const S &s)\n"
                   "      : x(s.x),\n"
                   "        y(s.y) {\n"
                   "    (void)s;\n"
                   "  }\n"
                   "  static int f() {\n"
                   "    return 0\n"
                   "      + a\n"
                   "      + b;\n"
                   "  }\n"
                   "#pragma once\n"
                   "};\n");
}

int main() {
  editBufferOffsets();
  editBufferOrderAndLines();
  freshNames();
  chunkRendering();
  codeWriter();
  return checksDone("plugin machinery");
}
