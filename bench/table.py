#!/usr/bin/python3
"""Print the comparison tables from the JSON lines of credlab-bench and sklearn_bench.py.

Usage: /usr/bin/python3 bench/table.py RESULTS.jsonl

Each input line carries a "config" label added by compare.sh: "go" (pure-Go
credlab), "openblas-env" / "openblas-unset" (credlab -tags openblas with
OPENBLAS_CORETYPE as exported / unset) and "sklearn-env" / "sklearn-unset".
Pure-Go credlab is compared with both scikit-learn runs (its own speed does
not depend on the variable); each OpenBLAS configuration with the
scikit-learn run under the same setting. ratio = sklearn seconds / credlab seconds
(above 1: credlab is faster); cpu ratio is the same for user+system CPU
seconds, which machine load inflates less than wall time.
"""
import json
import math
import sys

SKLEARN = {
    "krls_fit": "KernelRidge(rbf)",
    "nystrom_fit": "Nystroem(m) + Ridge, fixed alpha, all rows",
    "select": "GridSearchCV(KernelRidge, 20 alphas, one PredefinedSplit hold-out, refit=True)",
}
# The tune task has its own tables (tune_tables).
TARGETS = {
    # (task, credlab config kind) -> (minimum ratio, val RMSE must be <= sklearn's, text)
    ("krls_fit", "go"): (0.5, False, "within 2x"),
    ("krls_fit", "openblas"): (1.0, False, "within 1x"),
    ("select", "go"): (10.0, True, ">=10x at val RMSE <= sklearn"),
    ("select", "openblas"): (10.0, True, ">=10x at val RMSE <= sklearn"),
}
PAIRS = [
    ("go", "sklearn-env", "credlab pure Go (%s) vs scikit-learn with OPENBLAS_CORETYPE as exported"),
    ("go", "sklearn-unset", "credlab pure Go (%s) vs scikit-learn with OPENBLAS_CORETYPE unset"),
    ("openblas-env", "sklearn-env", "credlab -tags openblas vs scikit-learn, both with OPENBLAS_CORETYPE as exported"),
    ("openblas-unset", "sklearn-unset", "credlab -tags openblas vs scikit-learn, both with OPENBLAS_CORETYPE unset"),
]


def fs(v):
    return "%.3f" % v if v < 10 else "%.2f" % v


def fr(v):
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else "%.4f" % v


def table(out):
    w = [max(len(row[i]) for row in out) for i in range(len(out[0]))]
    for i, row in enumerate(out):
        print("| " + " | ".join(c.ljust(w[j]) for j, c in enumerate(row)) + " |")
        if i == 0:
            print("|" + "|".join("-" * (x + 2) for x in w) + "|")


