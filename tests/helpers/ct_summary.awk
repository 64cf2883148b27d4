# Checks cyclictest/signaltest status lines ("T: ..."; signaltest has no I:):
#   awk -v threads=N -v loops=L [-v allow_empty=1] -f ct_summary.awk FILE
# Proves: the 2.4 field layout, Min <= Avg <= Max, Act within [Min, Max],
# C = loops (when loops > 0), thread numbers 0..N-1 in order.
# Prints one line per problem and exits 1 if there was any.
function problem(msg) { print "line " NR ": " msg ": " $0; bad = 1 }
/^T:/ {
	re = "^T: *[0-9]+ \\( *[0-9]+\\) P: *[0-9]+( I:[0-9]+)? C: *[0-9]+ Min: *(-|[0-9]+) Act: *(-|[0-9]+) Avg: *(-|[0-9]+) Max: *(-|[0-9]+)( SMI: *[0-9]+)?$"
	if ($0 !~ re) { problem("bad layout"); next }
	line = $0
	gsub(/[():]/, " ", line)
	n = split(line, f, " ")
	# f: T idx tid P prio [I interval] C cycles Min min Act act Avg avg Max max
	for (i = 1; i < n; i++) v[f[i]] = f[i + 1]
	idx = f[2]; c = v["C"]; mn = v["Min"]; act = v["Act"]; avg = v["Avg"]; mx = v["Max"]
	if (idx != seen) problem("thread " idx ", expected " seen)
	seen++
	if (loops > 0 && c != loops) problem("C " c " != loops " loops)
	if (mn == "-") {
		if (!allow_empty) problem("no samples")
		if (c != 0 || act != "-" || avg != "-" || mx != "-") problem("empty thread with numbers")
		next
	}
	if (c == 0) problem("C 0 but numbers shown")
	if (!(mn + 0 <= avg + 0 && avg + 0 <= mx + 0)) problem("not Min <= Avg <= Max")
	if (!(mn + 0 <= act + 0 && act + 0 <= mx + 0)) problem("Act outside Min..Max")
}
END {
	if (seen != threads) { print "status lines: " seen ", expected " threads; bad = 1 }
	exit bad
}
