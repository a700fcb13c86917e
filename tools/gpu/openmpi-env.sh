# Sourced with the directory where the tree of tools/gpu/pack-openmpi.sh was
# unpacked (its openmpi/): points Open MPI and PMIx at it instead of the
# paths Debian compiled in (/usr/bin, /usr/lib/x86_64-linux-gnu/openmpi,
# /usr/share/openmpi, /etc/openmpi, .../pmix2, .../hwloc), and puts its mpirun and
# libraries first.
#   . tools/gpu/openmpi-env.sh /tmp/soaview-openmpi/openmpi
d="${1:?usage: . openmpi-env.sh DIR}"
export OPAL_PREFIX="$d" OPAL_EXEC_PREFIX="$d" OPAL_BINDIR="$d/bin" \
  OPAL_LIBDIR="$d/lib" OPAL_PKGLIBDIR="$d/lib/openmpi3" \
  OPAL_DATAROOTDIR="$d/share" OPAL_DATADIR="$d/share" \
  OPAL_PKGDATADIR="$d/share/openmpi" OPAL_SYSCONFDIR="$d/etc"
export PMIX_INSTALL_PREFIX="$d" PMIX_EXEC_PREFIX="$d" PMIX_BINDIR="$d/bin" \
  PMIX_LIBDIR="$d/lib" PMIX_PKGLIBDIR="$d/lib/pmix" \
  PMIX_DATAROOTDIR="$d/share" PMIX_DATADIR="$d/share" \
  PMIX_PKGDATADIR="$d/share/pmix" PMIX_SYSCONFDIR="$d/etc" \
  PMIX_MCA_mca_base_component_path="$d/lib/pmix"
# hwloc's plugins (Open MPI's topology) from the tree too.
export HWLOC_PLUGINS_PATH="$d/lib/hwloc"
export PATH="$d/bin:$PATH"
export LD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
