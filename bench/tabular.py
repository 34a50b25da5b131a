#!/usr/bin/python3
"""The default fit against what a tabular user would pick instead.

    bench/tabular.py OUT [--sets a,b] [--credlab BIN] [--max-train N] [--quick]

For each table (the staged regression sets of ../shared/data and synthetic
tables where only some columns matter; not by default: synth-sum, a total of
two count columns, synth-steps, a target that jumps at thresholds of discrete
columns, and synth-arm, a smooth low-noise target whose learning curve keeps
falling) it writes a seeded 75/25 train/test
split to CSV, runs `credlab fit` with no flag but -target (the default fit),
with -relevance off -transform off (one shared kernel scale on the columns
as they are), then scikit-learn's
HistGradientBoostingRegressor() and Nystroem(1000) + RidgeCV on the same
files, and prints test RMSE in units of the target's standard deviation,
the fit times and the ratio of the default fit to the best peer. Ratios are
what to read: the sides run one after another on the same machine.
"""
import argparse, csv, gzip, json, math, os, subprocess, sys, time

import numpy as np
from scipy.io import arff
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import RidgeCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

DATA = os.environ.get("CREDLAB_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))


def arff_xy(path, target):
    raw, meta = arff.loadarff(path)
    names = [n for n in meta.names() if n != target]
    x = np.column_stack([raw[n].astype(float) for n in names])
    return x, raw[target].astype(float)


def load(name, rng):
    if name == "cadata":
        return arff_xy(os.path.join(DATA, "cadata/cal_housing.arff"), "medianHouseValue")
    if name == "cpusmall":
        return arff_xy(os.path.join(DATA, "cpusmall/cpu_small.arff"), "usr")
    if name == "abalone":
        rows = [l.strip().split(",") for l in open(os.path.join(DATA, "abalone/abalone.data")) if l.strip()]
        sex = np.array([[r[0] == s for s in "MFI"] for r in rows], float)
        num = np.array([[float(v) for v in r[1:]] for r in rows])
        return np.column_stack([sex, num[:, :-1]]), num[:, -1]
    if name == "space_ga":
        with open(os.path.join(DATA, "space_ga/space_ga.csv")) as f:
            r = list(csv.reader(f))
        a = np.array(r[1:], float)
        return a[:, :-1], a[:, -1]
    if name == "synth-5of30":  # 5 informative columns among 30
        x = rng.standard_normal((8000, 30))
        y = np.sin(1.5 * x[:, 0]) + x[:, 1] * x[:, 2] + 0.5 * x[:, 3] ** 2 + np.tanh(x[:, 4]) + 0.1 * rng.standard_normal(8000)
        return x, y
    if name == "synth-2of17":  # a smooth function of 2 columns among 17
        x = rng.uniform(-2, 2, (6000, 17))
        y = np.exp(-((x[:, 3] ** 2 + x[:, 11] ** 2))) * 3 + np.sin(2 * x[:, 3]) + 0.05 * rng.standard_normal(6000)
        return x, y
    if name == "synth-all8":  # every column matters
        x = rng.standard_normal((6000, 8))
        y = np.sin(x.sum(axis=1) / 2) + 0.1 * rng.standard_normal(6000)
        return x, y
    if name == "synth-sum":  # a total of two skewed count columns, which other columns drive (as a rental count)
        n = 12000
        hr = rng.integers(0, 24, n).astype(float)
        temp = rng.uniform(0, 1, n)
        hum = rng.uniform(0.2, 1, n)
        work = (rng.uniform(size=n) < 0.7).astype(float)
        day = rng.integers(0, 7, n).astype(float)
        season = rng.integers(1, 5, n).astype(float)
        peak = np.exp(-((hr - 8) ** 2) / 4) + np.exp(-((hr - 17) ** 2) / 6)
        a = rng.poisson(np.exp(1 + 2 * temp - hum + (1 - work) * np.sin(np.pi * hr / 24) * 2))
        b = rng.poisson(np.exp(2 + 2.5 * work * peak + temp - 0.5 * hum + 0.1 * season))
        x = np.column_stack([np.arange(n, dtype=float), season, rng.integers(0, 2, n), rng.integers(1, 13, n), hr,
                             (rng.uniform(size=n) < 0.03).astype(float), day, work, rng.integers(1, 4, n), temp,
                             temp + 0.05 * rng.standard_normal(n), hum, rng.uniform(0, 0.8, n), a, b])
        return x, (a + b).astype(float)
    if name == "synth-arm":  # the end of an 8-link planar arm, its distance to a point: smooth, 2% noise, a falling learning curve
        n = 40000
        th = rng.uniform(0.5, 1.2, (n, 8))
        ang = np.cumsum(th, axis=1)
        links = np.linspace(1, 0.4, 8)
        ex, ey = (links * np.cos(ang)).sum(axis=1), (links * np.sin(ang)).sum(axis=1)
        y = np.sqrt((ex - 1.0) ** 2 + (ey - 2.0) ** 2)
        return th, y + 0.02 * y.std() * rng.standard_normal(n)
    if name == "synth-steps":  # discrete columns, most often 0, and a target that jumps at thresholds
        n = 8000
        x = np.where(rng.uniform(size=(n, 26)) < 0.6, 0.0, rng.integers(1, 11, (n, 26)) * 10.0)
        y = (20 * (x[:, 0] > 35) + 15 * (x[:, 1] > 0) * (x[:, 2] > 55) + 10 * np.minimum(x[:, 3], 60) / 60
             + 0.004 * x[:, 4] * x[:, 5] + 5 * (x[:, 6] > 75) + 2 * rng.standard_normal(n))
        return x, y
    raise SystemExit("unknown set " + name)


def write(path, x, y):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["x%d" % j for j in range(x.shape[1])] + ["y"])
        for xi, yi in zip(x, y):
            w.writerow(["%.17g" % v for v in xi] + ["%.17g" % yi])


