#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""netdev's per-patch checks of a series, as its patchwork robot (NIPA)
runs them and as Documentation/process/maintainer-netdev.rst asks,
written for this project (doc/in-tree.rst): each commit of BASE..HEAD
(the branch's HEAD unless given) in TREE, a line per check, OKAY,
WARNING or FAIL.

  netdev-checks.py TREE BASE [HEAD]

  checkpatch      scripts/checkpatch.pl --strict --codespell
                  --max-line-length=80 with NIPA's ignore list: OKAY
                  when it says "total: 0 errors, 0 warnings, 0 checks"
  check_selftest  files under tools/testing/selftests/**/net/: a new
                  .sh or .py named in its folder's Makefile, a new .c's
                  basename in its Makefile and .gitignore; a Makefile's
                  multi-line lists one item a line, tab-indented,
                  sorted, ended by a comment naming the list, no list
                  of several items on one line; config and .gitignore
                  lines sorted by key, "_" aside
  header_inline   no static function without inline added to a header
  source_inline   no inline added to a .c file
  deprecated_api  module_param lines added (a FAIL) or changed (a
                  WARNING); the patches whose message says why a test
                  module takes parameters may add them
  shellcheck      shellcheck -x -e SC2317 -e SC2329, in each touched .sh
                  file's folder: a new file has no finding of any
                  severity, a changed one no more errors or warnings
                  than before
  kdoc            scripts/kernel-doc -Wall -none of each touched .c and
                  .h: no more warnings than before
  signed          the last Signed-off-by: is the author's
  series          at most 15 patches

Exit status: 0 when every check of every patch is OKAY (deprecated_api
FAIL allowed where the message says why), 1 otherwise, 2 on bad usage.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

NIPA_IGNORE = ("COMMIT_LOG_LONG_LINE,MACRO_ARG_REUSE,ALLOC_SIZEOF_STRUCT,"
               "NO_AUTHOR_SIGN_OFF,GIT_COMMIT_ID,CAMELCASE,FILE_PATH_CHANGES,"
               "BAD_REPORTED_BY_LINK")
MAX_PATCHES = 15
# A message that may add module parameters says why a test module
# takes them in a paragraph with these words.
PARAM_REASON = re.compile(r"module parameters?\b", re.I)


def run(cmd, cwd, env=None, check=False):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                       errors="replace", env=env)
    if check and r.returncode:
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()}")
    return r


def git(tree, *args):
    return run(["git", "-C", tree] + list(args), tree, check=True).stdout


def changed_files(tree, commit):
    """{path: status letter} of COMMIT against its parent."""
    out = git(tree, "diff", "--name-status", "--no-renames",
              commit + "~1", commit)
    files = {}
    for line in out.splitlines():
        status, path = line.split("\t", 1)
        files[path] = status[0]
    return files


def added_lines(tree, commit, pattern="*"):
    """[(path, line)] of the lines COMMIT adds, "-" lines apart."""
    out = git(tree, "show", "--format=", "--no-renames", commit, "--",
              pattern)
    res, path = [], None
    for line in out.splitlines():
        if line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("+") and path:
            res.append((path, line))
    return res


def diff_lines(tree, commit, pattern="*"):
    return git(tree, "show", "--format=", commit, "--", pattern).splitlines()


def check_checkpatch(tree, commit):
    # Debian's python3 has codespell's dictionary and spdxcheck's modules
    env = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""))
    patch = git(tree, "format-patch", "-1", "--stdout", commit)
    r = subprocess.run(["scripts/checkpatch.pl", "--strict", "--codespell",
                        "--max-line-length=80", "--ignore=" + NIPA_IGNORE,
                        "--show-types", "-"], cwd=tree,
                       input=patch, capture_output=True, text=True,
                       errors="replace", env=env)
    total = [line for line in r.stdout.splitlines()
             if line.startswith("total: ")]
    if total and "total: 0 errors, 0 warnings, 0 checks" in total[-1]:
        return "OKAY", total[-1]
    found = [line for line in r.stdout.splitlines()
             if re.match(r"(WARNING|ERROR|CHECK):", line)]
    worst = "FAIL" if any("ERROR:" in f for f in found) else "WARNING"
    return worst, "; ".join(found[:5]) or r.stdout.strip()[-200:]


def selftest_dir(path):
    return "tools/testing/selftests/" in path and "/net/" in path


