#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Validate a tool's JSON against the shipped schema (schema/TOOL.schema.json).

usage: validate_json.py [--lines] [--schema-dir DIR] FILE TOOL

TOOL "auto": the tool named by the document's "cmdline:" (its first word's
base name, "-test" dropped); a tool without a schema is then not checked.

FILE is one JSON document (--lines: one per non-empty line, as --records
writes). A "$ref" such as "verdict.schema.json" is read from the schema
directory. Works with python3-jsonschema 4.10 (Debian 12: RefResolver) and
with later versions (the referencing registry). Exit 0 valid, 1 invalid,
2 usage, 77 no jsonschema module (the test SKIPs with the reason).
"""
import argparse
import json
import os
import sys
import warnings

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed (scripts/install-deps)")
    sys.exit(77)


def load_schemas(schema_dir):
    """Every *.schema.json of the directory, by file name."""
    schemas = {}
    for name in sorted(os.listdir(schema_dir)):
        if name.endswith(".schema.json"):
            with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                schemas[name] = json.load(f)
    return schemas


def make_validator(schemas, name):
    schema = schemas[name]
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
    except ImportError:
        Registry = None
    if Registry is not None:
        registry = Registry().with_resources(
            (key, Resource.from_contents(s)) for key, s in schemas.items())
        return cls(schema, registry=registry)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        resolver = jsonschema.RefResolver(base_uri=name, referrer=schema, store=dict(schemas))
    return cls(schema, resolver=resolver)


def documents(path, lines):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not lines:
        return [("", json.loads(text))]
    return [(f"line {i}: ", json.loads(line))
            for i, line in enumerate(text.splitlines(), 1) if line.strip()]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", action="store_true")
    ap.add_argument("--schema-dir", default=os.path.join(here, "..", "..", "schema"))
    ap.add_argument("file")
    ap.add_argument("tool")
    a = ap.parse_args()
    schemas = load_schemas(a.schema_dir)
    tool = a.tool
    if tool == "auto":
        try:
            tool = auto_tool(documents(a.file, a.lines))
        except (OSError, ValueError) as e:
            print(f"{a.file}: not JSON: {e}")
            return 1
        if not tool or tool + ".schema.json" not in schemas:
            return 0  # a tool without a schema (or no cmdline): nothing to check
    name = tool if tool.endswith(".schema.json") else tool + ".schema.json"
    if name not in schemas:
        print(f"no schema {name} in {a.schema_dir}")
        return 2
    try:
        docs = documents(a.file, a.lines)
    except (OSError, ValueError) as e:
        print(f"{a.file}: not JSON: {e}")
        return 1
    if not docs:
        print(f"{a.file}: no JSON document")
        return 1
    validator = make_validator(schemas, name)
    return validate(validator, docs, a.file)


def auto_tool(docs):
    doc = docs[0][1] if docs else None
    cmd = doc.get("cmdline:") if isinstance(doc, dict) else None
    if not isinstance(cmd, str) or not cmd.split():
        return None
    tool = os.path.basename(cmd.split()[0])
    return tool[:-len("-test")] if tool.endswith("-test") else tool


def validate(validator, docs, path):
    bad = 0
    for where, doc in docs:
        for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            loc = "/".join(str(p) for p in err.absolute_path) or "(top)"
            print(f"{path}: {where}{loc}: {err.message}")
            bad += 1
            if bad >= 20:
                return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
