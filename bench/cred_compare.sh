#!/usr/bin/env bash
# Random-feature CRED scores: credlab vs scikit-learn + numpy, in one run.
#
#   bench/cred_compare.sh [--big] [--openblas] [--repeats R]
#
# Both sides compute s_j = phi_j^T (Phi^T Phi/N + lambda_q I)^-1 phi_j for
# D = 1000 random Fourier features of N points in d = 50 dimensions,
# streaming over the pool in blocks of 4096 rows (credlab:
# BenchmarkFeatureLeverageScores in credlab/cred_bench_test.go; Python:
# bench/cred_scores_sklearn.py with RBFSampler, X @ W, Phi.T @ Phi,
# Cholesky and a triangular solve).
#
# --big       also N = 1000000 (several minutes per side); default N = 100000
# --openblas  also build credlab with -tags openblas and run it, and the
#             Python side, twice: with OPENBLAS_CORETYPE as exported and
#             with it unset
# --repeats R timed runs per side and size (default 1); medians are shown
#
# Prints each side's seconds and GFLOP/s (2 N D^2 + 4 N d D flops), the
# pure-Go gonum Mul rate of the same shape (N x D times D x D) from the same
# test binary, and the ratio time(credlab) / time(sklearn). Installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=/usr/bin/python3
big=0 openblas=0 repeats=1
while [ $# -gt 0 ]; do
	case "$1" in
	--big) big=1 ;;
	--openblas) openblas=1 ;;
	--repeats) repeats="$2"; shift ;;
	-h | --help) sed -n '2,21p' "$0"; exit 0 ;;
	*) echo "cred_compare.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done

if ! "$PY" -c 'import sklearn, scipy' 2>/dev/null; then
	echo "cred_compare.sh: scikit-learn and scipy are not importable by $PY." >&2
	echo "Install Debian's package with: apt-get install -y python3-sklearn" >&2
	exit 1
fi
if [ "$openblas" = 1 ] && ! dpkg -s libopenblas-dev >/dev/null 2>&1; then
	echo "cred_compare.sh: --openblas needs OpenBLAS: apt-get install -y libopenblas-dev" >&2
	exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sizes=(100000)
# The gonum Mul reference runs at N = 100000 only: its rate does not depend
# on N (at N = 1000000 the benchmark would multiply in row blocks anyway).
patterns=('FeatureLeverageScores/(rf|gemm)/N=100000$')
if [ "$big" = 1 ]; then
	sizes+=(1000000)
	patterns+=('FeatureLeverageScores/rf/N=1000000$')
fi

echo "== machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "== $(go version), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>}" >&2
go test -c -o "$work/gonum.test" ./credlab/
if [ "$openblas" = 1 ]; then
	go test -c -tags openblas -o "$work/openblas.test" ./credlab/
fi

results="$work/results.txt"
: >"$results"

# gobench CONFIG COMMAND...: run the Go benchmarks R times; record
# "CONFIG what N seconds GFLOP/s peak-MB".
gobench() {
	local cfg="$1"
	shift
	for _ in $(seq "$repeats"); do
		for pattern in "${patterns[@]}"; do
			echo "== $cfg: $* -test.bench '$pattern'" >&2
			"$@" -test.run '^$' -test.bench "$pattern" -test.benchtime 1x
		done |
			awk -v cfg="$cfg" '/^BenchmarkFeatureLeverageScores/ {
				split($1, p, "/"); n = p[3]; sub(/^N=/, "", n); sub(/-[0-9]+$/, "", n)
				peak = "-"
				for (i = 4; i < NF; i++) {
					if ($(i+1) == "GFLOP/s") g = $i
					if ($(i+1) == "peak-heap-MB") peak = $i
				}
				printf "%s %s %s %.3f %s %s\n", cfg, p[2], n, $3 / 1e9, g, peak
			}' | tee -a "$results" >&2
	done
}

# pybench CONFIG [env...]: run the Python side; record "CONFIG sklearn N seconds GFLOP/s -".
pybench() {
	local cfg="$1"
	shift
	echo "== $cfg: $* $PY bench/cred_scores_sklearn.py --n ${sizes[*]} --repeats $repeats" >&2
	"$@" "$PY" bench/cred_scores_sklearn.py --n "${sizes[@]}" --repeats "$repeats" |
		"$PY" -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print("%s sklearn %d %.3f %.3f -" % (sys.argv[1], r["n"], r["seconds"], r["gflops"]), flush=True)
' "$cfg" | tee -a "$results" >&2
}

CREDLAB_BIG=$big gobench gonum env "$work/gonum.test"
pybench sklearn-env env
if [ "$openblas" = 1 ]; then
	CREDLAB_BIG=$big gobench openblas-env env "$work/openblas.test"
	CREDLAB_BIG=$big gobench openblas-unset env -u OPENBLAS_CORETYPE "$work/openblas.test"
	pybench sklearn-unset env -u OPENBLAS_CORETYPE
fi
echo "== load after the runs: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# Table: medians per (config, what, N); ratios against sklearn with the
# same OPENBLAS_CORETYPE setting.
"$PY" - "$results" <<'EOF'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    cfg, what, n, sec, gf, peak = line.split()
    rows[(cfg, what, int(n))].append((float(sec), float(gf), peak))
print()
print("| side | N | scores (s) | GFLOP/s | peak heap (MB) | vs sklearn | mat.Dense Mul, same binary (GFLOP/s) |")
print("|---|---:|---:|---:|---:|---:|---:|")
sizes = sorted({k[2] for k in rows})
for n in sizes:
    for cfg, ref in (("gonum", "sklearn-env"), ("sklearn-env", None), ("openblas-env", "sklearn-env"),
                     ("openblas-unset", "sklearn-unset"), ("sklearn-unset", None)):
        what = "sklearn" if cfg.startswith("sklearn") else "rf"
        v = rows.get((cfg, what, n))
        if not v:
            continue
        sec = statistics.median(x[0] for x in v)
        gf = statistics.median(x[1] for x in v)
        peak = v[0][2]
        ratio = "-"
        if ref and rows.get((ref, "sklearn", n)):
            ratio = "%.2fx" % (sec / statistics.median(x[0] for x in rows[(ref, "sklearn", n)]))
        g = rows.get((cfg, "gemm", n)) or rows.get((cfg, "gemm", sizes[0]))
        gemm = "%.2f" % statistics.median(x[1] for x in g) if g else "-"
        label = {"gonum": "credlab (pure Go)", "openblas-env": "credlab (OpenBLAS, CORETYPE set)",
                 "openblas-unset": "credlab (OpenBLAS, CORETYPE unset)",
                 "sklearn-env": "sklearn+numpy (CORETYPE set)", "sklearn-unset": "sklearn+numpy (CORETYPE unset)"}[cfg]
        print("| %s | %d | %.1f | %.2f | %s | %s | %s |" % (label, n, sec, gf, peak, ratio, gemm))
print()
print("vs sklearn = credlab time / sklearn time with the same OPENBLAS_CORETYPE setting (> 1: credlab slower).")
EOF
