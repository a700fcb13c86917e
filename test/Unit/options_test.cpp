// The runtime's table of environment variables (runtime/src/options.h):
// each option's name, and how a value is read as text, a number and a
// switch (unset and empty alike).
#include "check.h"

#include "options.h"

#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {
using soaview::rt::option;
namespace rt = soaview::rt;

void testNames() {
  CHECK(!std::strcmp(rt::option_name(option::stats), "SOAVIEW_STATS"));
  CHECK(!std::strcmp(rt::option_name(option::trials), "SOAVIEW_TRIALS"));
  CHECK(!std::strcmp(rt::option_name(option::max_bytes), "SOAVIEW_MAX_BYTES"));
  CHECK(!std::strcmp(rt::option_name(option::no_pool), "SOAVIEW_NO_POOL"));
  CHECK(!std::strcmp(rt::option_name(option::overlap), "SOAVIEW_OVERLAP"));
  CHECK(!std::strcmp(rt::option_name(option::device), "SOAVIEW_DEVICE"));
  CHECK(!std::strcmp(rt::option_name(option::device_heap),
                     "SOAVIEW_DEVICE_HEAP"));
  CHECK(
      !std::strcmp(rt::option_name(option::kept_lists), "SOAVIEW_KEPT_LISTS"));
}

void testValues() {
  ::unsetenv("SOAVIEW_MAX_BYTES");
  CHECK(rt::option_text(option::max_bytes) == nullptr);
  CHECK(rt::option_number(option::max_bytes) == 0);
  ::setenv("SOAVIEW_MAX_BYTES", "", 1);
  CHECK(rt::option_text(option::max_bytes) == nullptr); // empty: unset
  ::setenv("SOAVIEW_MAX_BYTES", "4096", 1);
  CHECK(!std::strcmp(rt::option_text(option::max_bytes), "4096"));
  CHECK(rt::option_number(option::max_bytes) == 4096);
  ::setenv("SOAVIEW_MAX_BYTES", "many", 1);
  CHECK(rt::option_number(option::max_bytes) == 0);
}

void testSwitches() {
  ::unsetenv("SOAVIEW_OVERLAP");
  CHECK(rt::option_switch(option::overlap, true));
  CHECK(!rt::option_switch(option::overlap, false));
  ::setenv("SOAVIEW_OVERLAP", "", 1);
  CHECK(rt::option_switch(option::overlap, true));
  ::setenv("SOAVIEW_OVERLAP", "0", 1);
  CHECK(!rt::option_switch(option::overlap, true));
  ::setenv("SOAVIEW_OVERLAP", "1", 1);
  CHECK(rt::option_switch(option::overlap, false));
}

void testLauncherRank() {
  for (const char *v :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    ::unsetenv(v);
  CHECK(rt::launcher_local_rank() == -1);
  ::setenv("SLURM_LOCALID", "3", 1);
  CHECK(rt::launcher_local_rank() == 3);
  ::setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1); // Open MPI's first
  CHECK(rt::launcher_local_rank() == 1);
}

} // namespace

int main() {
  testNames();
  testValues();
  testSwitches();
  testLauncherRank();
  return checksDone("options_test");
}
