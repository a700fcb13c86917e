#!/usr/bin/env python3
"""swift-step build helper (our code) for the CUDA build: writes OUT = step.cpp
with the line `// @swift-step: kernel_hydro.h` replaced by SWIFT's
kernel_hydro.h, unchanged (with #line directives, so diagnostics still name
the header). soaview-translate rewrites only its main file, and its CUDA
backend declares constant tables for the device only where they are defined
in that file (SWIFT's `static const float kernel_coeffs[]`).
usage: paste_kernel.py STEP_CPP KERNEL_HYDRO_H OUT"""
import os, sys
step, kern, out = sys.argv[1:4]
step, kern = os.path.abspath(step), os.path.abspath(kern)
res = []
for n, line in enumerate(open(step).read().splitlines(), 1):
    if line.strip() == '// @swift-step: kernel_hydro.h':
        res.append('#line 1 "%s"' % kern)
        res.extend(open(kern).read().splitlines())
        res.append('#line %d "%s"' % (n + 1, step))
    else:
        res.append(line)
open(out, 'w').write('\n'.join(res) + '\n')
