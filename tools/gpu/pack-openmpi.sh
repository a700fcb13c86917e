#!/usr/bin/env bash
# Packs Debian's Open MPI runtime into a relocatable tree for the GPU node,
# which has no MPI (build-gpu.sh puts it into the bundle): mpirun (orterun),
# orted, libmpi and every library that it, its plugins and PMIx need beyond
# glibc and libstdc++, the plugins of Open MPI and PMIx, their help files and
# parameter files. Nothing in it names /usr: tools/gpu/openmpi-env.sh DIR
# points Open MPI (OPAL_PREFIX, OPAL_LIBDIR, ...) and PMIx at the unpacked
# tree, wherever it lies.
#   tools/gpu/pack-openmpi.sh OUT.tar.xz    (a tar of openmpi/)
set -euo pipefail
out="${1:?usage: pack-openmpi.sh OUT.tar.xz}"
multi=/usr/lib/x86_64-linux-gnu
plugins="$multi/openmpi/lib/openmpi3" pmix="$multi/pmix2"
[ -x /usr/bin/orterun ] && [ -d "$plugins" ] || {
  echo "pack-openmpi: Debian's Open MPI 4 is not installed (tools/setup.sh)" >&2
  exit 1
}
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
d="$stage/openmpi"
mkdir -p "$d/bin" "$d/lib/openmpi3" "$d/lib/pmix" "$d/lib/hwloc" "$d/share" "$d/etc"
cp /usr/bin/orterun /usr/bin/orted "$d/bin/"
ln -s orterun "$d/bin/mpirun"
cp "$plugins"/*.so "$d/lib/openmpi3/"
cp "$pmix"/lib/pmix/*.so "$d/lib/pmix/"
# hwloc's PCI plugin (devices in the topology); its GL, OpenCL and libxml
# plugins would bring their libraries along, and hwloc runs without them.
cp "$multi/hwloc/hwloc_pci.so" "$d/lib/hwloc/"
cp -r /usr/share/openmpi "$d/share/openmpi"
cp -r "$pmix/share/pmix" "$d/share/pmix"
# Debian's parameters (no UCX, libfabric or verbs: one node, shared memory
# between ranks); PMIx's name its plugin directory under /usr, which
# openmpi-env.sh sets instead.
cp /etc/openmpi/openmpi-mca-params.conf /etc/openmpi/openmpi-default-hostfile "$d/etc/"
# The node is one host and need not have ssh, which the default launcher
# (rsh) asks for even for local ranks: the isolated launcher starts them
# itself.
printf '\n# soaview GPU bundle: ranks on this host only, no ssh\nplm = isolated\n' \
  >> "$d/etc/openmpi-mca-params.conf"
grep -v '^mca_base_component_path' "$pmix/share/pmix-mca-params.conf" > "$d/etc/pmix-mca-params.conf"
# The libraries, each under its soname (ldd lists what each needs,
# transitively); glibc and the C++ runtime are the node's own.
libs=$(ldd "$d"/bin/orterun "$d"/bin/orted "$multi/libmpi.so.40" \
  "$d"/lib/openmpi3/*.so "$d"/lib/pmix/*.so "$d"/lib/hwloc/*.so | awk '$3 ~ /^\// {print $3}' | sort -u)
for l in $multi/libmpi.so.40 $libs; do
  case "$(basename "$l")" in
    libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) ;;
    *) cp -L "$l" "$d/lib/" ;;
  esac
done
tar -C "$stage" -cf - openmpi | xz -T2 -6 > "$out"
echo "pack-openmpi: $(find "$d/lib" -maxdepth 1 -name '*.so*' | wc -l) libraries," \
  "$(find "$d/lib/openmpi3" -name '*.so' | wc -l) plugins, $(du -h "$out" | cut -f1) in $out"
