#!/usr/bin/env python3
"""The MiniZinc Challenge 2024 instances as a bench-lcg.py / run-suite.py set.

usage: scripts/mznc2024.py [--git GITDIR | --tarball FILE --results FILE]
                           [--per-problem N] [--compile-check ID] [--cpu S] DIR

Puts the 100 instances (20 problems, all optimisation) of the MiniZinc
Challenge 2024 into DIR, one folder per problem, and writes DIR/manifest.tsv
(the format of ../shared/minizinc/run-suite.py) with the answers the
entrants found, read from the challenge's results.json:

    "V min" / "V max"     some entrant proved the optimum V (status SC)
    "<=V min" / ">=V max" V is the best objective any entrant found, no
                          entrant proved it optimal
    "unsat"               some entrant proved that no solution exists (C)
    "? min" / "? max"     no entrant found anything

(bench-lcg.py: a proven answer must equal a proven known one, no objective
may beat a proven optimum; an objective better than a best-known-but-unproven
one is fine, a worse one is just not proven.) When the entrants contradict
each other (two proven optima, a solution to an instance proved
unsatisfiable) the script says so on stderr and takes the weaker claim.

Both files come from the public repository MiniZinc/minizinc.github.io,
folder public/challenge/2024/: mznc2024_probs.tar.gz (the instances, 2 MB;
the same files are unpacked in mznc2024_probs/, but five of them are over
20 MB) and results.json (every entrant's result). Sources, first found:

    --git GITDIR        a clone of that repository (`git show HEAD:...`)
    --tarball, --results the two files, already downloaded (offline)
    (neither)           `git clone --depth 1 --filter=blob:none --no-checkout`
                        of https://github.com/MiniZinc/minizinc.github.io,
                        which then fetches only these two files (6 MB)

--per-problem N keeps the first N instances of each problem (results.json's
order, which is by file name) that compile. --compile-check ID compiles every kept
instance with `minizinc -c --solver ID` (MZN_SOLVER_PATH as set) under
`prlimit --cpu=S` (default 120) and writes an instance that fails as a
comment line with the error, so that bench-lcg.py skips it. (Debian's
Gecode 6.2.0 library overrides the standard globals and fails on models
that the standard library compiles, e.g. inverse over optional variables.)

Python 3 standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

REPO_URL = "https://github.com/MiniZinc/minizinc.github.io"
FOLDER = "public/challenge/2024"
TARBALL = FOLDER + "/mznc2024_probs.tar.gz"
RESULTS = FOLDER + "/results.json"


def die(msg):
    print("mznc2024: " + msg, file=sys.stderr)
    sys.exit(2)


def fetch_sources(args, tmp):
    """Returns (tarball path, results.json path)."""
    if args.tarball or args.results:
        if not (args.tarball and args.results):
            die("--tarball and --results go together")
        return args.tarball, args.results
    git = args.git
    if git is None:
        git = os.path.join(tmp, "repo")
        # no blobs and no work tree: `git show` below fetches the two files only
        cmd = ["git", "clone", "--quiet", "--depth", "1", "--filter=blob:none", "--no-checkout",
               REPO_URL, git]
        if subprocess.run(cmd).returncode != 0:
            die("`%s` failed (offline? pass --git or --tarball/--results)" % " ".join(cmd))
    out = []
    for path in (TARBALL, RESULTS):
        dest = os.path.join(tmp, os.path.basename(path))
        with open(dest, "wb") as f:
            # a work tree (git -C) or a bare git directory (git --git-dir)
            where = "-C" if os.path.isdir(os.path.join(git, ".git")) else "--git-dir"
            p = subprocess.run(["git", where, git, "show", "HEAD:" + path], stdout=f)
        if p.returncode != 0:
            die("%s: no %s at HEAD" % (git, path))
        out.append(dest)
    return out


def unpack(tarball, dest):
    """Unpacks mznc2024_probs/PROBLEM/FILE as DEST/PROBLEM/FILE."""
    with tarfile.open(tarball) as tar:
        for m in tar.getmembers():
            parts = m.name.split("/")
            if not m.isfile() or len(parts) != 3 or parts[0] != "mznc2024_probs":
                continue
            if any(p in ("", ".", "..") for p in parts[1:]):
                die("unexpected path %r in %s" % (m.name, tarball))
            os.makedirs(os.path.join(dest, parts[1]), exist_ok=True)
            src = tar.extractfile(m)
            with open(os.path.join(dest, parts[1], parts[2]), "wb") as f:
                shutil.copyfileobj(src, f)


def known_answer(res, i, direction):
    """The manifest's expected cell for instance i, from every entrant's result."""
    inst = res["benchmarks"][i]
    status = [row[i] for row in res["results"]]
    objs = [row[i] for row in res["objectives"]]
    found = [o for s, o in zip(status, objs) if s in ("S", "SC") and isinstance(o, int)]
    proven = sorted({o for s, o in zip(status, objs) if s == "SC" and isinstance(o, int)})
    unsat = "C" in status
    better = min if direction == "min" else max
    if unsat and found:
        print("mznc2024: %s: an entrant proved it unsatisfiable, others found solutions; "
              "taking the best solution as not proven" % inst, file=sys.stderr)
        unsat = False
        proven = []
    if unsat:
        return "unsat"
    if len(proven) > 1:
        print("mznc2024: %s: entrants proved different optima %s; taking the best found "
              "as not proven" % (inst, proven), file=sys.stderr)
        proven = []
    if proven and better(found) != proven[0]:
        print("mznc2024: %s: an entrant found %d, better than the proven optimum %d; "
              "taking it as not proven" % (inst, better(found), proven[0]), file=sys.stderr)
        proven = []
    if proven:
        return "%d %s" % (proven[0], direction)
    if found:
        return "%s%d %s" % ("<=" if direction == "min" else ">=", better(found), direction)
    return "? %s" % direction


def find_instance(dest, problem, name):
    """(model, data) relative to DEST for the instance NAME of PROBLEM."""
    folder = os.path.join(dest, problem)
    files = sorted(os.listdir(folder))
    if name + ".mzn" in files:                    # an instance that is a model of its own
        return "%s/%s.mzn" % (problem, name), "-"
    models = [f for f in files if f.endswith(".mzn")]
    data = [f for f in files if f in (name + ".dzn", name + ".json")]
    if len(models) != 1 or len(data) != 1:
        die("%s: cannot tell the model and data of %s (files %s)" % (problem, name, files))
    return "%s/%s" % (problem, models[0]), "%s/%s" % (problem, data[0])


def compile_error(dest, model, data, solver, cpu):
    """None when `minizinc -c` compiles the instance for SOLVER, else the error."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["prlimit", "--cpu=%d" % cpu, "--", "minizinc", "-c", "--solver", solver,
               "--fzn", os.path.join(tmp, "m.fzn"), "--ozn", os.path.join(tmp, "m.ozn"), model]
        if data != "-":
            cmd.append(data)
        p = subprocess.run(cmd, cwd=dest, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
    if p.returncode == 0:
        return None
    lines = [l.strip() for l in (p.stderr + p.stdout).splitlines() if l.strip()]
    if not lines:
        return "exit status %d (CPU limit %d s?)" % (p.returncode, cpu)
    errs = [j for j, l in enumerate(lines) if "rror" in l]
    j = errs[0] if errs else len(lines) - 1
    return " ".join(lines[j:j + 2])[:300].replace("\t", " ")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", metavar="DIR")
    ap.add_argument("--git", help="a clone of MiniZinc/minizinc.github.io (bare or not)")
    ap.add_argument("--tarball", help="mznc2024_probs.tar.gz, downloaded")
    ap.add_argument("--results", help="results.json, downloaded")
    ap.add_argument("--per-problem", type=int, default=0, help="first N instances per problem")
    ap.add_argument("--compile-check", metavar="ID",
                    help="compile each instance for solver ID; comment out the ones that fail")
    ap.add_argument("--cpu", type=int, default=120, help="CPU seconds per compilation")
    args = ap.parse_args()

    dest = os.path.abspath(args.dir)
    os.makedirs(dest, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="mznc2024-")
    try:
        tarball, results = fetch_sources(args, tmp)
        unpack(tarball, dest)
        with open(results) as f:
            res = json.load(f)["results"]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    lines = ["# MiniZinc Challenge 2024 (github.com/MiniZinc/minizinc.github.io, %s);"
             " written by scripts/mznc2024.py" % FOLDER,
             "\t".join(["id", "model", "data", "kind", "flags", "expected", "gecode_seconds",
                        "note"])]
    for p, problem in enumerate(res["problems"]):
        direction = {"MIN": "min", "MAX": "max"}[res["kind"][p]]
        kept = 0
        for i in res["instances"][p]:
            if args.per_problem > 0 and kept == args.per_problem:
                break
            name = res["benchmarks"][i]
            short = name[:-5] if name.endswith(".json") else name
            model, data = find_instance(dest, problem, name)
            row = ["%s.%s" % (problem, short), model, data, "optimize", "-",
                   known_answer(res, i, direction), "-", "mznc2024"]
            if args.compile_check:
                err = compile_error(dest, model, data, args.compile_check, args.cpu)
                if err:
                    print("mznc2024: %s does not compile: %s" % (row[0], err), file=sys.stderr)
                    lines.append("# does not compile for %s: %s" % (args.compile_check, err))
                    lines.append("# " + "\t".join(row))
                    continue
            lines.append("\t".join(row))
            kept += 1
    with open(os.path.join(dest, "manifest.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("mznc2024: wrote %s (%d instances)" % (os.path.join(dest, "manifest.tsv"),
                                                 sum(1 for l in lines[2:] if not l.startswith("#"))),
          file=sys.stderr)


if __name__ == "__main__":
    main()
