#!/usr/bin/python3
"""One-shot labeling as a person runs it: select -> label -> fit -> test RMSE.

    bench/oneshot.py OUT [--sets a,b] [--budgets 512,2048] [--seeds 3] [--bin NAME=PATH ...]

For each table (bench/tabular.py's loader) and seed it writes a seeded 80/20
pool/test split to CSV. For each budget it runs, with each binary given,
`credlab select -pool pool.csv -target y -budget B -seed S` with no other flag
(the default method, design and scoring), `credlab label` from the pool, and
`credlab fit` with no flag but -target and -test; the same with
`-method uniform` from the first binary is the reference. It prints test RMSE
over uniform labeling's, geometric mean over the seeds, per table and budget.
"""
import argparse, csv, math, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(__file__))
import numpy as np
from tabular import load, write


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("%s: exit %d\n%s" % (" ".join(cmd), r.returncode, r.stderr))
    return r.stdout + r.stderr


def labeled_rmse(binary, d, tag, budget, seed, method):
    chosen, lab = os.path.join(d, tag + "-chosen.csv"), os.path.join(d, tag + "-labeled.csv")
    sel = [binary, "select", "-pool", os.path.join(d, "pool.csv"), "-target", "y", "-budget", str(budget),
           "-seed", str(seed), "-quiet", "-out", chosen]
    if method:
        sel += ["-method", method]
    run(sel)
    run([binary, "label", "-in", chosen, "-from", os.path.join(d, "pool.csv"), "-target", "y", "-out", lab, "-quiet"])
    out = run([binary, "fit", "-data", lab, "-target", "y", "-test", os.path.join(d, "test.csv"), "-out",
               os.path.join(d, tag + "-model.json")])
    m = re.search(r"^test .*: RMSE (\S+)", out, re.M)
    with open(chosen) as f:
        distinct = len(set(r["row"] for r in csv.DictReader(f)))
    return float(m.group(1)), distinct


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--sets", default="cadata,cpusmall,abalone,space_ga")
    ap.add_argument("--budgets", default="512,2048")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--bin", action="append", default=[], help="NAME=PATH of a credlab binary (default credlab)")
    a = ap.parse_args()
    bins = [b.split("=", 1) for b in a.bin] or [["credlab", "credlab"]]
    ratios = {}
    for name in a.sets.split(","):
        for seed in range(1, a.seeds + 1):
            rng = np.random.default_rng(seed)
            x, y = load(name, rng)
            perm = rng.permutation(len(y))
            npool = int(0.8 * len(y))
            d = os.path.join(a.out, "%s-%d" % (name, seed))
            os.makedirs(d, exist_ok=True)
            write(os.path.join(d, "pool.csv"), x[perm[:npool]], y[perm[:npool]])
            write(os.path.join(d, "test.csv"), x[perm[npool:]], y[perm[npool:]])
            for b in map(int, a.budgets.split(",")):
                if b > npool:
                    continue
                ru, _ = labeled_rmse(bins[0][1], d, "uniform-%d" % b, b, seed, "uniform")
                line = "%-9s seed %d budget %5d: uniform %.5g" % (name, seed, b, ru)
                for tag, binary in bins:
                    r, distinct = labeled_rmse(binary, d, "%s-%d" % (tag, b), b, seed, "")
                    ratios.setdefault((name, b, tag), []).append(r / ru)
                    line += " | %s %.5g (%.3f, %d distinct rows)" % (tag, r, r / ru, distinct)
                print(line, flush=True)
    print("\ntest RMSE over uniform labeling's, geometric mean over seeds")
    for (name, b, tag), v in sorted(ratios.items()):
        print("%-9s %5d %-10s %.3f" % (name, b, tag, math.exp(sum(map(math.log, v)) / len(v))))
    for tag, _ in bins:
        for b in map(int, a.budgets.split(",")):
            v = [r for (n, bb, t), rs in ratios.items() if t == tag and bb == b for r in rs]
            if v:
                print("all       %5d %-10s %.3f" % (b, tag, math.exp(sum(map(math.log, v)) / len(v))))


if __name__ == "__main__":
    main()
