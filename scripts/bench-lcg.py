#!/usr/bin/env python3
"""csp against the learning (LCG) solvers Huub and Pumpkin, and Gecode.

usage: scripts/bench-lcg.py [--cpu S] [--jobs N] [--only PATTERN] [--kind KIND]
                            [--solvers LIST] [--csp PATH] [--lcg W] [--keep FOLDER]
                            [--saved-only] [--tsv FILE] [--check-solver LIST]
                            [--check-timeout S] DIR...

Runs every case of each DIR's manifest.tsv (the format of
../shared/minizinc/run-suite.py) under each solver, one thread each, as

    prlimit --cpu=S -- minizinc --solver ID --output-mode dzn --output-objective
                                [-a | -i] [FLAGS] MODEL [DATA]

from inside DIR, and prints a Markdown table: per case and solver, whether the
run proved its answer (an optimum with ==========, satisfiability, a count),
the objective and the CPU seconds of the whole minizinc process and its
children (compiler and solver; from wait4). A run that does not prove its
answer counts as S seconds in the geometric mean.

Solvers (--solvers, comma-separated, default all six):
    csp           fzn-csp --no-learning         (org.csp.csp, the ordinary engine)
    csp-learning  fzn-csp --learning --no-lns   (org.csp.csp, the learning search:
                                                 fzn-csp's default from 2026-11-28 to -29)
    csp-lns       fzn-csp --learning --lns      (and its neighbourhoods: fzn-csp's
                                                 default since 2026-11-29)
    huub          Huub 100.1.0                  (solutions.huub)
    pumpkin       Pumpkin 0.5.0                 (nl.tudelft.algorithmics.pumpkin)
    gecode        Debian's Gecode               (gecode)

csp is registered from this checkout's build (`csp minizinc-setup`, --csp, default
$CARGO_TARGET_DIR/release/csp or target/release/csp). Huub and Pumpkin come from
../shared/lcg/setup.sh: name its scratch folder's solvers/ in MZN_SOLVER_PATH
(or pass --lcg W). The script stops with a message and exit status 2 when a
solver it is asked for is not installed (or csp is not built); it exits with 1
when a csp run gave a wrong answer, else 0.

Answers are checked: every last solution is re-solved by Gecode with its printed
values fixed (run-suite.py's check), a proven optimum, count or unsat must agree
with the manifest's known answer and with Gecode's when Gecode proves it, no
objective may beat a known optimum, and no proven optimum may be worse than a
best known objective ("<=V min", ">=V max"). A run that fails a check is marked
WRONG and does not count as proven. --check-solver LIST names other checkers,
each tried when the ones before cannot check (Debian's Gecode library does not
compile some MiniZinc Challenge models); a solution no checker could check is
marked "(unchecked)". An optimisation row may expect "unsat" (no solution
exists); then any solution is WRONG.

--keep FOLDER saves every run (output, CPU time) and reuses the saved runs on
the next call, so the solvers can be run at different times and the table
rebuilt; with --saved-only nothing is run, and a case without a saved run
shows — (the geometric mean is over the cases the solver ran; "run" counts
them). --tsv writes one line per run.

Python 3 standard library only; needs prlimit (util-linux), minizinc 2.6.
"""

import argparse
import fnmatch
import importlib.util
import json
import math
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared")

SOLVERS = {
    # name: (minizinc solver id, extra flags, column title)
    # "csp" is the ordinary engine (fzn-csp's default until the
    # thirteenth session, so saved runs keep their meaning); "csp-learning"
    # the learning search, fzn-csp's default since.
    "csp": ("org.csp.csp", ["--no-learning"], "csp --no-learning"),
    "csp-learning": ("org.csp.csp", ["--learning", "--no-lns"], "csp (learning, --no-lns)"),
    "csp-lns": ("org.csp.csp", ["--learning", "--lns"], "csp (learning, --lns: default)"),
    "huub": ("solutions.huub", [], "Huub"),
    "pumpkin": ("nl.tudelft.algorithmics.pumpkin", [], "Pumpkin"),
    "gecode": ("org.gecode.gecode", [], "Gecode"),
}


def die(msg):
    print("bench-lcg: " + msg, file=sys.stderr)
    sys.exit(2)


