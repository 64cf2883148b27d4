#!/usr/bin/env python3
"""Evaluate every query of a Grafana dashboard against a Prometheus server.

usage: grafana_queries.py DASHBOARD.json http://127.0.0.1:PORT

Each panel's PromQL (its template variables set to "all": $instance to
.*) goes to Prometheus' /api/v1/query; the variables' label_values()
queries to /api/v1/series. Every query must succeed and return at least
one series. Prints one JSON object: panel title -> [[labels, value]...],
"$VAR" -> the variable's values. Exit 1 with a line per failed query.
"""
import json
import re
import sys
import urllib.parse
import urllib.request

ALL = {"$instance": ".*", "${instance}": ".*"}


def get(url, path, params):
    q = urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(f"{url}{path}?{q}", timeout=10) as r:
        return json.load(r)


def substitute(expr):
    for var, value in ALL.items():
        expr = expr.replace(var, value)
    if "$" in expr:
        raise ValueError(f"a template variable is not handled: {expr}")
    return expr


def main():
    dash = json.load(open(sys.argv[1]))
    url = sys.argv[2].rstrip("/")
    out, errors = {}, []
    for var in dash.get("templating", {}).get("list", []):
        if var.get("type") != "query":
            continue
        m = re.fullmatch(r"label_values\((\w+), *(\w+)\)", var["definition"])
        if not m:
            errors.append(f"${var['name']}: not label_values(METRIC, LABEL): {var['definition']}")
            continue
        r = get(url, "/api/v1/series", {"match[]": m.group(1)})
        values = sorted({s[m.group(2)] for s in r.get("data", []) if m.group(2) in s})
        if r.get("status") != "success" or not values:
            errors.append(f"${var['name']}: {var['definition']}: no values")
        out["$" + var["name"]] = values
    for panel in dash["panels"]:
        for t in panel.get("targets", []):
            try:
                expr = substitute(t["expr"])
                r = get(url, "/api/v1/query", {"query": expr})
            except Exception as e:  # a refused query is a failed check
                errors.append(f"{panel['title']}: {e}")
                continue
            res = r.get("data", {}).get("result", [])
            if r.get("status") != "success" or not res:
                errors.append(f"{panel['title']}: {expr}: {r.get('error', 'no series')}")
            out[panel["title"]] = [[s["metric"], float(s["value"][1])] for s in res]
    print(json.dumps(out, sort_keys=True))
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
