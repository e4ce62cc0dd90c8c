#!/usr/bin/env python3
"""One run of a scheduling benchmark (benches/sched/) under one solver.

usage: scripts/bench-sched.py SOLVER MODEL DATA [CPU_SECONDS]

SOLVER: csp (fzn-csp --no-learning, the ordinary engine), csp-learning (fzn-csp
--learning, fzn-csp's default since 2026-11-28),
csp-STRENGTH or csp-learning+STRENGTH (--cumulative-strength STRENGTH),
gecode (Debian's fzn-gecode), huub (Huub, from ../shared/lcg/setup.sh).
Runs, pinned to core 0 and limited to CPU_SECONDS (default 60) of CPU,

    prlimit --cpu=S -- taskset -c 0 minizinc --solver ID --output-mode dzn
        --output-objective -s -i [FLAGS] MODEL DATA

and prints one tab-separated line: solver, model, data, status (OPT: proven
optimal; SAT(killed): the CPU limit stopped it after a solution; NONE(killed):
before any), the last objective, the solver's nodes and failures (as its -s
lines report them; a killed run prints none; Huub reports no nodes), and the
CPU seconds of minizinc and its children (compiler and solver). The raw output
goes to $RUNS (default /tmp/sched-runs). csp is found through
MZN_SOLVER_PATH=$CSP_MSC (default /tmp/msc-sched, written by
`csp minizinc-setup --dir /tmp/msc-sched`), Huub through $LCG/solvers
(default /work/lcg-solvers).
"""
import os
import re
import resource
import subprocess
import sys

solver, model, data = sys.argv[1:4]
cpu = int(sys.argv[4]) if len(sys.argv) > 4 else 60
runs = os.environ.get("RUNS", "/tmp/sched-runs")
os.makedirs(runs, exist_ok=True)
env = dict(os.environ)
base = ["minizinc", "--output-mode", "dzn", "--output-objective", "-s", "-i"]
if solver == "csp" or solver.startswith("csp-"):
    env["MZN_SOLVER_PATH"] = os.environ.get("CSP_MSC", "/tmp/msc-sched")
    cmd = base + ["--solver", "org.csp.csp"]
    parts = solver[4:].split("+") if solver != "csp" else []
    # The engine is named either way: fzn-csp learns by default since
    # 2026-11-28, and "csp" is the ordinary engine (the issue's "before any
    # learning").
    cmd += ["--learning"] if "learning" in parts else ["--no-learning"]
    for part in parts:
        if part != "learning":
            cmd += ["--cumulative-strength", part]
elif solver == "gecode":
    cmd = base + ["--solver", "gecode"]
elif solver == "huub":
    env["MZN_SOLVER_PATH"] = os.path.join(os.environ.get("LCG", "/work/lcg-solvers"), "solvers")
    cmd = base + ["--solver", "solutions.huub"]
else:
    sys.exit(f"unknown solver {solver}")
cmd = ["prlimit", f"--cpu={cpu}", "--", "taskset", "-c", "0"] + cmd + [model, data]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
p = subprocess.run(cmd, env=env, capture_output=True, text=True)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
out = p.stdout
tag = f"{solver}__{os.path.basename(model)}__{os.path.basename(data)}"
with open(os.path.join(runs, tag + ".out"), "w") as f:
    f.write(out + "\n#STDERR\n" + p.stderr)
objs = re.findall(r"^_objective = (-?\d+);", out, re.M)
nodes = re.findall(r"%%%mzn-stat: nodes=(\d+)", out)
fails = re.findall(r"%%%mzn-stat: failures=(\d+)", out)
if "==========" in out:
    status = "OPT"
elif "=====UNSATISFIABLE" in out:
    status = "UNSAT"
else:
    status = ("SAT" if objs else "NONE") + "(killed)"
print("\t".join([solver, os.path.basename(model), os.path.basename(data), status,
                 objs[-1] if objs else "-", nodes[-1] if nodes else "-",
                 fails[-1] if fails else "-", f"{t:.2f}"]), flush=True)
