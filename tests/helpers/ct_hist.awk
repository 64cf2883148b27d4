# Checks a cyclictest 2.4 histogram:
#   awk -v threads=N -v buckets=B -v loops=L -v sum=0|1 -f ct_hist.awk FILE
# Proves: "# Histogram" then B rows 000000..B-1 with N (+1 sum) 6-digit
# TAB-separated columns; the summary lines; per thread the rows add up to
# "# Total:", Total + Overflows = loops, the sum column adds up, and when
# nothing overflowed Max equals the highest non-empty bucket.
function problem(msg) { print "hist: " msg; bad = 1 }
/^# Histogram$/ { inrows = 1; next }
inrows && /^[0-9][0-9][0-9][0-9][0-9][0-9] / {
	row = substr($0, 1, 6) + 0
	if (row != rows) problem("row " rows " missing, got " row)
	rest = substr($0, 8)
	n = split(rest, col, "\t")
	want = threads + (sum ? 1 : 0)
	if (n != want) problem("row " row ": " n " columns, expected " want)
	rowsum = 0
	for (t = 1; t <= threads; t++) {
		if (col[t] !~ /^[0-9][0-9][0-9][0-9][0-9][0-9]+$/) problem("row " row " col " t " not 6 digits")
		cnt[t] += col[t]; rowsum += col[t]
		if (col[t] > 0) top[t] = row
	}
	if (sum && col[threads + 1] != rowsum) problem("row " row ": sum column " col[threads + 1] " != " rowsum)
	rows++
	next
}
/^# Total:/ { inrows = 0; for (t = 1; t <= threads; t++) total[t] = $(t + 2) }
/^# Max Latencies:/ { for (t = 1; t <= threads; t++) mx[t] = $(t + 3) }
/^# Histogram Overflows:/ { for (t = 1; t <= threads; t++) ov[t] = $(t + 3); have_ov = 1 }
/^# Histogram Overflow at cycle number:$/ { have_cycles = 1 }
END {
	if (rows != buckets) problem(rows " rows, expected " buckets)
	if (!have_ov || !have_cycles) problem("summary lines missing")
	for (t = 1; t <= threads; t++) {
		if (cnt[t] != total[t] + 0) problem("thread " t - 1 ": rows " cnt[t] " != Total " total[t])
		if (loops > 0 && total[t] + ov[t] != loops) problem("thread " t - 1 ": Total+Overflows " total[t] + ov[t] " != " loops)
		if (ov[t] + 0 == 0 && cnt[t] > 0 && mx[t] + 0 != top[t]) problem("thread " t - 1 ": Max " mx[t] " != top bucket " top[t])
	}
	exit bad
}
