//===- options.cpp - the table of the runtime's environment variables ---===//
//
// The one place the runtime reads its environment (options.h).
//===----------------------------------------------------------------------===//
#include "options.h"

#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace soaview::rt {
namespace {

struct entry {
  option o;
  const char *name;
};
constexpr entry kTable[] = {
    {option::stats, "SOAVIEW_STATS"},
    {option::trials, "SOAVIEW_TRIALS"},
    {option::max_bytes, "SOAVIEW_MAX_BYTES"},
    {option::no_pool, "SOAVIEW_NO_POOL"},
    {option::overlap, "SOAVIEW_OVERLAP"},
    {option::device, "SOAVIEW_DEVICE"},
    {option::device_heap, "SOAVIEW_DEVICE_HEAP"},
    {option::kept_lists, "SOAVIEW_KEPT_LISTS"},
};

constexpr bool in_order() {
  for (unsigned i = 0; i < sizeof kTable / sizeof *kTable; ++i)
    if (static_cast<unsigned>(kTable[i].o) != i)
      return false;
  return true;
}
static_assert(in_order(), "kTable lists the options in their order");

const char *nonempty(const char *v) noexcept { return v && *v ? v : nullptr; }

} // namespace

const char *option_name(option o) noexcept {
  return kTable[static_cast<unsigned>(o)].name;
}

const char *option_text(option o) noexcept {
  return nonempty(std::getenv(option_name(o)));
}

std::size_t option_number(option o) noexcept {
  const char *v = option_text(o);
  return v ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) : 0;
}

bool option_switch(option o, bool unset) noexcept {
  const char *v = option_text(o);
  return v ? std::strcmp(v, "0") != 0 : unset;
}

long launcher_local_rank() noexcept {
  for (const char *name :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char *v = nonempty(std::getenv(name)))
      return std::strtol(v, nullptr, 10);
  return -1;
}

} // namespace soaview::rt
