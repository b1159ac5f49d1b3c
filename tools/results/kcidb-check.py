#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks KCIDB documents against the rules of KernelCI's I/O schema
v5.3 (kernelci/kcidb-io, kcidb_io/schema/v05_03.py), as this project
writes them: bench-compare -f kcidb and make track's kcidb.json.

  kcidb-check.py FILE...

The rules, read from the published schema and written here: the
top-level object has "version" ({"major": 5, "minor": 0..3}) and may
have "checkouts", "builds" and "tests" (arrays; "issues" and
"incidents" too), nothing else; each object has the properties its
kind declares and no other, of the declared types; ids are
"ORIGIN:..." with ORIGIN of [a-z0-9_]+, origins the same; required
are a checkout's id and origin, a build's id, origin and checkout_id,
a test's id, origin and build_id; a path is dot-separated
[a-zA-Z0-9_-]+ components; a status is FAIL, ERROR, MISS, PASS, DONE
or SKIP; a test's number has "value" (a number) and may have "unit"
(a string) and "prefix" (metric or binary), nothing else; a commit
hash is 40 lowercase hex digits; strings hold no NUL.  Beyond the
schema, as a submission that links up: ids are unique per kind, and
each build's checkout and each test's build is in the document.

Exit status: 0 when every file passes; 1 with one line per finding,
"FILE: WHERE: what"; 2 for a file that is no JSON.
"""
import json
import re
import sys

MAJOR, MINOR = 5, 3
ORIGIN = r"[a-z0-9_]+"
ID_RE = re.compile("^" + ORIGIN + ":[^\0]*$", re.S)
ORIGIN_RE = re.compile("^" + ORIGIN + "$")
PATH_RE = re.compile(r"^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$")
HASH_RE = re.compile(r"^[0-9a-f]{40}$")
SHA256_RE = re.compile(r"^$|^[0-9a-f]{64}$")
ARCH_RE = re.compile(r"^[a-z0-9_]*$")
STATUSES = ("FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP")

# Property kinds: "str" (no NUL), "id", "origin", "path", "status",
# "hash", "sha256", "arch", "number", "bool", "object", "resources",
# "strings", "testnumber", "environment".
CHECKOUT = {
    "_timestamp": "str", "id": "id", "origin": "origin",
    "tree_name": "str", "git_repository_url": "str",
    "git_commit_hash": "hash", "git_commit_name": "str",
    "git_commit_tags": "strings", "git_commit_message": "str",
    "git_repository_branch": "str", "git_repository_branch_tip": "bool",
    "patchset_files": "resources", "patchset_hash": "sha256",
    "message_id": "str", "comment": "str", "start_time": "str",
    "origin_builds_finish_time": "str", "origin_tests_finish_time": "str",
    "log_url": "str", "log_excerpt": "str", "valid": "bool",
    "misc": "object",
}
BUILD = {
    "_timestamp": "str", "checkout_id": "id", "id": "id",
    "origin": "origin", "comment": "str", "start_time": "str",
    "duration": "number", "architecture": "arch", "command": "str",
    "compiler": "str", "input_files": "resources",
    "output_files": "resources", "config_name": "str",
    "config_url": "str", "log_url": "str", "log_excerpt": "str",
    "status": "status", "misc": "object",
}
TEST = {
    "_timestamp": "str", "build_id": "id", "id": "id",
    "origin": "origin", "environment": "environment", "path": "path",
    "comment": "str", "log_url": "str", "log_excerpt": "str",
    "status": "status", "number": "testnumber", "start_time": "str",
    "duration": "number", "input_files": "resources",
    "output_files": "resources", "misc": "object",
}
REQUIRED = {
    "checkouts": ("id", "origin"),
    "builds": ("checkout_id", "id", "origin"),
    "tests": ("build_id", "id", "origin"),
}
KINDS = {"checkouts": CHECKOUT, "builds": BUILD, "tests": TEST}
TOP = ("version", "checkouts", "builds", "tests", "issues", "incidents")


def is_str(v):
    return isinstance(v, str) and "\0" not in v


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def value_bad(kind, v):
    """Why V is no value of KIND, or None."""
    simple = {
        "str": is_str,
        "id": lambda x: is_str(x) and ID_RE.match(x),
        "origin": lambda x: is_str(x) and ORIGIN_RE.match(x),
        "path": lambda x: is_str(x) and PATH_RE.match(x),
        "status": lambda x: x in STATUSES,
        "hash": lambda x: is_str(x) and HASH_RE.match(x),
        "sha256": lambda x: is_str(x) and SHA256_RE.match(x),
        "arch": lambda x: is_str(x) and ARCH_RE.match(x),
        "number": is_number,
        "bool": lambda x: isinstance(x, bool),
        "object": lambda x: isinstance(x, dict),
        "strings": lambda x: isinstance(x, list) and all(map(is_str, x)),
    }
    if kind in simple:
        return None if simple[kind](v) else f"not a valid {kind}"
    if kind == "resources":
        if not isinstance(v, list):
            return "not an array of resources"
        for r in v:
            if not isinstance(r, dict) or set(r) != {"name", "url"} or \
               not is_str(r["name"]) or "/" in r["name"] or not r["name"] \
               or not is_str(r["url"]):
                return "a resource is not {name, url}"
        return None
    if kind == "environment":
        if not isinstance(v, dict) or \
           not set(v) <= {"comment", "misc", "compatible"}:
            return "an environment has only comment, misc, compatible"
        if "comment" in v and not is_str(v["comment"]):
            return "environment.comment is not a string"
        if "misc" in v and not isinstance(v["misc"], dict):
            return "environment.misc is not an object"
        return None
    if kind == "testnumber":
        if not isinstance(v, dict):
            return "number is not an object"
        extra = set(v) - {"value", "unit", "prefix"}
        if extra:
            return "number has other keys: " + ", ".join(sorted(extra))
        if "value" not in v or not is_number(v["value"]):
            return "number.value is missing or not a number"
        if "unit" in v and not is_str(v["unit"]):
            return "number.unit is not a string"
        if "prefix" in v and v["prefix"] not in ("metric", "binary"):
            return "number.prefix is not metric or binary"
        return None
    raise ValueError(kind)


def check_doc(doc):
    """Findings of one document, "WHERE: what"."""
    bad = []
    if not isinstance(doc, dict):
        return ["top: not an object"]
    for key in doc:
        if key not in TOP:
            bad.append(f"top: property {key!r} is not in the schema")
    ver = doc.get("version")
    if not isinstance(ver, dict) or set(ver) - {"major", "minor"} or \
       ver.get("major") != MAJOR or \
       not isinstance(ver.get("minor", 0), int) or \
       isinstance(ver.get("minor", 0), bool) or \
       not 0 <= ver.get("minor", 0) <= MINOR:
        bad.append(f"version: not {{\"major\": {MAJOR}, \"minor\": 0..{MINOR}}}")
    ids = {}
    for kind, props in KINDS.items():
        objs = doc.get(kind, [])
        if not isinstance(objs, list):
            bad.append(f"{kind}: not an array")
            continue
        ids[kind] = set()
        for i, obj in enumerate(objs):
            where = f"{kind}[{i}]"
            if not isinstance(obj, dict):
                bad.append(f"{where}: not an object")
                continue
            for req in REQUIRED[kind]:
                if req not in obj:
                    bad.append(f"{where}: no {req}")
            for key, v in obj.items():
                if key not in props:
                    bad.append(f"{where}: property {key!r} is not in the schema")
                    continue
                why = value_bad(props[key], v)
                if why:
                    bad.append(f"{where}.{key}: {why}")
            oid = obj.get("id")
            if oid in ids[kind]:
                bad.append(f"{where}: id {oid!r} given twice")
            ids[kind].add(oid)
            origin = obj.get("origin")
            if is_str(oid) and is_str(origin) and \
               not oid.startswith(origin + ":"):
                bad.append(f"{where}: id does not start with its origin")
    for kind, ref, parent in (("builds", "checkout_id", "checkouts"),
                              ("tests", "build_id", "builds")):
        for i, obj in enumerate(doc.get(kind, []) or []):
            if isinstance(obj, dict) and ref in obj and \
               obj[ref] not in ids.get(parent, ()):
                bad.append(f"{kind}[{i}].{ref}: not in this document's {parent}")
    return bad


def main(argv):
    if len(argv) < 2:
        print("usage: kcidb-check.py FILE...", file=sys.stderr)
        return 2
    status = 0
    for path in argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not a JSON document: {e}", file=sys.stderr)
            return 2
        for finding in check_doc(doc):
            print(f"{path}: {finding}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
