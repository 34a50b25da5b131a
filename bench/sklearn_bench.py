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
    from sklearn.model_selection import GridSearchCV, PredefinedSplit
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--repeats", type=int, default=0)
    ap.add_argument("--budget", type=float, default=120,
                    help="stop repeating a task once its runs took this many seconds")
    ap.add_argument("--only", default="", help="comma-separated tasks to run")
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