def makefile_problems(text):
    """What NIPA's reading of a Makefile's lists would refuse."""
    bad, lines, i = [], text.split("\n"), 0
    assign = re.compile(r"^([A-Z_][A-Z0-9_]*)\s*(:?=|\+=)(.*)$")
    while i < len(lines):
        m = assign.match(lines[i])
        if not m:
            i += 1
            continue
        var, first = m.group(1), m.group(3).strip()
        special = first.startswith("$") or len(var) < 3 or \
            "FLAGS" in var or "LIBS" in var
        block = []
        if first != "\\" and not special:
            block.append("\t" + first)
        j = i
        while lines[j].endswith("\\") and j + 1 < len(lines):
            j += 1
            block.append(lines[j])
        i = j + 1
        if special or not block:
            continue
        tail = block[-1].strip()
        items = block[:-1] if tail.startswith("#") else block
        if len(block) > 1 and not tail.startswith("#"):
            bad.append(f"{var}: no comment after its last item")
        elif len(block) > 1 and len(tail) > 5 and var not in tail:
            bad.append(f"{var}: its closing comment does not name it")
        names = []
        for item in items:
            if not item.startswith("\t"):
                bad.append(f"{var}: an item not indented by a tab")
            name = item[1:]
            if name.endswith(" \\"):
                name = name[:-2].strip()
            if " " in name and "$" not in name:
                bad.append(f"{var}: several items on one line: {name}")
            if not name.startswith("$"):
                names.append(name)
        key = [(n.count("/"), n.lower()) for n in names]
        if key != sorted(key):
            bad.append(f"{var}: items not sorted")
    return bad


def sorted_by_key(text):
    keys = [line.split("=")[0].strip().replace("_", "")
            for line in text.split("\n")
            if "=" in line and not line.strip().startswith("#")]
    return keys == sorted(keys)


def check_selftest(tree, commit):
    files = {p: s for p, s in changed_files(tree, commit).items()
             if selftest_dir(p) and s != "D"}
    if not files:
        return "OKAY", "no selftest file"
    bad = []
    for path, status in files.items():
        folder, base = os.path.split(path)
        text = git(tree, "show", f"{commit}:{path}")
        if base == "Makefile":
            bad += [f"{path}: {b}" for b in makefile_problems(text)]
        elif base in ("config", ".gitignore") and not sorted_by_key(text):
            bad.append(f"{path}: not sorted")
        if status != "A":
            continue
        stem = None
        if base.endswith((".sh", ".py")):
            stem = base
        elif base.endswith(".c") and not base.endswith(".bpf.c"):
            stem = base.split(".")[0]
        if stem is None:
            continue
        for listing in ("Makefile", ".gitignore") if base.endswith(".c") \
                else ("Makefile",):
            try:
                text = git(tree, "show", f"{commit}:{folder}/{listing}")
            except RuntimeError:
                text = ""
            if stem not in text:
                bad.append(f"{path}: {stem} not in {folder}/{listing}")
    return ("FAIL", "; ".join(bad)) if bad else ("OKAY", f"{len(files)} files")


def check_header_inline(tree, commit):
    bad = [line for path, line in added_lines(tree, commit, "*.h")
           if re.match(r"^\+static (?!(__always_)?inline).*\(.*[^\\]$", line)
           or re.match(r"^\+(static )?(?!(__always_)?inline )"
                       r"((unsigned|long|short) )*(char|bool|void|int|u[0-9]*)"
                       r" [0-9A-Za-z_]*\(.*\) *{.*[^\\]$", line)]
    return ("FAIL", bad[0]) if bad else ("OKAY", "")


def check_source_inline(tree, commit):
    pat = re.compile(r"^[+-]([^*/]*\W|)inline\W", re.I)
    lines = diff_lines(tree, commit, "*.c")
    new = sum(1 for line in lines if line.startswith("+") and
              pat.match(line) and not line.startswith("+++"))
    old = sum(1 for line in lines if line.startswith("-") and
              pat.match(line) and not line.startswith("---"))
    if not new:
        return "OKAY", f"was {old} now {new}"
    return ("WARNING" if new == old else "FAIL"), f"was {old} now {new}"


def check_deprecated(tree, commit, message):
    lines = git(tree, "show", commit).splitlines()
    new = sum(1 for line in lines if line.startswith("+") and
              "module_param" in line.lower())
    old = sum(1 for line in lines if line.startswith("-") and
              "module_param" in line.lower())
    if not new:
        return "OKAY", ""
    said = f"module_param was {old} now {new}"
    if new > old:
        if PARAM_REASON.search(message):
            return "FAIL-SAID", said + "; the message says why"
        return "FAIL", said + "; the message does not say why"
    return "WARNING", said


def extract(tree, commit, folder, into):
    """COMMIT's FOLDER (a path in TREE) into the folder INTO; False when
    the commit has no such folder."""
    listing = run(["git", "-C", tree, "ls-tree", "-r", "--name-only",
                   commit, "--", folder], tree)
    if listing.returncode or not listing.stdout.strip():
        return False
    archive = subprocess.run(["git", "-C", tree, "archive", commit, folder],
                             capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", into], input=archive.stdout,
                   check=True)
    return True


def shellcheck(root, path):
    """shellcheck's findings of ROOT/PATH, run in its folder, by severity."""
    folder, base = os.path.split(os.path.join(root, path))
    r = run(["shellcheck", "-x", "-e", "SC2317", "-e", "SC2329", base],
            folder)
    sev = re.findall(r" \((error|warning|info|style)\):", r.stdout)
    return {s: sev.count(s) for s in ("error", "warning", "info", "style")}


