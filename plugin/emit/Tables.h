//===- Tables.h - constant tables declared for the device --------*- C++
//-*-===//
//
// The constant tables an offloaded nest's device code reads (plan/
// DeviceCode.cpp finds them, DeviceReach::Tables): each is declared for the
// device right after its definition, through the backend (CUDA: a
// `__constant__` copy while 48 KiB hold every table, `__device__` memory
// after; OpenMP: `declare target`), and every reference in the user's code
// is spelt as the backend names the copy.
// Tests: test/Offload/tables.test, tables-cuda.test, test/GPU/tables.test.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_TABLES_H
#define SOAVIEW_TABLES_H

#include "emit/EmitContext.h"

#include <cstdint>
#include <set>
#include <string>

namespace soaview {

/// Declares each table once for the device and spells each reference once
/// (templates' instantiations and nests share the text).
class TableEmitter {
public:
  /// The bytes of constant memory the copies may take, of the 64 KiB a
  /// device has (the rest is for the kernels' own constants).
  static constexpr uint64_t ConstantBudget = 48 * 1024;

  explicit TableEmitter(EmitContext &Emit) : Emit(Emit) {}

  /// Declares the tables Nest's device code reads (once each) and spells
  /// its references to them (once each).
  bool emit(const NestPlan &Nest);

private:
  bool declare(const clang::VarDecl *V);
  std::string initializerText(const clang::VarDecl *V) const;

  EmitContext &Emit;
  std::set<const clang::VarDecl *> Declared;
  /// The bytes of the tables in the device's constant memory.
  uint64_t ConstantBytes = 0;
  /// References already spelt for device code, by location.
  std::set<unsigned> SpeltRefs;
};

} // namespace soaview

#endif
