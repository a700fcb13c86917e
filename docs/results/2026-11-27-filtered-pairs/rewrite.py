# The experiment of docs/benchmarks.md, "Filtering the neighbours before the
# pair body": rewrites the branching pair loops of the translated SPH kernels
# (soaview-translate --backend=cuda). lazy: the neighbour's view is built only
# where the test passes; queue: a queue per thread of the neighbours that pass,
# run by the warp together (SV_QN entries), then the unchanged pair body.
# usage: rewrite.py IN.cu OUT.cu lazy|queue
import re, sys
src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
t = open(src).read()
pat = re.compile(
 r"for \(::soaview::run_cursor (\w+)\((\w+), (\w+)\); \1\.more\(\); \1\.next\(\)\) \{ auto (\w+) = (\w+)::at\((\w+), \1\.index\(\)\); const auto \*pj = &\4;\n"
 r"(\s*)const double dx = pi->x\[0\] - pj->x\[0\], dy = pi->x\[1\] - pj->x\[1\];\n"
 r"\s*const double r2 = dx \* dx \+ dy \* dy;\n"
 r"\s*if \((.*)\)\n"
 r"\s*(\w+\(pi, pj, dx, dy, r2, 1\.0\));\n"
 r"(\s*)\}")
n = 0
def rep(m):
    global n; n += 1
    K, IDX, CELL, V, SPEC, BUF, ind, cond, call, close = m.groups()
    fc = cond.replace("pj->h", f"{BUF}.h[sv_j]")
    pre = (f"const double dx = pi->x[0] - {BUF}.x[0][sv_j], dy = pi->x[1] - {BUF}.x[1][sv_j]; "
           f"const double r2 = dx * dx + dy * dy;")
    body = f"auto {V} = {SPEC}::at({BUF}, sv_j); const auto *pj = &{V}; {call};"
    if mode == "lazy":
        return (f"for (::soaview::run_cursor {K}({IDX}, {CELL}); {K}.more(); {K}.next()) {{ const std::size_t sv_j = {K}.index();\n"
                f"{ind}{pre}\n{ind}if ({fc}) {{ {body} }}\n{close}}}")
    return (f"{{ unsigned sv_q[SV_QN]; int sv_n = 0;\n"
            f"{ind}for (::soaview::run_cursor {K}({IDX}, {CELL}); {K}.more(); {K}.next()) {{ const std::size_t sv_j = {K}.index();\n"
            f"{ind}  {pre}\n{ind}  if ({fc}) sv_q[sv_n++] = (unsigned)sv_j;\n"
            f"{ind}  if (__any_sync(__activemask(), sv_n == SV_QN)) {{ for (int sv_t = 0; sv_t < sv_n; ++sv_t) {{ const std::size_t sv_j = sv_q[sv_t]; {pre} {body} }} sv_n = 0; }}\n"
            f"{ind}}}\n{ind}for (int sv_t = 0; sv_t < sv_n; ++sv_t) {{ const std::size_t sv_j = sv_q[sv_t]; {pre} {body} }}\n{close}}}")
t = pat.sub(rep, t)
print(mode, "patched", n, file=sys.stderr)
open(dst, "w").write(t)
