#!/usr/bin/env python3
"""Rewrite the headers of CUDA 13 cubins embedded in an OpenMP offload binary
so that LLVM 19's libomptarget recognises them (docs/offload.md).

CUDA 13's ptxas writes cubins with ELF OS/ABI 0x41, ABI version 8 and the SM
in bits 8-15 of e_flags; LLVM 19's offload runtime reads the SM from the low
byte, finds no compatible image and falls back or crashes. The older encoding
(OS/ABI 0x33, ABI version 7, e_flags = sm | 0x500 | sm << 16) loads with the
CUDA 13 driver. Cubins already in the old encoding are left alone.

  patch-cubin.py BINARY          patch in place; prints what it changed
  patch-cubin.py --check BINARY  exit 1 if a cubin still needs patching
"""
import struct
import sys

EM_CUDA = 190


def cubins(data):
    i = data.find(b"\x7fELF")
    while i >= 0:
        if len(data) >= i + 64 and data[i + 4] == 2:  # ELFCLASS64
            (machine,) = struct.unpack_from("<H", data, i + 18)
            if machine == EM_CUDA:
                yield i
        i = data.find(b"\x7fELF", i + 4)


def main():
    check = "--check" in sys.argv
    path = [a for a in sys.argv[1:] if a != "--check"][0]
    data = bytearray(open(path, "rb").read())
    changed = pending = 0
    for off in cubins(data):
        osabi, abiver = data[off + 7], data[off + 8]
        (flags,) = struct.unpack_from("<I", data, off + 48)
        if osabi != 0x41:
            print(f"{path}: cubin at {off:#x}: already old encoding (flags {flags:#x})")
            continue
        sm = (flags >> 8) & 0xFF
        new = sm | 0x500 | (sm << 16)
        pending += 1
        if check:
            continue
        data[off + 7] = 0x33
        data[off + 8] = 7
        struct.pack_into("<I", data, off + 48, new)
        changed += 1
        print(f"{path}: cubin at {off:#x}: sm_{sm}, e_flags {flags:#x} -> {new:#x}")
    if check:
        sys.exit(1 if pending else 0)
    if changed:
        open(path, "wb").write(data)
    if not changed and not pending:
        print(f"{path}: no CUDA 13 cubin to patch")


if __name__ == "__main__":
    main()
