#!/usr/bin/python3
"""Random-feature CRED scores with scikit-learn and numpy.

The same computation as credlab.FeatureLeverageScores with RandomFourier
features (the CRED paper's Algorithm 2, line 3): for phi_j = RBFSampler
features of the pool rows,

    s_j = phi_j^T (Phi^T Phi / N + lambda_q I)^-1 phi_j,

streamed over the pool in blocks so that the N x D feature matrix is never
held: pass 1 accumulates Phi^T Phi block by block (X_b @ W inside
RBFSampler.transform, then Phi_b.T @ Phi_b), then one Cholesky factor L,
and pass 2 recomputes each block's features and solves L Z = Phi_b^T with a
triangular solve; s = column sums of Z^2.

    /usr/bin/python3 bench/cred_scores_sklearn.py [--n 100000 1000000]
        [--d 50] [--features 1000] [--block 4096] [--repeats 1]

Prints one JSON line per size: {"task": "cred-scores", "n": N, "d": d,
"D": D, "seconds": median time, "times": [...], "gflops": ..., "deff": ...}.
The data are uniform on [-1, 1]^d with a fixed seed, like credlab's
SmoothRegression (not the same numbers: only the time is compared). Flops
are counted as in credlab's benchmark: 2 N D^2 + 2 * 2 N d D, although
numpy's Phi.T @ Phi is a full GEMM (2 N D^2 on its own).
"""

import argparse
import json
import sys
import time

import numpy as np
import scipy.linalg
from sklearn.kernel_approximation import RBFSampler


def scores(x, sampler, lam, block):
    n = x.shape[0]
    dim = sampler.n_components
    sigma = np.zeros((dim, dim))
    for lo in range(0, n, block):
        phi = sampler.transform(x[lo:lo + block])
        sigma += phi.T @ phi
    sigma /= n
    sigma[np.diag_indices_from(sigma)] += lam
    chol = np.linalg.cholesky(sigma)  # lower: sigma = L L^T
    s = np.empty(n)
    for lo in range(0, n, block):
        phi = sampler.transform(x[lo:lo + block])
        z = scipy.linalg.solve_triangular(chol, phi.T, lower=True, check_finite=False)
        s[lo:lo + block] = np.einsum("ij,ij->j", z, z)
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, nargs="+", default=[100000, 1000000])
    ap.add_argument("--d", type=int, default=50)
    ap.add_argument("--features", type=int, default=1000)
    ap.add_argument("--sigma", type=float, default=7.5)
    ap.add_argument("--lambda-q", type=float, default=1e-6)
    ap.add_argument("--block", type=int, default=4096)
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()

    for n in args.n:
        rng = np.random.default_rng(1)
        x = rng.uniform(-1, 1, size=(n, args.d))
        sampler = RBFSampler(gamma=1 / (2 * args.sigma**2), n_components=args.features, random_state=1)
        sampler.fit(x[:1])
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            s = scores(x, sampler, args.lambda_q, args.block)
            times.append(time.perf_counter() - t0)
        sec = float(np.median(times))
        dim = args.features
        flops = 2 * n * dim * dim + 4 * n * args.d * dim
        print(json.dumps({
            "task": "cred-scores", "n": n, "d": args.d, "D": dim, "block": args.block,
            "seconds": sec, "times": times, "gflops": flops / sec / 1e9,
            "deff": float(s.sum() / n),
        }), flush=True)
        del x
    return 0


if __name__ == "__main__":
    sys.exit(main())
