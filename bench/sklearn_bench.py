#!/usr/bin/python3
"""Time scikit-learn on the tasks in DIR/tasks.json (written by credlab-bench -gen).

Usage: /usr/bin/python3 bench/sklearn_bench.py DIR [--repeats R]

Prints one JSON line per task, like credlab-bench: the median of R timed
fits (fewer once a task's runs took --budget seconds), every time, the
validation RMSE (hold-out selection) and the test RMSE on the shared test
set. Only .fit() is timed.

  krls_fit     KernelRidge(kernel='rbf', gamma, alpha = lambda * n)
  nystrom_fit  Nystroem(gamma, n_components=m) + Ridge(alpha = lambda * n),
               without intercept like credlab
  select       GridSearchCV(KernelRidge, alpha = grid * n_train) over one
               PredefinedSplit hold-out (the rows credlab holds out), scored
               by RMSE; refit=True (sklearn's default) refits the best alpha
               on all n rows, and refit_s reports that part of the time.
  tune         model selection from scratch on the CSV split of a data set
               (synthetic, cadata, cpusmall, abalone): string columns one-hot
               encoded (levels of the training rows, sorted), features
               standardized and the target centered on the training rows
               (as credlab's default fit does), then GridSearchCV(
               KernelRidge(kernel="rbf")) over 5 gammas (sigma = 0.25 to 4 x
               the median distance between standardized rows) x 20 alphas
               (lambda x the rows of a fit), scored by MSE, refit=True;
               once with cv=5 (KFold, shuffled, seeded) and once with one
               seeded 20% PredefinedSplit hold-out. Only GridSearchCV.fit
               is timed. With --tune-grid-points K (K < 100), each search
               covers only K points of the grid (the 5 gammas x K/5 evenly
               spaced alphas) and its time is scaled by 100/K to estimate
               the full search ("estimated": true; every grid point is one
               KernelRidge fit of the same size, so time is linear in the
               points; the refit on all rows is counted once, and CPU time
               is scaled like wall time); its test RMSE is then that of the
               reduced search.
"""
import argparse
import json
import os
import statistics
import sys
import time
import warnings

import numpy as np

try:
    import sklearn
    from sklearn.kernel_approximation import Nystroem
    from sklearn.kernel_ridge import KernelRidge
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GridSearchCV, KFold, PredefinedSplit
    from sklearn.pipeline import make_pipeline
except ImportError:
    sys.exit("sklearn_bench.py: scikit-learn is not importable by /usr/bin/python3; "
             "install it with: apt-get install -y python3-sklearn")


def blas_info():
    """Name the BLAS numpy uses (threadpoolctl when available)."""
    try:
        import threadpoolctl
        libs = [d for d in threadpoolctl.threadpool_info() if d.get("user_api") == "blas"]
        if libs:
            d = libs[0]
            return "%s %s (%s kernels, %s threads, %s)" % (
                d.get("internal_api"), d.get("version"), d.get("architecture"),
                d.get("num_threads"), os.path.basename(d.get("filepath", "")))
    except Exception:  # noqa: BLE001 - best effort
        pass
    try:
        cfg = np.show_config(mode="dicts")
        b = cfg["Build Dependencies"]["blas"]
        return "%s %s" % (b.get("name"), b.get("version"))
    except Exception:  # noqa: BLE001
        return "unknown"


def rmse(p, y):
    return float(np.sqrt(np.mean((np.asarray(p) - y) ** 2)))


