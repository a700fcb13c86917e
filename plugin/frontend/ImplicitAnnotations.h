//===- ImplicitAnnotations.h - every loop over structs, annotated -*- C++
//-*-===//
//
// -fplugin-arg-soaview-annotate=all (soaview-translate --annotate=all): every
// loop in the user's code over structs is treated as annotated with
// [[clang::soa_conversion("always")]]: a range-for over a container of
// structs or of pointers to structs, an iterator loop whose body
// dereferences its iterator to one, and an index loop whose body subscripts
// exactly one array of structs with its index (that array becomes its
// soa_conversion_target). A check of breadth, not of speed: a
// loop that cannot convert keeps its code and gets a remark saying why
// (driver/Driver.cpp). Tests: test/Rewrite/annotate-all.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_IMPLICITANNOTATIONS_H
#define SOAVIEW_IMPLICITANNOTATIONS_H

namespace clang {
class ASTContext;
}

namespace soaview {
class AnnotationCollector;

/// Adds an implicit annotation to C for every loop of the user's code (not
/// in a system header, not written in a macro) over structs, as above, in
/// some function or instantiation, that carries no attribute of its own.
void annotateEveryLoop(clang::ASTContext &Ctx, AnnotationCollector &C);

/// Adds soa_conversion_target to every index loop annotated soa_conversion
/// without one whose body subscripts exactly one array of structs with its
/// index (`ps[i]`, `ps[i - 1]`, `ps[list[k]]`; `T *`, `T[N]`,
/// `std::vector<T>`), as annotate=all infers it (AttrUse::Inferred). Other
/// index loops keep asking for the attribute.
void inferIndexTargets(clang::ASTContext &Ctx, AnnotationCollector &C);

} // namespace soaview

#endif
