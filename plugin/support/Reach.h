//===- Reach.h - the one walk into the functions code runs -------*- C++
//-*-===//
//
// Five stages follow code into the bodies of the functions it runs (calls,
// constructions, destructions): the analysis (element uses through callees),
// device code (what a kernel compiles), heap routing (what allocates), the
// container checks (what may change a list) and the region stage (what a
// region runs). They judge different things, and each reads a body with its
// own visitor, but they reach functions the same way, with this header:
//
//  - runsAt: the functions one statement runs besides its children's (a
//    call's callee, a construction's constructor, the destructors of what
//    ends there), under a RunRule that says which destructors count;
//  - destructorsOf: the destructors an object of a type runs;
//  - definitionCode: the code a definition runs (a constructor's
//    initialisers, then the body), partsDestroyed: the destructors a
//    destructor runs after its body;
//  - ReachedFunctions: which bodies are read, once per key, and when.
//
// The order is output (the first offender is the one reported; tables and
// callees are written in the order found), so each walker names its order:
// `now` (depth first, inside the caller's reading), `afterBody` (depth first,
// once the caller's body is read) or `later` (breadth first).
// docs/design.md, "Reached functions", has each walker's rule.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REACH_H
#define SOAVIEW_REACH_H

#include "clang/AST/Type.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <deque>
#include <functional>
#include <set>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class CXXDestructorDecl;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace soaview {

/// How a statement runs a function.
enum class RunKind { Call, Construct, Destroy, NamedLambda };

/// A function one statement runs.
struct Run {
  const clang::FunctionDecl *FD; ///< null: an indirect call
  const clang::Stmt *Site;       ///< the call, construction, delete, ...
  RunKind Kind;
  /// A local variable whose destructor this is (Site is its declaration).
  const clang::VarDecl *Var = nullptr;
};

/// Which destructors an object of a class type runs, as a walker counts them.
enum class DestructorRule {
  /// Its class's, if not trivial.
  Own,
  /// Its class's, then its bases' and its fields', each class once.
  WithParts,
  /// Its class's, if not trivial and not the library's; for a class of the
  /// library (a container), those of the classes it holds (its type
  /// arguments).
  UserClasses,
};

/// Which functions a statement runs besides the calls it writes.
struct RunRule {
  DestructorRule Destructors = DestructorRule::Own;
  /// A construction also runs the destructor of what it builds.
  bool ConstructedDestroyed = true;
  /// A bound temporary runs its destructor (where the full-expression ends).
  bool TemporariesDestroyed = false;
  /// A declaration of local variables runs their destructors.
  bool LocalsDestroyed = false;
  /// A lambda named by a variable may be called where it is handed: its
  /// call operators (each specialisation of a generic one).
  bool NamedLambdas = false;
};

/// Calls Each for every function S itself runs (not its children), in the
/// order a statement runs them: a constructor before the destructor.
void runsAt(const clang::ASTContext &Ctx, const clang::Stmt *S,
            const RunRule &Rule, llvm::function_ref<void(const Run &)> Each);

/// Calls Each for every destructor an object of type T (or each element of
/// an array of T) runs, under Rule.
void destructorsOf(
    const clang::ASTContext &Ctx, clang::QualType T, DestructorRule Rule,
    llvm::function_ref<void(const clang::CXXDestructorDecl *)> Each);

/// Calls Each for the code definition Def runs: a constructor's member and
/// base initialisers (a member's default initialiser where it is used),
/// then the body.
void definitionCode(const clang::FunctionDecl *Def,
                    llvm::function_ref<void(const clang::Stmt *)> Each);

/// Calls Each for the destructors a destructor runs after its body: its
/// fields' (under Rule), then its bases'.
void partsDestroyed(
    const clang::ASTContext &Ctx, const clang::CXXDestructorDecl *Dt,
    DestructorRule Rule,
    llvm::function_ref<void(const clang::CXXDestructorDecl *)> Each);

/// Which function bodies a walk reads, each once per Key, and when. The
/// walker reads each Item (a body, and what it needs to judge it) with
/// Read, and hands back the functions it meets there.
template <class Key, class Item> class ReachedFunctions {
public:
  using Reader = std::function<void(const Item &)>;
  explicit ReachedFunctions(Reader Read) : Read(std::move(Read)) {}

  /// Reads Root, then what it reached, until nothing is left or stop().
  void run(const Item &Root) {
    read(Root);
    while (!Queue.empty() && !Stopped) {
      Item Next = std::move(Queue.front());
      Queue.pop_front();
      read(Next);
    }
  }
  /// Reads I now (inside the caller's reading) unless K was reached before;
  /// false then.
  bool now(const Key &K, const Item &I) {
    if (!Seen.insert(K).second)
      return false;
    read(I);
    return true;
  }
  /// Reads I once the body being read is done, unless K is reached by then.
  void afterBody(Key K, Item I) {
    Pending.back().emplace_back(std::move(K), std::move(I));
  }
  /// Reads I after everything reached before it (breadth first) unless K
  /// was reached before; false then.
  bool later(const Key &K, Item I) {
    if (!Seen.insert(K).second)
      return false;
    Queue.push_back(std::move(I));
    return true;
  }
  /// Reads nothing more that is queued.
  void stop() { Stopped = true; }

private:
  void read(const Item &I) {
    Pending.emplace_back();
    Read(I);
    std::vector<std::pair<Key, Item>> After = std::move(Pending.back());
    Pending.pop_back();
    for (const auto &[K, Next] : After)
      now(K, Next);
  }

  Reader Read;
  std::set<Key> Seen;
  std::vector<std::vector<std::pair<Key, Item>>> Pending;
  std::deque<Item> Queue;
  bool Stopped = false;
};

} // namespace soaview

#endif