def load_suite():
    path = os.path.join(SHARED, "minizinc", "run-suite.py")
    if not os.path.exists(path):
        die("%s not found (../shared must sit beside the checkout)" % path)
    spec = importlib.util.spec_from_file_location("run_suite", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def installed_solvers(env):
    try:
        out = subprocess.run(["minizinc", "--solvers-json"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die("cannot run `minizinc --solvers-json`: %s" % e)
    ids = set()
    for s in json.loads(out):
        ids.add(s.get("id"))
        for tag in s.get("tags", []):
            ids.add(tag)
    return ids


def find_csp(arg):
    if arg:
        return arg
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release", "csp")


def run_case(suite, env, dirname, row, solver, cpu):
    """Runs one case; returns a run-suite Result with .cpu (seconds) added."""
    sid, extra, _ = SOLVERS[solver]
    kind = row["kind"].strip()
    flags = [] if row["flags"].strip() in ("", "-") else row["flags"].split()
    cmd = ["prlimit", "--cpu=%d" % cpu, "--", "minizinc", "--solver", sid,
           "--output-mode", "dzn", "--output-objective"] + extra + flags
    if kind == "optimize" and "-i" not in flags:
        cmd.append("--intermediate-solutions")
    cmd.append(row["model"].strip())
    data = row["data"].strip()
    if data and data != "-":
        cmd += data.split(",")
    res = suite.Result()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, cwd=dirname, env=env, stdout=out, stderr=err,
                             start_new_session=True)
        # a wall-clock guard only against a solver that sleeps: the limit is CPU time
        guard = threading.Timer(cpu * 6 + 60, lambda: os.killpg(p.pid, signal.SIGKILL))
        guard.start()
        _, status, usage = os.wait4(p.pid, 0)
        guard.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        res.seconds = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        res.stdout = out.read().decode("utf-8", "replace")
        res.stderr = err.read().decode("utf-8", "replace")
    res.returncode = p.returncode
    res.cpu = usage.ru_utime + usage.ru_stime
    res.killed = killed_by_limit(res, cpu)
    suite.parse_output(res.stdout, res)
    return res


def killed_by_limit(res, cpu):
    """Whether the run stopped at the CPU limit (SIGXCPU; minizinc then prints
    =====ERROR===== or stops with an error). The CPU time wait4 reports can
    fall a little short of the limit, hence the margin."""
    return res.returncode != 0 and res.cpu >= 0.9 * cpu


class Cell:
    def __init__(self, res, kind):
        self.cpu = res.cpu
        self.kind = kind
        self.res = res
        self.proven = False
        self.answer = None       # objective, count, "sat" / "unsat"
        self.wrong = None        # reason
        self.unchecked = None    # why the checker could not check the solution
        self.error = None
        if kind == "optimize":
            self.answer = res.objective
            self.proven = res.complete and res.objective is not None
            if res.status == "unsat":
                self.answer, self.proven = "unsat", True
        elif kind == "count":
            self.answer = res.distinct
            self.proven = res.complete or (res.status == "unsat")
        else:
            if res.solutions:
                self.answer, self.proven = "sat", True
            elif res.status == "unsat":
                self.answer, self.proven = "unsat", True
        if not self.proven and self.answer is None and not res.killed and res.returncode != 0:
            lines = [l.strip() for l in res.stderr.splitlines() if l.strip()]
            errs = [l for l in lines if "rror" in l]
            self.error = (errs[0] if errs else (lines[-1] if lines else "exit %d" % res.returncode))[:200]


def parse_expected(suite, row):
    """run-suite's parse_expected, plus "unsat" for an optimisation row (no
    solution exists; the MiniZinc Challenge has such instances)."""
    if row["kind"].strip() == "optimize" and row["expected"].strip() == "unsat":
        return "optimize", "unsat", None, True
    return suite.parse_expected(row)


# run-suite's check_solution reasons that say the answer is wrong; any other
# (the checker timed out or failed to compile the model) leaves it unchecked
WRONG_CHECKS = ("check: MiniZinc rejects", "check: objective of the printed")


def check(suite, args, dirname, row, sol, objective, direction):
    """run-suite's check_solution with each --check-solver in turn, until one
    gives a verdict (accepts the solution, or says it is wrong)."""
    why = None
    for checker in args.check_solvers:
        a = argparse.Namespace(**vars(args))  # judge runs in several threads
        a.check_solver = checker
        why = suite.check_solution(a, dirname, row, sol, objective, direction)
        if why is None or why.startswith(WRONG_CHECKS):
            return why
    return why


def judge(suite, args, dirname, row, cells):
    kind, value, direction, known = parse_expected(suite, row)
    gec = cells.get("gecode")
    for name, c in cells.items():
        if c.error:
            continue
        if c.proven:
            ref = value if known else None
            if ref is None and gec is not None and gec.proven and name != "gecode":
                ref = gec.answer
            if ref is not None and c.answer != ref:
                c.wrong = "proved %s, known %s" % (c.answer, ref)
        if value == "unsat" and isinstance(c.answer, int):
            c.wrong = "objective %d, known unsat" % c.answer
        elif kind == "optimize" and isinstance(c.answer, int) and isinstance(value, int) and known:
            better = c.answer < value if direction == "min" else c.answer > value
            if better:
                c.wrong = "objective %d beats the optimum %d" % (c.answer, value)
        elif (kind == "optimize" and c.proven and isinstance(c.answer, int)
              and isinstance(value, int) and not known):
            # value is an objective someone reached: a proven optimum cannot be worse
            worse = c.answer > value if direction == "min" else c.answer < value
            if worse:
                c.wrong = "proved %d, but %d is reachable" % (c.answer, value)
        if c.wrong is None and args.check and c.res.solutions:
            sols = [c.res.solutions[-1]]
            if kind == "count" and len(c.res.solutions) > 1:
                sols.insert(0, c.res.solutions[0])
            for sol in sols:
                why = check(suite, args, dirname, row, sol,
                            c.answer if kind == "optimize" else None, direction)
                if why and why.startswith(WRONG_CHECKS):
                    c.wrong = why
                    break
                if why:
                    c.unchecked = why
        if c.wrong:
            c.proven = False


def fmt_cell(c, cpu):
    if c is None:
        return "—"
    if c.error:
        return "error"
    t = min(c.cpu, cpu)
    secs = "%.1f s" % t if t >= 10 else "%.2f s" % t
    if c.wrong:
        return "**WRONG** (%s)" % c.wrong
    ans = "" if c.answer is None else str(c.answer)
    if c.kind == "satisfy" and not c.proven:
        ans = "none"
    mark = " (unchecked)" if c.unchecked else ""
    if c.proven:
        return "**%s**, %s%s" % (ans, secs, mark)
    return "%s, > %d s%s" % (ans or "none", cpu, mark)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    ap.add_argument("--cpu", type=int, default=60, help="CPU seconds per run (prlimit --cpu)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (default 1)")
    ap.add_argument("--only", help="run only ids containing PATTERN (or matching a glob)")
    ap.add_argument("--kind", help="run only rows of this kind (satisfy, count, optimize)")
    ap.add_argument("--solvers", default=",".join(SOLVERS), help="comma-separated")
    ap.add_argument("--csp", help="the csp binary (default $CARGO_TARGET_DIR/release/csp)")
    ap.add_argument("--lcg", help="scratch folder of ../shared/lcg/setup.sh (adds W/solvers)")
    ap.add_argument("--no-check", dest="check", action="store_false",
                    help="do not re-check solutions with Gecode")
    ap.add_argument("--check-timeout", type=int, default=60,
                    help="wall seconds per check (default 60)")
    ap.add_argument("--check-solver", default="gecode",
                    help="the solvers that re-check solutions, comma-separated, each tried "
                    "when the ones before fail to check (default gecode)")
    ap.add_argument("--tsv", help="also write the raw results to FILE")
    ap.add_argument("--keep", metavar="FOLDER",
                    help="save each run's output in FOLDER and reuse the runs found there")
    ap.add_argument("--saved-only", action="store_true",
                    help="with --keep: run nothing, tabulate the saved runs (— where none)")
    args = ap.parse_args()
    if args.saved_only and not args.keep:
        die("--saved-only needs --keep")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    suite = load_suite()
    # what run-suite's check_solution reads
    args.minizinc, args.grace = "minizinc", 15.0
    args.check_solvers = [c.strip() for c in args.check_solver.split(",") if c.strip()]

    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    for s in solvers:
        if s not in SOLVERS:
            die("unknown solver %r (known: %s)" % (s, ", ".join(SOLVERS)))
    if shutil.which("prlimit") is None:
        die("prlimit (util-linux) not found")
    if shutil.which("minizinc") is None:
        die("minizinc not found (apt-get install minizinc flatzinc)")

    env = dict(os.environ)
    paths = [p for p in env.get("MZN_SOLVER_PATH", "").split(":") if p]
    if args.lcg:
        paths.insert(0, os.path.join(os.path.abspath(args.lcg), "solvers"))
    tmp = tempfile.mkdtemp(prefix="bench-lcg-")
    try:
        if any(s.startswith("csp") for s in solvers):
            csp = find_csp(args.csp)
            if not os.access(csp, os.X_OK):
                die("%s not found: cargo build --release first (or --csp PATH)" % csp)
            subprocess.run([csp, "minizinc-setup", "--dir", tmp], check=True,
                           stdout=subprocess.DEVNULL)
            paths.insert(0, tmp)
        env["MZN_SOLVER_PATH"] = ":".join(paths)
        os.environ["MZN_SOLVER_PATH"] = env["MZN_SOLVER_PATH"]  # for the checks
        have = installed_solvers(env)
        missing = [s for s in solvers if SOLVERS[s][0] not in have]
        if missing:
            die("solver(s) not installed: %s\n"
                     "  build Huub and Pumpkin with `sh ../shared/lcg/setup.sh W` and pass --lcg W\n"
                     "  (or put W/solvers in MZN_SOLVER_PATH); Gecode: apt-get install flatzinc"
                     % ", ".join("%s (%s)" % (s, SOLVERS[s][0]) for s in missing))
        exit_code = run_all(suite, args, env, solvers)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(exit_code)


def run_all(suite, args, env, solvers):
    cases = []
    for d in args.dirs:
        dirname = os.path.abspath(d)
        _, rows = suite.read_manifest(dirname)
        for row in rows:
            if args.kind and row["kind"].strip() != args.kind:
                continue
            cid = row["id"]
            if args.only and args.only not in cid and not fnmatch.fnmatch(cid, args.only):
                continue
            cases.append((dirname, row))
    if not cases:
        die("no case selected")

    results = {}
    lock = threading.Lock()

    def one(job):
        dirname, row, solver = job
        saved = os.path.join(args.keep, "%s.%s.json" % (row["id"], solver)) if args.keep else None
        if saved and os.path.exists(saved):
            res = suite.Result()
            with open(saved) as f:
                d = json.load(f)
            res.stdout, res.stderr, res.returncode = d["stdout"], d["stderr"], d["returncode"]
            res.cpu, res.seconds = d["cpu"], d["wall"]
            res.killed = killed_by_limit(res, args.cpu)
            suite.parse_output(res.stdout, res)
        elif args.saved_only:
            return
        else:
            res = run_case(suite, env, dirname, row, solver, args.cpu)
            if saved:
                with open(saved + ".tmp", "w") as f:
                    json.dump({"stdout": res.stdout, "stderr": res.stderr, "cpu": res.cpu,
                               "wall": res.seconds, "returncode": res.returncode,
                               "killed": res.killed, "cpu_limit": args.cpu}, f)
                os.replace(saved + ".tmp", saved)
        with lock:
            results[(row["id"], solver)] = res
            print("# %-28s %-13s cpu %6.2f s  wall %6.2f s  rc %d  %s" % (
                row["id"], solver, res.cpu, res.seconds, res.returncode,
                "complete" if res.complete else (res.status or "-")), file=sys.stderr, flush=True)

    jobs = [(d, r, s) for d, r in cases for s in solvers]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        list(ex.map(one, jobs))

    def judged(case):
        dirname, row = case
        kind = row["kind"].strip()
        cells = {s: Cell(results[(row["id"], s)], kind) for s in solvers
                 if (row["id"], s) in results}
        judge(suite, args, dirname, row, cells)
        return row, cells

    # the checks run --jobs at a time too, each case's in one thread
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        table = list(ex.map(judged, cases))

    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("id\tsolver\tproven\tanswer\tcpu\twall\trc\twrong\terror\tunchecked\n")
            for row, cells in table:
                for s, c in cells.items():
                    f.write("%s\t%s\t%d\t%s\t%.2f\t%.2f\t%d\t%s\t%s\t%s\n" % (
                        row["id"], s, c.proven, c.answer, c.cpu, c.res.seconds,
                        c.res.returncode, c.wrong or "", c.error or "", c.unchecked or ""))

    titles = [SOLVERS[s][2] for s in solvers]
    print("| case | known | " + " | ".join(titles) + " |")
    print("|---|---:|" + "---:|" * len(solvers))
    for row, cells in table:
        print("| %s | %s | %s |" % (row["id"], row["expected"].strip(),
                                    " | ".join(fmt_cell(cells.get(s), args.cpu) for s in solvers)))
    print()
    print("| solver | run | proven (of %d) | wrong | errors | geometric mean CPU s (unproven: %d s) |"
          % (len(table), args.cpu))
    print("|---|---:|---:|---:|---:|---:|")
    wrong_any = False
    for s in solvers:
        cs = [cells[s] for _, cells in table if s in cells]
        if not cs:
            print("| %s | 0 | | | | |" % SOLVERS[s][2])
            continue
        proven = sum(c.proven for c in cs)
        wrong = sum(c.wrong is not None for c in cs)
        errors = sum(c.error is not None for c in cs)
        wrong_any |= wrong > 0 and s.startswith("csp")
        times = [max(0.01, min(c.cpu, args.cpu)) if c.proven else args.cpu for c in cs]
        gm = math.exp(sum(math.log(t) for t in times) / len(times))
        print("| %s | %d | %d | %d | %d | %.2f |" % (SOLVERS[s][2], len(cs), proven, wrong, errors,
                                                    gm))
    return 1 if wrong_any else 0


if __name__ == "__main__":
    main()