def timed(fn, repeats, budget):
    """Run fn repeats times, or fewer once the runs took budget seconds.

    Returns (median seconds, all times, CPU seconds and result of the
    median run)."""
    times, cpus, outs = [], [], []
    while len(times) < repeats and sum(times) < budget:
        c0 = time.process_time()
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        outs.append(out)
    order = sorted(range(len(times)), key=lambda i: times[i])
    med = order[(len(times) - 1) // 2]
    return times[med], times, cpus[med], outs[med]


def read_csv(path):
    """Return the header and the columns of a CSV file written by frames.WriteCSV."""
    import csv
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    return head, [[r[j] for r in rows[1:]] for j in range(len(head))]


def tune_data(d, t):
    """Load a tune task: one-hot, standardize and center as credlab does."""
    head, cols = read_csv(os.path.join(d, t["train_file"]))
    thead, tcols = read_csv(os.path.join(d, t["test_file"]))
    assert head == thead, (head, thead)
    onehot = set(t.get("one_hot") or [])
    xs, xts = [], []
    for name, c, tc in zip(head, cols, tcols):
        if name == t["target"]:
            y, yt = np.array(c, dtype=float), np.array(tc, dtype=float)
        elif name in onehot:
            for level in sorted(set(c)):
                xs.append(np.array([v == level for v in c], dtype=float))
                xts.append(np.array([v == level for v in tc], dtype=float))
        else:
            xs.append(np.array(c, dtype=float))
            xts.append(np.array(tc, dtype=float))
    x, xt = np.column_stack(xs), np.column_stack(xts)
    mean, sd = x.mean(axis=0), x.std(axis=0)
    keep = sd > 0
    x, xt = (x[:, keep] - mean[keep]) / sd[keep], (xt[:, keep] - mean[keep]) / sd[keep]
    return x, y, xt, yt


def median_distance(x):
    """Median distance between an evenly spaced sample of up to 256 rows."""
    n = len(x)
    k = min(n, 256)
    s = x[[i * n // k for i in range(k)]]
    d = np.sqrt(((s[:, None, :] - s[None, :, :]) ** 2).sum(-1))
    return float(np.median(d[np.triu_indices(k, 1)]))


def tune_search(x, y, t, cv, n_fit, points):
    med = median_distance(x)
    gammas = [1 / (2 * (f * med) ** 2) for f in t["sigma_factors"]]
    alphas = [l * n_fit for l in t["grid"]]
    if points:
        k = max(1, points // len(gammas))
        alphas = [alphas[round(i * (len(alphas) - 1) / max(k - 1, 1))] for i in range(k)]
    return GridSearchCV(KernelRidge(kernel="rbf"), {"gamma": gammas, "alpha": alphas}, cv=cv,
                        scoring="neg_mean_squared_error", refit=True).fit(x, y)


def run_tune(args, t, base, repeats):
    x, y, xt, yt = tune_data(args.dir, t)
    n = len(y)
    ybar = y.mean()
    fold = np.full(n, -1)
    fold[np.random.default_rng(7).permutation(n)[: n // 5]] = 0
    searches = [("GridSearchCV cv=5", KFold(5, shuffle=True, random_state=0), n - n // 5),
                ("GridSearchCV hold-out", PredefinedSplit(fold), n - n // 5)]
    if args.tune_holdout_only:
        searches = searches[1:]
    for method, cv, n_fit in searches:
        r = dict(base, task="tune", set=t["set"], n=n, method=method, load1=os.getloadavg()[0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r["seconds"], r["all"], r["cpu_s"], model = timed(
                lambda: tune_search(x, y - ybar, t, cv, n_fit, args.tune_grid_points), repeats, args.budget)
        r["refit_s"] = float(model.refit_time_)
        if args.tune_grid_points:
            full = len(t["sigma_factors"]) * len(t["grid"])
            pts = len(t["sigma_factors"]) * max(1, args.tune_grid_points // len(t["sigma_factors"]))
            # Scale the search, not the refit on all rows (one fit either way).
            full_s = (r["seconds"] - r["refit_s"]) * full / pts + r["refit_s"]
            r.update(estimated=True, grid_points=pts, measured_s=r["seconds"], measured_cpu_s=r["cpu_s"])
            r["cpu_s"] *= full_s / r["seconds"]
            r["seconds"] = full_s
        if caught:
            r["warnings"] = sorted({str(w.message)[:120] for w in caught})
        est = model.best_estimator_
        r["val_rmse"] = float(np.sqrt(-model.best_score_))
        r["lambda"] = est.alpha / n_fit
        r["sigma"] = float(np.sqrt(1 / (2 * est.gamma)))
        r["test_rmse"] = rmse(model.predict(xt) + ybar, yt)
        print(json.dumps(r), flush=True)
        del model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--repeats", type=int, default=0)
    ap.add_argument("--budget", type=float, default=120,
                    help="stop repeating a task once its runs took this many seconds")
    ap.add_argument("--only", default="", help="comma-separated tasks to run")
    ap.add_argument("--tune-grid-points", type=int, default=0,
                    help="tune: time only this many of the 100 grid points and scale the time (0: the full grid)")
    ap.add_argument("--tune-holdout-only", action="store_true",
                    help="tune: only the single hold-out search (cv=5 at n = 10000 takes hours on 2 cores)")
    args = ap.parse_args()
    with open(os.path.join(args.dir, "tasks.json")) as f:
        spec = json.load(f)
    repeats = args.repeats or spec["repeats"]
    d = spec["d"]
    x_all = np.fromfile(os.path.join(args.dir, "train_x.f64"), dtype="<f8").reshape(-1, d)
    y_all = np.fromfile(os.path.join(args.dir, "train_y.f64"), dtype="<f8")
    x_test = np.fromfile(os.path.join(args.dir, "test_x.f64"), dtype="<f8").reshape(-1, d)
    y_test = np.fromfile(os.path.join(args.dir, "test_y.f64"), dtype="<f8")
    gamma = spec["gamma"]
    only = set(filter(None, args.only.split(",")))
    base = {"side": "sklearn", "blas": blas_info(),
            "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE", ""),
            "sklearn": sklearn.__version__, "numpy": np.__version__}

    for t in spec["tasks"]:
        if only and t["name"] not in only:
            continue
        if t["name"] == "tune":
            run_tune(args, t, base, repeats)
            continue
        n = t["n"]
        x, y = x_all[:n], y_all[:n]
        r = dict(base, task=t["name"], n=n, load1=os.getloadavg()[0])
        if t["name"] == "krls_fit":
            r["method"] = "KernelRidge"

            def fit():
                return KernelRidge(alpha=t["lambda"] * n, kernel="rbf", gamma=gamma).fit(x, y)
        elif t["name"] == "nystrom_fit":
            r["method"] = "Nystroem+Ridge"
            r["m"] = t["m"]

            def fit():
                return make_pipeline(
                    Nystroem(kernel="rbf", gamma=gamma, n_components=t["m"], random_state=0),
                    Ridge(alpha=t["lambda"] * n, fit_intercept=False)).fit(x, y)
        elif t["name"] == "select":
            r["method"] = "GridSearchCV"
            val = np.fromfile(os.path.join(args.dir, t["val_file"]), dtype="<i8")
            fold = np.full(n, -1)
            fold[val] = 0
            alphas = [l * t["n_train"] for l in t["grid"]]

            def fit():
                return GridSearchCV(KernelRidge(kernel="rbf", gamma=gamma), {"alpha": alphas},
                                    cv=PredefinedSplit(fold), scoring="neg_root_mean_squared_error",
                                    refit=True).fit(x, y)
        else:
            sys.exit("sklearn_bench.py: unknown task %r" % t["name"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r["seconds"], r["all"], r["cpu_s"], model = timed(fit, repeats, args.budget)
        if caught:
            r["warnings"] = sorted({str(w.message)[:120] for w in caught})
        if t["name"] == "select":
            r["val_rmse"] = -float(model.best_score_)
            r["lambda"] = model.best_params_["alpha"] / t["n_train"]
            r["refit_s"] = float(model.refit_time_)
        r["test_rmse"] = rmse(model.predict(x_test), y_test)
        print(json.dumps(r), flush=True)
        del model


if __name__ == "__main__":
    main()