def tune_tables(rows):
    """Model selection from scratch: credlab's default fit against
    GridSearchCV with cv=5 and with one hold-out, per data set and size."""
    for cfg, skcfg, title in PAIRS:
        cl = [r for r in rows if r["task"] == "tune" and r["side"] == "credlab" and r["config"] == cfg]
        sk = {(r["set"], r["n"], r["method"]): r for r in rows
              if r["task"] == "tune" and r.get("config") == skcfg}
        if not cl or not sk:
            continue
        print()
        print("## tune: " + (title % ", ".join(sorted({r.get("blas", "?") for r in cl})) if "%s" in title else title))
        print()
        print("credlab: frames.Fit / `credlab fit` with only the target set (features standardized, target centered,")
        print("column scales, kernel, method, sigma, lambda and m chosen by credlab.Tune: 5-fold cross-validation, a")
        print("100 s time budget). sklearn: features standardized and target centered on the training")
        print("rows, GridSearchCV(KernelRidge(rbf)) over 5 gammas x 20 alphas, refit=True, with cv=5 and with one 20% hold-out.")
        print("ratio = sklearn s / credlab s; targets: >= 10x the cv=5 search and >= 4x the hold-out search, each at a test")
        print("RMSE <= 1.01 x scikit-learn's.")
        print()
        out = [["set", "n", "credlab choice", "credlab s", "cv=5 s", "ratio", "cpu ratio", "hold-out s", "ratio",
                "cpu ratio", "test RMSE cl", "cv=5", "hold-out", "target cv=5", "target hold-out"]]
        for r in cl:
            f = sk.get((r["set"], r["n"], "GridSearchCV cv=5"))
            h = sk.get((r["set"], r["n"], "GridSearchCV hold-out"))
            cells = [r["set"], str(r["n"]), "%s sigma %.3g lambda %.2g%s" % (
                r.get("choice", "?").split(" ")[0], r.get("sigma", 0), r.get("lambda", 0),
                " m %d" % r["m"] if r.get("m") else ""), fs(r["seconds"])]
            verdicts = []
            for s, need in ((f, 10.0), (h, 4.0)):
                if s is None:
                    cells += ["-", "-", "-"]
                    verdicts.append("-")
                    continue
                ratio = s["seconds"] / r["seconds"]
                est = " est." if s.get("estimated") else ""
                cells += [fs(s["seconds"]) + est, "%.2f" % ratio + est, "%.2f" % (s["cpu_s"] / r["cpu_s"]) if r.get("cpu_s") else "-"]
                ok = ratio >= need and r["test_rmse"] <= 1.01 * s["test_rmse"]
                verdicts.append("%s (%.3fx RMSE)" % ("met" if ok else "NOT met", r["test_rmse"] / s["test_rmse"]))
            cells += [fr(r["test_rmse"]), fr(f["test_rmse"]) if f else "-", fr(h["test_rmse"]) if h else "-"] + verdicts
            out.append(cells)
        table(out)
        print()
        for r in cl:
            print("  credlab %-9s n=%-6d %s" % (r["set"], r["n"], r.get("choice", "")))
            for w in r.get("warnings") or []:
                print("    warning: " + w)
        for k in sorted(sk):
            s = sk[k]
            est = ""
            if s.get("estimated"):
                est = "; time estimated from %d of 100 grid points (%s s measured), test RMSE of that reduced search" % (
                    s["grid_points"], fs(s["measured_s"]))
            print("  sklearn %-9s n=%-6d %-22s sigma %.3g lambda %.2g, refit %s s%s" % (
                s["set"], s["n"], s["method"], s["sigma"], s["lambda"], fs(s["refit_s"]), est))


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
    tune = [r for r in rows if r["task"] == "tune"]
    rows = [r for r in rows if r["task"] != "tune"]
    sk = {(r["config"], r["task"], r["n"]): r for r in rows if r["side"] == "sklearn"}
    for cfg, skcfg, title in PAIRS:
        cl = [r for r in rows if r["side"] == "credlab" and r["config"] == cfg]
        skrows = [r for r in rows if r.get("config") == skcfg]
        if not cl or not skrows:
            continue
        print()
        print("## " + (title % ", ".join(sorted({r.get("blas", "?") for r in cl})) if "%s" in title else title))
        print()
        print("numpy BLAS: " + "; ".join(sorted({r["blas"] for r in skrows})) +
              "; OPENBLAS_CORETYPE " + ",".join(sorted({r.get("openblas_coretype") or "unset" for r in skrows})))
        for t in sorted({r["task"] for r in cl}):
            print("sklearn for %s: %s" % (t, SKLEARN.get(t, "?")))
        print()
        out = [["task", "n", "m", "credlab", "credlab s", "sklearn s", "ratio", "cpu ratio",
                "val RMSE cl", "val RMSE sk", "test RMSE cl", "test RMSE sk", "target"]]
        for r in cl:
            s = sk.get((skcfg, r["task"], r["n"]))
            kind = "go" if cfg == "go" else "openblas"
            target = TARGETS.get((r["task"], kind))
            ratio = s["seconds"] / r["seconds"] if s else None
            cpur = s["cpu_s"] / r["cpu_s"] if s and r.get("cpu_s") else None
            verdict = ""
            if target and s:
                ok = ratio >= target[0]
                if target[1]:
                    v_cl, v_sk = r.get("val_rmse"), s.get("val_rmse")
                    ok = ok and v_cl is not None and v_cl <= v_sk * (1 + 1e-9)
                verdict = ("met" if ok else "NOT met") + " (" + target[2] + ")"
            meth = r["method"]
            if r.get("steps"):
                if r["task"] == "select" and r["method"] in ("KRLS", "NKRLS"):
                    meth += " (%d lambdas)" % r["steps"]
                else:
                    meth += " (%d steps, best %d)" % (r["steps"], r.get("iter", 0))
            out.append([r["task"], str(r["n"]), str(r.get("m") or "-"), meth, fs(r["seconds"]),
                        fs(s["seconds"]) if s else "-", "%.2f" % ratio if ratio else "-",
                        "%.2f" % cpur if cpur else "-",
                        fr(r.get("val_rmse")), fr(s.get("val_rmse")) if s else "-",
                        fr(r.get("test_rmse")), fr(s.get("test_rmse")) if s else "-", verdict])
        table(out)
        print()
        print("credlab Fit.Timing of the median run (kernel / solve / select, s):")
        for r in cl:
            print("  %-12s n=%-6d %-18s %s / %s / %s" % (r["task"], r["n"], r["method"],
                  fs(r["kernel_s"]), fs(r["solve_s"]), fs(r["select_s"])))
        for r in skrows:
            if "refit_s" in r:
                print("  sklearn GridSearchCV n=%d: %s s, of which the refit on all rows %s s (%s s without it)"
                      % (r["n"], fs(r["seconds"]), fs(r["refit_s"]), fs(r["seconds"] - r["refit_s"])))
            if r.get("warnings"):
                print("  sklearn warnings (%s n=%d): %s" % (r["task"], r["n"], "; ".join(r["warnings"])))
    tune_tables(tune)
    print()
    print("every timed run (s), with the 1-minute load average before the task:")
    for r in rows + tune:
        task = r["task"] + ("/" + r["set"] if r.get("set") else "")
        print("  %-14s %-16s n=%-6d %-22s load %5.1f: %s" % (r["config"], task, r["n"], r["method"],
              r.get("load1", float("nan")), " ".join(fs(t) for t in r["all"])))


if __name__ == "__main__":
    main()
