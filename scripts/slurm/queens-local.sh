#!/usr/bin/env bash
# Runs the same slice and merge scripts as a Slurm submission, one task after
# another on this machine: a dry run of queens-submit.sh without Slurm.
#
#   scripts/slurm/queens-local.sh N D TASKS [OUT]
set -euo pipefail
if [[ $# -lt 3 || $# -gt 4 ]]; then
  echo "usage: queens-local.sh N D TASKS [OUT]" >&2
  exit 2
fi
n=$1 d=$2 workers=$3
out=$(realpath -m "${4:-queens-$n-d$d}")
here=$(cd "$(dirname "$0")" && pwd)
csp="${CSP:-csp}"
total=$("$csp" queens "$n" --count --split "$d" | head -n 1 | awk '{print $2}')
per=$(( (total + workers - 1) / workers ))
(( per >= 1 )) || per=1
tasks=$(( (total + per - 1) / per ))
for ((t = 0; t < tasks; t++)); do
  SLURM_ARRAY_TASK_ID=$t N=$n D=$d PER_TASK=$per OUT=$out CSP=$csp \
    bash "$here/queens-slice.sbatch"
done
OUT=$out CSP=$csp bash "$here/queens-merge.sbatch"
