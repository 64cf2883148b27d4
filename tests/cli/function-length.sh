#!/bin/sh
# test-timeout: 60
# The house's rule for lib and src: no function is over 80 lines (its
# signature to the "}" at column 0) unless the comment right above it says
# why it must be "one piece". Reads the sources only; FUNCTION_LENGTH_DIR
# names another tree (to see the check fail).
. "$top_srcdir/tests/cli/lib.sh"
need_python3
tree=${FUNCTION_LENGTH_DIR:-$top_srcdir}
python3 - "$tree" >"$WORK/length.diag" 2>&1 <<'PY' || fail "$(cat "$WORK/length.diag")"
import glob, os, re, sys

top = sys.argv[1]
paths = sorted(glob.glob(os.path.join(top, "lib", "**", "*.c"), recursive=True) +
               glob.glob(os.path.join(top, "src", "**", "*.c"), recursive=True))
errs, functions = [], 0
for path in paths:
    lines, start = open(path).read().split("\n"), None
    for i, line in enumerate(lines):
        if line == "{" and start is None:
            # back to the first line of the signature (a name at column 0)
            start = i - 1
            while start > 0 and not re.match(r"[A-Za-z_]", lines[start]):
                start -= 1
        elif line == "}" and start is not None:
            functions += 1
            above = " ".join(lines[max(0, start - 4):start])
            if i - start + 1 > 80 and "one piece" not in above:
                errs.append("%s:%d: %d lines: %s" % (os.path.relpath(path, top), start + 1,
                                                    i - start + 1, lines[start].strip()))
            start = None
if not paths or not functions:
    errs.append("no function found under %s: wrong tree?" % top)
print("\n".join(errs) if errs else "%d functions in %d files, none over 80 lines" %
      (functions, len(paths)))
sys.exit(1 if errs else 0)
PY
cat "$WORK/length.diag"
finish
