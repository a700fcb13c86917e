#!/usr/bin/env python3
"""A deliberately wrong "soaview" for testing soaview-fuzz itself: it turns
every '* 0.5 +' into '* 0.25 +' and compiles with the suite's plain clang++ (SOAVIEW_TEST_CLANGXX)."""
import os, subprocess, sys
args = []
for a in sys.argv[1:]:
    if a.startswith("-fplugin-arg-"):
        continue
    if a.endswith(".cpp"):
        src = open(a).read().replace("* 0.5 +", "* 0.25 +")
        a = a + ".bad.cpp"
        open(a, "w").write(src)
    args.append(a)
sys.exit(subprocess.call([os.environ.get("SOAVIEW_TEST_CLANGXX", "clang++-19"), "-Wno-unknown-attributes"] + args))
