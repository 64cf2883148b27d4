#!/bin/sh
# Proves lib/README's rules for lib's source: every rt_<name>.c has its
# rt_<name>.h and includes it, every module sits in one of lib's folders,
# and no module includes (directly or through others) one that includes it
# back; and that no source of lib or src/ includes by path (a tool reaching
# into another's folder, or lib into src/): what two tools share is in lib.
# Reads the sources only.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
python3 - "$top_srcdir/lib" "$top_srcdir/tests/helpers" >"$WORK/layout.diag" 2>&1 <<'PY' || fail "$(cat "$WORK/layout.diag")"
import glob, os, re, sys

sys.path.insert(0, sys.argv[2])
from source_layout import include_cycles

lib = sys.argv[1]
folders = {"engine", "numbers", "results", "trace", "system", "cyclic"}
errs, uses, where = [], {}, {}
for path in sorted(glob.glob(os.path.join(lib, "*", "rt_*.[ch]"))):
    folder, name = path.split(os.sep)[-2], os.path.basename(path)[:-2]
    if folder not in folders:
        errs.append("%s: not in one of %s" % (path, sorted(folders)))
    if where.setdefault(name, folder) != folder:
        errs.append("%s: module %s is in two folders" % (path, name))
    text = open(path).read()
    inc = set(re.findall(r'^#include "(rt_\w+)\.h"', text, re.M)) - {name}
    uses.setdefault(name, set()).update(inc)
    if path.endswith(".c"):
        if not os.path.exists(path[:-2] + ".h"):
            errs.append("%s: no %s.h" % (path, name))
        elif '#include "%s.h"' % name not in text:
            errs.append("%s: does not include %s.h" % (path, name))
for f in glob.glob(os.path.join(lib, "*.[ch]")):
    errs.append("%s: outside lib's folders" % f)
src = os.path.join(os.path.dirname(lib), "src")
for path in sorted(glob.glob(os.path.join(lib, "*", "*.[ch]")) +
                   glob.glob(os.path.join(src, "*", "*.[ch]"))):
    for inc in re.findall(r'^#\s*include\s+"([^"]*/[^"]*)"', open(path).read(), re.M):
        errs.append('%s: includes "%s" by path, not by name' % (path, inc))

errs += ["include cycle: " + c for c in include_cycles(uses)]
print("\n".join(errs) if errs else "%d modules, no cycle" % len(uses))
sys.exit(1 if errs else 0)
PY
cat "$WORK/layout.diag"
finish