def credlab(binary, d, extra):
    model = os.path.join(d, "model.json")
    pred = os.path.join(d, "pred.csv")
    t0 = time.time()
    r = subprocess.run([binary, "fit", "-data", os.path.join(d, "train.csv"), "-target", "y", "-out", model, "-quiet"] + extra,
                       capture_output=True, text=True)
    secs = time.time() - t0
    if r.returncode != 0:
        print(r.stdout, r.stderr, file=sys.stderr)
        return float("nan"), secs, ""
    subprocess.run([binary, "predict", "-model", model, "-data", os.path.join(d, "test.csv"), "-out", pred, "-quiet"],
                   check=True, capture_output=True)
    with open(pred) as f:
        rows = list(csv.DictReader(f))
    p = np.array([float(r["prediction"]) for r in rows])
    y = np.array([float(r["y"]) for r in rows])
    rel = ""
    for line in r.stdout.splitlines():
        if line.startswith(("relevance", "skewed columns", "warning: the time budget")):
            rel = (rel + " | " if rel else "") + line[:160]
    return float(np.sqrt(np.mean((p - y) ** 2))), secs, rel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--sets", default="cadata,cpusmall,abalone,space_ga,synth-5of30,synth-2of17,synth-all8")
    ap.add_argument("--credlab", default="credlab")
    ap.add_argument("--max-train", type=int, default=0, help="cap the training rows (0: 75%% of the rows)")
    ap.add_argument("--no-iso", action="store_true", help="skip the -relevance off -transform off run")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    res = []
    print("%-12s %6s %3s | %-15s %-15s %-14s %-14s | %s" % ("set", "train", "d", "default fit", "one scale", "boosting", "Nystroem+Ridge", "default/best peer"))
    for name in a.sets.split(","):
        rng = np.random.default_rng(1)
        x, y = load(name, rng)
        perm = rng.permutation(len(y))
        ntr = int(0.75 * len(y))
        tr, te = perm[:ntr], perm[ntr:]
        if a.max_train:
            tr = tr[:a.max_train]
        d = os.path.join(a.out, name)
        os.makedirs(d, exist_ok=True)
        write(os.path.join(d, "train.csv"), x[tr], y[tr])
        write(os.path.join(d, "test.csv"), x[te], y[te])
        sd = float(np.std(y[te]))
        row = {"set": name, "train": len(tr), "d": x.shape[1]}
        row["credlab"], row["credlab_s"], row["relevance"] = credlab(a.credlab, d, [])
        if not a.no_iso:
            row["iso"], row["iso_s"], _ = credlab(a.credlab, d, ["-relevance", "off", "-transform", "off", "-time", "-1s"])
        else:
            row["iso"], row["iso_s"] = float("nan"), 0
        for key, est in (("hgb", HistGradientBoostingRegressor()),
                         ("nys", make_pipeline(StandardScaler(), Nystroem(n_components=1000, random_state=0), RidgeCV(alphas=np.logspace(-6, 3, 10))))):
            t0 = time.time()
            est.fit(x[tr], y[tr])
            row[key + "_s"] = time.time() - t0
            row[key] = float(np.sqrt(np.mean((est.predict(x[te]) - y[te]) ** 2)))
        for k in ("credlab", "iso", "hgb", "nys"):
            row[k] /= sd
        row["ratio"] = row["credlab"] / min(row["hgb"], row["nys"])
        res.append(row)
        print("%-12s %6d %3d | %.4f %6.1fs  %.4f %6.1fs  %.4f %5.1fs  %.4f %5.1fs | %.3f  %s" % (
            name, row["train"], row["d"], row["credlab"], row["credlab_s"], row["iso"], row["iso_s"],
            row["hgb"], row["hgb_s"], row["nys"], row["nys_s"], row["ratio"], row["relevance"]), flush=True)
    g = math.exp(sum(math.log(r["ratio"]) for r in res) / len(res))
    print("geometric mean, default fit / best peer: %.3f" % g)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
