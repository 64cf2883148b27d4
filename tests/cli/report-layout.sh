#!/bin/sh
# test-timeout: 60
# rt-latency-report is a pipeline: the model (runs, curves, the JSON of a
# result and of a histogram) includes no module above it; the inputs
# (reading a file once, --records, the type check, the loaders) include the
# model and each other only; every other module is an output. A module is
# X.c with X.h; no module includes (directly or through others) one that
# includes it back; X.c includes X.h (function-length.sh checks the length
# of its functions, with lib's and every tool's). Reads the sources only (REPORT_LAYOUT_DIR: another tree, to see the check fail).
. "$top_srcdir/tests/cli/lib.sh"
need_python3
dir=${REPORT_LAYOUT_DIR:-$top_srcdir/src/rt-latency-report}
python3 - "$dir" "$top_srcdir/tests/helpers" >"$WORK/layout.diag" 2>&1 <<'PY' || fail "$(cat "$WORK/layout.diag")"
import glob, os, re, sys

sys.path.insert(0, sys.argv[2])
from source_layout import include_cycles

src = sys.argv[1]
model = {"result_json", "hist_json", "run", "curves"}
inputs = {"input", "records", "doccheck", "timeline", "curves_load", "load"}
layer_names = ["model", "input", "output"]
article = ["a", "an", "an"]
def layer(m):
    return 0 if m in model else 1 if m in inputs else 2

files = sorted(glob.glob(os.path.join(src, "*.[ch]")))
modules = {os.path.basename(p)[:-2] for p in files}
errs, uses = [], {}
for path in files:
    name = os.path.basename(path)[:-2]
    text = open(path).read()
    inc = set(re.findall(r'^#include "(\w+)\.h"', text, re.M)) & modules - {name}
    uses.setdefault(name, set()).update(inc)
    for m in sorted(inc):
        if layer(m) > layer(name):
            errs.append("%s: includes %s.h: %s %s module includes no %s module" %
                        (path, m, article[layer(name)], layer_names[layer(name)],
                         layer_names[layer(m)]))
    if not path.endswith(".c"):
        continue
    if os.path.exists(path[:-2] + ".h") and '#include "%s.h"' % name not in text:
        errs.append("%s: does not include %s.h" % (path, name))

errs += ["include cycle: " + c for c in include_cycles(uses)]
print("\n".join(errs) if errs else "%d modules, no cycle" % len(uses))
sys.exit(1 if errs else 0)
PY
cat "$WORK/layout.diag"
finish
