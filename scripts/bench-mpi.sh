#!/usr/bin/env bash
# The MPI path against threads on one machine: `mpirun -np NP csp-mpi
# queens N --count` (default NP = 2: rank 0 hands out the work and counts in
# a thread of its own, rank 1 counts) against `csp queens N --count
# --threads 2`, and `mpirun -np NP csp-mpi queens 4 --count` (nothing to
# count: the cost of launching and finalising the MPI job). Runs
# interleaved (one of each, then the next round), wall and CPU time (user +
# system of the whole process tree) from GNU time; the count line of
# csp-mpi (time from its start of counting to its end) is kept too. Prints
# one line per run and, per program, the best and the median wall and CPU
# time.
#
#   scripts/bench-mpi.sh [-r ROUNDS] [-n NP] N
#
# Needs target/release/csp and target/release/csp-mpi:
#   cargo build --release -p csp-toolkit -p csp-mpi --features csp-mpi/mpi
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5 np=2
while getopts "r:n:" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    n) np=$OPTARG ;;
    *) echo "usage: bench-mpi.sh [-r ROUNDS] [-n NP] N" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 ]] || { echo "usage: bench-mpi.sh [-r ROUNDS] [-n NP] N" >&2; exit 2; }
n=$1
mpirun=(mpirun --allow-run-as-root --oversubscribe -np "$np")
csp=target/release/csp
mpi=target/release/csp-mpi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A walls cpus
echo "np: $np; load: $(uptime)"
for ((r = 1; r <= rounds; r++)); do
  for prog in threads mpi launch; do
    case $prog in
      threads) cmd=("$csp" queens "$n" --count --threads 2) ;;
      mpi) cmd=("${mpirun[@]}" "$mpi" queens "$n" --count --progress 0) ;;
      launch) cmd=("${mpirun[@]}" "$mpi" queens 4 --count --progress 0) ;;
    esac
    /usr/bin/time -f "%e %U %S" -o "$out/time" "${cmd[@]}" >"$out/stdout" 2>"$out/stderr"
    read -r wall user sys <"$out/time"
    count=$(head -n 1 "$out/stdout")
    inner=$(grep -o '[0-9.]* s, [0-9]* workers' "$out/stderr" || true)
    printf '%-8s round %d: wall %s s, cpu %.2f s, count %s %s\n' \
      "$prog" "$r" "$wall" "$(echo "$user + $sys" | bc)" "$count" "${inner:+(counting $inner)}"
    walls[$prog]+="$wall "
    cpus[$prog]+="$(printf "%.2f" "$(echo "$user + $sys" | bc)") "
  done
done
echo "load: $(uptime)"
stat() { # best and median of a list of numbers
  local sorted
  sorted=$(tr ' ' '\n' <<<"$1" | grep . | sort -g)
  echo "best $(head -n 1 <<<"$sorted") s, median $(sed -n "$(((rounds + 1) / 2))p" <<<"$sorted") s"
}
for prog in threads mpi launch; do
  echo "$prog: wall $(stat "${walls[$prog]}"); cpu $(stat "${cpus[$prog]}")"
done
