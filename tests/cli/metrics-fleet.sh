#!/bin/sh
# A fleet on one machine, with the real programs: two node_exporters (one
# per simulated board, each with its own textfile directory, on free
# loopback ports) and a Prometheus server scraping both every second. Two
# cyclictest runs ("boards") write --metrics into the directories; through
# Prometheus' HTTP API, sum(rt_latency_seconds_count) is their samples,
# and histogram_quantile over sum by (le) of both boards' buckets lies in
# the bucket (between two bounds) that holds rt-latency-report merge's
# percentile of the two runs' JSON, for p50, p90 and p99. Prometheus
# loads contrib/prometheus/rt-tests-ng.rules.yml: its recording rules
# give a value per board, its alert fires for board 2 (whose verdict
# fails) and not for board 1; every query of the Grafana dashboard
# (contrib/grafana/, by tests/helpers/grafana_queries.py) and of the rules
# has a result. Every server the test
# starts is killed on every exit.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CHECK="$HELPERS/metrics_check.py"
PROMETHEUS=/usr/bin/prometheus
EXPORTER=/usr/bin/prometheus-node-exporter
for b in "$PROMETHEUS" "$EXPORTER"; do
	[ -x "$b" ] || skip "needs $b (Debian: prometheus, prometheus-node-exporter; scripts/install-deps)"
done

PIDS=
# shellcheck disable=SC2317 # run by the trap
cleanup() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $PIDS; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# shellcheck disable=SC2046 # three words, one per port
set -- $(python3 "$CHECK" free-ports 3)
P1=$1 P2=$2 PP=$3
mkdir "$WORK/board1" "$WORK/board2" "$WORK/tsdb"
for i in 1 2; do
	eval port=\$P$i
	"$EXPORTER" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$WORK/board$i" \
		>"$WORK/exporter$i.log" 2>&1 &
	PIDS="$PIDS $!"
done
SRC=$(cd "$top_srcdir" && pwd)
cat >"$WORK/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $SRC/contrib/prometheus/rt-tests-ng.rules.yml
scrape_configs:
  - job_name: boards
    static_configs:
      - targets: ['127.0.0.1:$P1', '127.0.0.1:$P2']
CONF
"$PROMETHEUS" --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
	--web.listen-address="127.0.0.1:$PP" >"$WORK/prometheus.log" 2>&1 &
PIDS="$PIDS $!"
URL="http://127.0.0.1:$PP"

# The two boards, one after the other (each a whole machine's share);
# board 2's limit cannot hold (0 us).
for i in 1 2; do
	limit=3600000000 want=0
	[ $i = 1 ] || limit=0 want=3
	run_tool_timeout 20 cyclictest -q -m -p 80 -t 2 -i 500 -D 2 --records-interval=1 \
		--no-preflight --max-latency=$limit \
		--metrics="$WORK/board$i/rt.prom" --json="$WORK/b$i.json"
	expect_exit $want
done
run_tool rt-latency-report merge "$WORK/b1.json" "$WORK/b2.json" -o "$WORK/merged.json"
expect_exit 0
samples=$(python3 -c '
import json, sys
print(sum(t["cycles"] for f in sys.argv[1:] for t in json.load(open(f))["thread"].values()))
' "$WORK/b1.json" "$WORK/b2.json")

# Both exporters serve the files (the text as node_exporter reads it).
for i in 1 2; do
	eval port=\$P$i
	python3 -c '
import sys, urllib.request
t = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read().decode()
assert "rt_latency_seconds_bucket{" in t, t[-2000:]
assert "node_textfile_scrape_error 0" in t, [l for l in t.splitlines() if "textfile" in l]
' "$port" 2>"$WORK/serve.diag" || fail "exporter $i: $(tail -n 3 "$WORK/serve.diag")"
done

# The rules' results: a value per board, the alert for board 2 only.
EXPRS="$WORK/exprs"
sed -n 's/^ *expr: *//p' "$SRC/contrib/prometheus/rt-tests-ng.rules.yml" >"$EXPRS"
cat >>"$EXPRS" <<Q
instance:rt_latency_seconds:p99_99{instance="127.0.0.1:$P1"}
instance:rt_latency_seconds:p99_99{instance="127.0.0.1:$P2"}
instance:rt_latency_max_seconds:max{instance="127.0.0.1:$P2"}
ALERTS{alertname="RtVerdictFailed",alertstate="firing",instance="127.0.0.1:$P2",tool="cyclictest"}
!ALERTS{alertname="RtVerdictFailed",instance="127.0.0.1:$P1"}
Q
python3 "$CHECK" fleet "$URL" "$WORK/merged.json" "$samples" "$EXPRS" \
	>"$WORK/fleet.out" 2>&1 || fail "$(head -n 8 "$WORK/fleet.out"; tail -n 5 "$WORK/prometheus.log")"
cat "$WORK/fleet.out"
# Every query of the Grafana dashboard answers.
python3 "$HELPERS/grafana_queries.py" "$SRC/contrib/grafana/rt-tests-ng.json" "$URL" \
	>"$WORK/grafana.out" 2>&1 || fail "dashboard: $(tail -n 5 "$WORK/grafana.out")"
finish
