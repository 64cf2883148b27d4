#!/bin/sh
# test-timeout: 60
# The house's rule for lib and src: no function is over 80 lines (its
# signature to the "}" at column 0) unless the comment right above it says
# why it must be "one piece". Reads the sources only; FUNCTION_LENGTH_DIR
# names another tree (to see the check fail).
. "$top_srcdir/tests/cli/lib.sh"
need_python3
tree=${FUNCTION_LENGTH_DIR:-$top_srcdir}
python3 - "$tree" "$top_srcdir/tests/helpers" >"$WORK/length.diag" 2>&1 <<'PY' || fail "$(cat "$WORK/length.diag")"
import glob, os, sys

sys.path.insert(0, sys.argv[2])
import source_layout

top = sys.argv[1]
paths = sorted(glob.glob(os.path.join(top, "lib", "**", "*.c"), recursive=True) +
               glob.glob(os.path.join(top, "src", "**", "*.c"), recursive=True))
errs, functions = [], 0
for path in paths:
    text = open(path).read()
    functions += sum(1 for _ in source_layout.functions(text))
    for first, n, sig in source_layout.too_long(text):
        errs.append("%s:%d: %d lines: %s" % (os.path.relpath(path, top), first, n, sig))
if not paths or not functions:
    errs.append("no function found under %s: wrong tree?" % top)
print("\n".join(errs) if errs else "%d functions in %d files, none over 80 lines" %
      (functions, len(paths)))
sys.exit(1 if errs else 0)
PY
cat "$WORK/length.diag"
finish
