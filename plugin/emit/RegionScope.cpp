//===- RegionScope.cpp - the scope of a view region -----------------------===//
#include "emit/RegionScope.h"

#include "emit/CodeWriter.h"
#include "emit/EmitContext.h"
#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"
#include "regions/Regions.h"

using namespace clang;

namespace soaview {

bool emitRegion(EmitContext &Emit, const RegionPlan &Region) {
  const RegionAnnotation &Annotation = *Region.Annotation;
  EditBuffer *Buffer = Emit.Files.bufferFor(Annotation.Written.getBegin());
  if (!Buffer)
    return false;
  std::string Prefix = Emit.Names.prefix(Annotation.Loc) + "region";
  std::string Open = fill(
      "{ static ${Site} ${P}_site(\"${Where}\"); ${Region} "
      "${P}(${P}_site${Kept}); "
      "/* soaview: view region, ${N} annotated loop(s) share their views */",
      {{"Site", rt::Site},
       {"P", Prefix},
       {"Where", Emit.Source.where(Annotation.Loc)},
       {"Region", rt::Region},
       {"Kept", Region.ListsMayChange.isValid()
                    ? std::string()
                    : std::string(", ") + rt::RegionListsKept},
       {"N", std::to_string(Region.Loops.size())}});
  Buffer->replace(Emit.Source.offset(Annotation.Written.getBegin()),
                  Emit.Source.offset(Annotation.Written.getEnd()) + 1, Open);
  Buffer->insert(Emit.Source.offset(Emit.Source.afterStmt(Annotation.S)), " }");
  return true;
}

bool emitRegionSync(EmitContext &Emit, const Stmt *Loop,
                    const LoopAnnotation &Annotation) {
  SourceLocation Begin =
      Emit.SM.getFileLoc(Annotation.Implicit ? Loop->getBeginLoc()
                                             : Annotation.Written.getBegin());
  EditBuffer *Buffer = Emit.Files.bufferFor(Begin);
  if (!Buffer)
    return false;
  Buffer->insert(Emit.Source.offset(Begin),
                 std::string("{ ") + rt::RegionSync +
                     "(); /* soaview: the loop runs as written: a view "
                     "region's views, written back first */ ");
  Buffer->insert(Emit.Source.offset(Emit.Source.afterStmt(Loop)), " }");
  return true;
}

} // namespace soaview
