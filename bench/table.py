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


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
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
    print()
    print("every timed run (s), with the 1-minute load average before the task:")
    for r in rows:
        print("  %-14s %-12s n=%-6d %-18s load %5.1f: %s" % (r["config"], r["task"], r["n"], r["method"],
              r.get("load1", float("nan")), " ".join(fs(t) for t in r["all"])))


if __name__ == "__main__":
    main()