def check_shellcheck(tree, commit):
    files = [p for p, s in changed_files(tree, commit).items()
             if p.endswith(".sh") and s in "AM"]
    if not files:
        return "OKAY", "no shell file"
    bad, said = [], []
    with tempfile.TemporaryDirectory() as tmp:
        after = os.path.join(tmp, "after")
        before = os.path.join(tmp, "before")
        os.mkdir(after)
        os.mkdir(before)
        for folder in {os.path.dirname(p) for p in files}:
            extract(tree, commit, folder, after)
            extract(tree, commit + "~1", folder, before)
        for p in files:
            a = shellcheck(after, p)
            if not os.path.exists(os.path.join(before, p)):
                if sum(a.values()):
                    bad.append(f"{p}: new, {a}")
                said.append(f"{os.path.basename(p)} new, clean")
                continue
            b = shellcheck(before, p)
            if a["error"] > b["error"] or a["warning"] > b["warning"]:
                bad.append(f"{p}: {b} before, {a} after")
            said.append(f"{os.path.basename(p)} {b['error']}/{b['warning']}"
                        f" errors/warnings before, {a['error']}/{a['warning']}"
                        " after")
    return ("FAIL", "; ".join(bad)) if bad else ("OKAY", ", ".join(said))


def kdoc_count(tree, root, paths):
    paths = [p for p in paths if os.path.exists(os.path.join(root, p))]
    if not paths:
        return 0
    r = run([os.path.join(tree, "scripts/kernel-doc"), "-Wall", "-none"] +
            paths, root)
    return len([line for line in (r.stdout + r.stderr).splitlines()
                if line.strip()])


def check_kdoc(tree, commit):
    files = [p for p, s in changed_files(tree, commit).items()
             if p.endswith((".c", ".h")) and s in "AM"]
    if not files:
        return "OKAY", "no C file"
    counts = []
    with tempfile.TemporaryDirectory() as tmp:
        for rev in (commit + "~1", commit):
            root = os.path.join(tmp, str(len(counts)))
            os.mkdir(root)
            for folder in {os.path.dirname(p) for p in files}:
                extract(tree, rev, folder, root)
            counts.append(kdoc_count(tree, root, files))
    said = f"{counts[0]} warnings before, {counts[1]} after"
    return ("OKAY" if counts[1] <= counts[0] else "FAIL"), said


def check_signed(tree, commit):
    author = git(tree, "log", "-1", "--format=%an <%ae>", commit).strip()
    body = git(tree, "log", "-1", "--format=%B", commit)
    sob = re.findall(r"^Signed-off-by: (.*)$", body, re.M)
    if sob and sob[-1].strip() == author:
        return "OKAY", author
    return "FAIL", f"author {author}, sign-offs {sob}"


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    tree, base = argv[1], argv[2]
    head = argv[3] if len(argv) == 4 else "HEAD"
    commits = git(tree, "rev-list", "--reverse", f"{base}..{head}").split()
    status = 0
    # checkpatch takes seconds a patch: two at a time
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        cp = dict(zip(commits, pool.map(lambda c: check_checkpatch(tree, c),
                                        commits)))
    checks = ("checkpatch", "check_selftest", "header_inline",
              "source_inline", "deprecated_api", "shellcheck", "kdoc",
              "signed")
    summary = {c: [] for c in checks}
    for n, commit in enumerate(commits, 1):
        subject = git(tree, "log", "-1", "--format=%s", commit).strip()
        message = git(tree, "log", "-1", "--format=%B", commit)
        print(f"[{n:02d}] {subject}")
        results = {
            "checkpatch": cp[commit],
            "check_selftest": check_selftest(tree, commit),
            "header_inline": check_header_inline(tree, commit),
            "source_inline": check_source_inline(tree, commit),
            "deprecated_api": check_deprecated(tree, commit, message),
            "shellcheck": check_shellcheck(tree, commit),
            "kdoc": check_kdoc(tree, commit),
            "signed": check_signed(tree, commit),
        }
        for name in checks:
            verdict, said = results[name]
            shown = "FAIL" if verdict == "FAIL-SAID" else verdict
            print(f"     {name}: {shown}{' (' + said + ')' if said else ''}")
            if verdict != "OKAY":
                summary[name].append(str(n))
            if verdict not in ("OKAY", "FAIL-SAID"):
                status = 1
    series = "OKAY" if len(commits) <= MAX_PATCHES else "FAIL"
    if series != "OKAY":
        status = 1
    print(f"series: {series} ({len(commits)} patches)")
    for name in checks:
        print(f"{name}: {'not OKAY on ' + ', '.join(summary[name]) if summary[name] else 'OKAY on every patch'}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
