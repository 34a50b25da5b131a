#!/usr/bin/env bash
# Side-by-side timing of credlab and scikit-learn on identical data.
#
#   bench/compare.sh [--quick] [--openblas] [--repeats R] [--budget S] [--keep DIR]
#                    [--tasks LIST] [--tune-sizes LIST] [--tune-sets LIST] [--tune-grid-points K]
#
# --quick     small sizes (CI smoke test, about a minute)
# --openblas  also build credlab with -tags openblas (needs cgo and
#             libopenblas-dev) and run it twice: with OPENBLAS_CORETYPE as
#             exported and with it unset (scikit-learn always runs both ways)
# --repeats R timed fits per task (default 3); each side reports the median
# --budget S  stop repeating a task once its runs took S seconds (default 120)
# --keep DIR  keep the data and raw results in DIR instead of a temp dir
# --tasks LIST       tasks to run (default krls_fit,nystrom_fit,select,tune)
# --tune-sizes LIST  training sizes of the tune task (default 5000,10000;
#                    --quick: 500)
# --tune-sets LIST   data sets of the tune task (default synthetic, and
#                    cadata, cpusmall, abalone when ../shared/data has them;
#                    --quick: synthetic and abalone)
# --tune-grid-points K  scikit-learn times K of the 100 grid points of each
#                    search and scales the time by 100/K (marked "est.")
#
# Default sizes: KRLS fit n = 5000, 10000 vs KernelRidge; NKRLS (fixed
# lambda) and NYTRO (hold-out selection) n = 100000, m = 1000 vs
# Nystroem(1000) + Ridge; 20-value lambda search at n = 5000 (KRLS, NKRLS,
# NYTRO, EarlyStopping with hold-out selection) vs GridSearchCV(KernelRidge)
# with the same single 20% hold-out split; tune: credlab's default fit
# (automatic method, sigma and lambda) against GridSearchCV(KernelRidge)
# over 5 gammas x 20 alphas with cv=5 and with one 20% hold-out, on a
# seeded train/test split written to CSV files that both sides read.
# Installs nothing.
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$self")/.."

PY=/usr/bin/python3
quick=() openblas=0 gorep=() pyrep=() keep="" tasks="krls_fit,nystrom_fit,select,tune" tunesizes="" tunesets=""
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=(-quick) ;;
	--openblas) openblas=1 ;;
	--repeats) gorep+=(-repeats "$2") pyrep+=(--repeats "$2"); shift ;;
	--budget) gorep+=(-budget "$2") pyrep+=(--budget "$2"); shift ;;
	--keep) keep="$2"; shift ;;
	--tasks) tasks="$2"; shift ;;
	--tune-sizes) tunesizes="$2"; shift ;;
	--tune-sets) tunesets="$2"; shift ;;
	--tune-grid-points) pyrep+=(--tune-grid-points "$2"); shift ;;
	-h | --help) sed -n '2,34p' "$self"; exit 0 ;;
	*) echo "compare.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done

if ! "$PY" -c 'import sklearn' 2>/dev/null; then
	echo "compare.sh: scikit-learn is not importable by $PY." >&2
	echo "Install Debian's package with: apt-get install -y python3-sklearn" >&2
	exit 1
fi
if [ "$openblas" = 1 ]; then
	if [ ! -f credlab/blas_openblas.go ]; then
		echo "compare.sh: credlab/blas_openblas.go is missing; --openblas needs the openblas build tag" >&2
		exit 1
	fi
	if ! dpkg -s libopenblas-dev >/dev/null 2>&1; then
		echo "compare.sh: --openblas needs OpenBLAS: apt-get install -y libopenblas-dev" >&2
		exit 1
	fi
fi

if [ -n "$keep" ]; then
	work="$keep"
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
results="$work/results.jsonl"
: >"$results"

echo "== machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "== $(go version), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>}" >&2
go build -o "$work/credlab-bench" ./bench/cmd/credlab-bench
if [ "$openblas" = 1 ]; then
	go build -tags openblas -o "$work/credlab-bench-openblas" ./bench/cmd/credlab-bench
fi
shared="$(pwd)/../shared/data"
if [ -z "$tunesets" ]; then
	tunesets=synthetic
	if [ -f "$shared/abalone/abalone.data" ]; then
		if [ ${#quick[@]} -gt 0 ]; then
			tunesets=synthetic,abalone
		else
			tunesets=synthetic,cadata,cpusmall,abalone
		fi
	else
		echo "== $shared not found: the tune task runs on the synthetic set only" >&2
	fi
fi
gen=(-tune-sets "$tunesets")
[ -d "$shared" ] && gen+=(-shared "$shared")
[ -n "$tunesizes" ] && gen+=(-tune-sizes "$tunesizes")
"$work/credlab-bench" -gen -dir "$work/data" "${quick[@]}" "${gen[@]}"

# run CONFIG COMMAND...: append COMMAND's JSON lines, labelled, to results.
run() {
	local cfg="$1"
	shift
	echo "== $cfg: $*" >&2
	"$@" | sed -u "s/^{/{\"config\": \"$cfg\", /" | tee -a "$results" |
		"$PY" -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    task = r["task"] + ("/" + r["set"] if r.get("set") else "")
    print("   %-14s n=%-6d %-22s %8.3f s  (load %.1f)" % (task, r["n"], r["method"], r["seconds"], r["load1"]),
          file=sys.stderr, flush=True)
'
}

# Task by task, so that both sides of a ratio see similar machine load.
for task in ${tasks//,/ }; do
	run go "$work/credlab-bench" -dir "$work/data" -task "$task" "${gorep[@]}"
	run sklearn-env "$PY" bench/sklearn_bench.py "$work/data" --only "$task" "${pyrep[@]}"
	run sklearn-unset env -u OPENBLAS_CORETYPE "$PY" bench/sklearn_bench.py "$work/data" --only "$task" "${pyrep[@]}"
	if [ "$openblas" = 1 ]; then
		run openblas-env "$work/credlab-bench-openblas" -dir "$work/data" -task "$task" "${gorep[@]}"
		run openblas-unset env -u OPENBLAS_CORETYPE "$work/credlab-bench-openblas" -dir "$work/data" -task "$task" "${gorep[@]}"
	fi
done
echo "== load after the runs: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

"$PY" bench/table.py "$results"
