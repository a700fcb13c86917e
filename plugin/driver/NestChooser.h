//===- NestChooser.h - which nests convert ----------------------*- C++ -*-===//
//
// The first pass's decision for each nest (docs/design.md): the
// profitability rule; sweeps (offloaded, swept on the host in a view region,
// or converted cell by cell); annotate=all (driver/EveryLoop); the survey of
// template instantiations before anything converts (driver/Instances).
// Each nest goes through the stages (driver/NestPipeline); what becomes of
// it comes back as a value (NestChoice) for the first pass to emit
// (driver/PassEmitter).
// Tests: test/Rewrite/*, test/Sema/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_NESTCHOOSER_H
#define SOAVIEW_NESTCHOOSER_H

#include "driver/Instances.h"
#include "driver/NestPipeline.h"
#include "driver/Options.h"
#include "driver/PassRequest.h"

#include <optional>
#include <set>
#include <vector>

namespace soaview {
struct RegionPlan;

/// What becomes of one nest.
struct NestChoice {
  /// Converts: its plan, placed among its template's instantiations.
  std::optional<NestPlan> Convert;
  /// Left as written by the profitability rule: its report rows.
  std::vector<ReportRow> LeftRows;
  /// Left as written where a view region reaches it: the loop that gets the
  /// region's views written back before it.
  std::optional<LoopInstance> SyncRegionAt;
};

class NestChooser {
public:
  /// Regions: the translation unit's view regions (the nests they reach).
  NestChooser(const PassRequest &Request,
              const std::vector<RegionPlan> &Regions, DiagStore &Diags);

  /// Before any nest is chosen: the loops whose instantiations with the
  /// same element types use different fields.
  void survey(const std::vector<std::vector<LoopInstance>> &Nests);
  /// One nest, or a sweep over cells whose body holds a nest.
  NestChoice choose(const std::vector<LoopInstance> &N);
  /// annotate=all: the plans of every nest that can convert; the others
  /// keep their code, with a remark (driver/EveryLoop).
  std::vector<NestPlan>
  everyLoop(const std::vector<std::vector<LoopInstance>> &Nests);

private:
  NestChoice sweepOnHost(const std::vector<LoopInstance> &N);
  NestChoice nest(const std::vector<LoopInstance> &N,
                  std::optional<SweepForm> Sweep);
  /// Converts Nest when it can share its loop's text with the
  /// instantiations placed before.
  NestChoice placed(NestPlan Nest);
  /// N through the stages (NestPipeline), in a view region or not.
  std::optional<NestPlan> plan(const std::vector<LoopInstance> &N,
                               std::optional<SweepForm> Sweep,
                               DiagStore &D) const;
  /// A region reaches the nest: its sweeps may hold views there.
  bool inRegion(const std::vector<LoopInstance> &N) const;

  const PassRequest &Request;
  DiagStore &Diags;
  const NestPipeline Pipeline;
  TemplateInstances Instances;
  /// The `for` locations of the annotated loops regions reach.
  std::set<unsigned> RegionLoops;
};

} // namespace soaview

#endif
