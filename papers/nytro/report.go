package nytro

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/papers/internal/report"
)

// paperCell holds the paper's Table 2 entries, as printed.
type paperCell struct{ rmse, par, time string }

// paperTable2 is Table 2 of the NYTRO paper (rows InsuranceCompany and Adult).
var paperTable2 = map[string]map[string]paperCell{
	"InsuranceCompany": {
		methodKOLS:  {"5.179", "NA", "1.04"},
		methodKRLS:  {"0.4651 ± 0.0001", "3.27e-04", "97.48 ± 0.77"},
		methodES:    {"0.4650 ± 0.0002", "494 ± 1.7", "2.92 ± 0.04"},
		methodNKRLS: {"0.4651 ± 0.0003", "5.14e-04 ± 1.42e-04", "20.32 ± 0.50"},
		methodNYTRO: {"0.4651 ± 0.0003", "491 ± 3", "5.49 ± 0.12"},
	},
	"Adult": {
		methodKOLS:  {"1765", "NA", "112"},
		methodKRLS:  {"0.645 ± 0.001", "4.04e-05 ± 1.04e-05", "4360 ± 9.29"},
		methodES:    {"0.685 ± 0.002", "39.2 ± 1.1", "5.52 ± 0.23"},
		methodNKRLS: {"0.6462 ± 0.003", "4.04e-05 ± 1.83e-05", "5.95 ± 0.31"},
		methodNYTRO: {"0.6873 ± 0.003", "44.9 ± 0.3", "0.85 ± 0.05"},
	},
}

// paperSize is the paper's n and m for each Table 2 row.
var paperSize = map[string]string{
	"InsuranceCompany": "n = 5822, m = 2000",
	"Adult":            "n = 32562, m = 1000",
}

// summary aggregates the runs of one method on one data set.
type summary struct {
	dataset, method string
	status          string
	runs            int
	rmse, rmseSD    float64
	par, parSD      float64
	time, timeSD    float64
	steps           float64
	hitMax          int // runs whose t* is the last of 500 steps
	rank            float64
	estimate        time.Duration
	note            string
}

func summarize(res *results) []summary {
	var out []summary
	for _, c := range res.cases {
		for _, meth := range res.cfg.methods {
			s := summary{dataset: c.name, method: meth}
			var rm, pa, ti, st, rk []float64
			for _, r := range res.runs {
				if r.dataset != c.name || r.method != meth {
					continue
				}
				s.note = r.note
				if r.status != "ok" {
					s.status, s.estimate = r.status, r.estimate
					continue
				}
				s.status = "ok"
				rm = append(rm, r.testRMSE)
				ti = append(ti, r.timing.Total().Seconds())
				st = append(st, float64(r.steps))
				rk = append(rk, float64(r.rank))
				switch meth {
				case methodKRLS, methodNKRLS:
					pa = append(pa, r.lambda)
				case methodES, methodNYTRO:
					pa = append(pa, float64(r.iter))
					if r.iter == 500 && r.steps == 500 {
						s.hitMax++
					}
				}
			}
			s.runs = len(rm)
			s.rmse, s.rmseSD = meanSD(rm)
			s.par, s.parSD = meanSD(pa)
			s.time, s.timeSD = meanSD(ti)
			s.steps, _ = meanSD(st)
			s.rank, _ = meanSD(rk)
			out = append(out, s)
		}
	}
	return out
}

// meanSD returns the mean and the sample standard deviation (0 for a
// single value, NaN for none).
func meanSD(v []float64) (mean, sd float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) == 1 {
		return mean, 0
	}
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(v)-1))
}

// pm formats mean ± sd with format f, omitting ± for one run.
func pm(f string, mean, sd float64, runs int) string {
	if runs <= 1 {
		return fmt.Sprintf(f, mean)
	}
	return fmt.Sprintf(f+" ± "+f, mean, sd)
}

func (s summary) rmseString() string {
	if s.status != "ok" {
		return "not run"
	}
	return pm("%.4f", s.rmse, s.rmseSD, s.runs)
}

func (s summary) parString() string {
	if s.status != "ok" {
		return "—"
	}
	switch s.method {
	case methodKRLS, methodNKRLS:
		return pm("%.2e", s.par, s.parSD, s.runs)
	case methodES, methodNYTRO:
		p := pm("%.1f", s.par, s.parSD, s.runs)
		if s.hitMax > 0 {
			p += fmt.Sprintf(" (= 500 in %d/%d)", s.hitMax, s.runs)
		}
		return p
	}
	return fmt.Sprintf("— (rank %.0f)", s.rank)
}

func (s summary) timeString() string {
	if s.status != "ok" {
		return "est. " + fmtDur(s.estimate)
	}
	return pm("%.2f", s.time, s.timeSD, s.runs)
}

// fig2Summary aggregates Figure 2 per m and method.
type fig2Summary struct {
	m                  int
	method             string
	runs               int
	time, timeSD       float64
	kernel, solve, sel float64
	rank               float64
}

func summarizeFig2(runs []fig2Run) []fig2Summary {
	type key struct {
		m      int
		method string
	}
	groups := map[key][]fig2Run{}
	var keys []key
	for _, r := range runs {
		k := key{r.m, r.method}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].m != keys[j].m {
			return keys[i].m < keys[j].m
		}
		return keys[i].method < keys[j].method
	})
	var out []fig2Summary
	for _, k := range keys {
		var t, ke, so, se, rk []float64
		for _, r := range groups[k] {
			t = append(t, r.timing.Total().Seconds())
			ke = append(ke, r.timing.Kernel.Seconds())
			so = append(so, r.timing.Solve.Seconds())
			se = append(se, r.timing.Select.Seconds())
			rk = append(rk, float64(r.rank))
		}
		s := fig2Summary{m: k.m, method: k.method, runs: len(t)}
		s.time, s.timeSD = meanSD(t)
		s.kernel, _ = meanSD(ke)
		s.solve, _ = meanSD(so)
		s.sel, _ = meanSD(se)
		s.rank, _ = meanSD(rk)
		out = append(out, s)
	}
	return out
}

// slope is the least-squares slope of log y against log x.
func slope(x, y []float64) float64 {
	var lx, ly []float64
	for i := range x {
		if x[i] > 0 && y[i] > 0 {
			lx, ly = append(lx, math.Log(x[i])), append(ly, math.Log(y[i]))
		}
	}
	if len(lx) < 2 {
		return math.NaN()
	}
	mx, _ := meanSD(lx)
	my, _ := meanSD(ly)
	var sxy, sxx float64
	for i := range lx {
		sxy += (lx[i] - mx) * (ly[i] - my)
		sxx += (lx[i] - mx) * (lx[i] - mx)
	}
	if sxx == 0 {
		return math.NaN()
	}
	return sxy / sxx
}

// exponent is a fitted growth exponent of one timing series.
type exponent struct {
	series     string
	upper, all float64 // slope over m >= max(m)/4, and over all m
	from       int     // smallest m of the upper fit
}

func exponents(fs []fig2Summary) []exponent {
	maxM := 0
	for _, s := range fs {
		maxM = max(maxM, s.m)
	}
	series := []struct {
		name, method string
		val          func(fig2Summary) float64
	}{
		{"NKRLS total", methodNKRLS, func(s fig2Summary) float64 { return s.time }},
		{"NYTRO total", methodNYTRO, func(s fig2Summary) float64 { return s.time }},
		{"NYTRO 500 steps (solve)", methodNYTRO, func(s fig2Summary) float64 { return s.solve }},
		{"NYTRO setup (kernel, K_mm factor, A = K_nm L^-T)", methodNYTRO, func(s fig2Summary) float64 { return s.kernel }},
	}
	var out []exponent
	for _, se := range series {
		var xa, ya, xu, yu []float64
		from := 0
		for _, s := range fs {
			if s.method != se.method {
				continue
			}
			xa, ya = append(xa, float64(s.m)), append(ya, se.val(s))
			if 4*s.m >= maxM {
				if from == 0 {
					from = s.m
				}
				xu, yu = append(xu, float64(s.m)), append(yu, se.val(s))
			}
		}
		out = append(out, exponent{series: se.name, upper: slope(xu, yu), all: slope(xa, ya), from: from})
	}
	return out
}

// writeResults writes the CSV files and the markdown to outDir and prints the
// tables to w.
func writeResults(outDir string, res *results, w io.Writer) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	sum := summarize(res)
	fsum := summarizeFig2(res.fig2)
	exps := exponents(fsum)
	files := []struct {
		name string
		rows [][]string
	}{
		{"table2.csv", table2Rows(res)},
		{"table2_summary.csv", summaryRows(sum)},
		{"fig2.csv", fig2Rows(res.fig2)},
		{"fig2_summary.csv", fig2SummaryRows(fsum)},
		{"paths.csv", pathRows(res)},
		{"tstar.csv", tstarRows(res)},
	}
	for _, f := range files {
		if err := report.WriteCSV(filepath.Join(outDir, f.name), f.rows); err != nil {
			return err
		}
	}
	md := markdown(res, sum, fsum, exps)
	if err := os.WriteFile(filepath.Join(outDir, "reproductions-nytro.md"), []byte(md), 0o644); err != nil {
		return err
	}
	printTables(w, res, sum, fsum, exps)
	fmt.Fprintf(w, "\nWrote %s to %s\n", strings.Join([]string{"table2.csv", "table2_summary.csv", "fig2.csv",
		"fig2_summary.csv", "paths.csv", "tstar.csv", "reproductions-nytro.md"}, ", "), outDir)
	return nil
}

func fmtSec(d time.Duration) string { return report.G8(d.Seconds()) }

func table2Rows(res *results) [][]string {
	rows := [][]string{{"dataset", "method", "seed", "status", "n_train", "n_test", "d", "sigma", "m",
		"test_rmse", "val_rmse", "lambda", "t_star", "steps_run", "rank",
		"time_s", "kernel_s", "solve_s", "select_s", "estimated_time_s", "estimated_memory_gb", "note"}}
	for _, r := range res.runs {
		lambda, tstar, steps, seed := "", "", "", ""
		if r.status == "ok" {
			seed = strconv.Itoa(r.seed)
			switch r.method {
			case methodKRLS, methodNKRLS:
				lambda = report.G8(r.lambda)
			case methodES, methodNYTRO:
				tstar, steps = strconv.Itoa(r.iter), strconv.Itoa(r.steps)
			}
		}
		m := ""
		if r.m > 0 {
			m = strconv.Itoa(r.m)
		}
		est, mem := "", ""
		if r.status != "ok" {
			est, mem = fmtSec(r.estimate), report.G8(r.memGB)
		}
		rank, t, k, so, se := "", "", "", "", ""
		if r.status == "ok" {
			rank = strconv.Itoa(r.rank)
			t, k, so, se = fmtSec(r.timing.Total()), fmtSec(r.timing.Kernel), fmtSec(r.timing.Solve), fmtSec(r.timing.Select)
		}
		rows = append(rows, []string{r.dataset, r.method, seed, r.status, strconv.Itoa(r.n), strconv.Itoa(r.nTest),
			strconv.Itoa(r.d), report.G8(r.sigma), m, report.G8(r.testRMSE), report.G8(r.valRMSE), lambda, tstar, steps, rank,
			t, k, so, se, est, mem, r.note})
	}
	return rows
}

func summaryRows(sum []summary) [][]string {
	rows := [][]string{{"dataset", "method", "status", "runs", "test_rmse_mean", "test_rmse_sd", "param", "param_mean",
		"param_sd", "t_star_is_500_runs", "time_s_mean", "time_s_sd", "steps_run_mean", "rank_mean", "estimated_time_s",
		"paper_rmse", "paper_param", "paper_time_s", "note"}}
	for _, s := range sum {
		param := ""
		switch s.method {
		case methodKRLS, methodNKRLS:
			param = "lambda"
		case methodES, methodNYTRO:
			param = "t_star"
		}
		est := ""
		if s.status != "ok" {
			est = fmtSec(s.estimate)
		}
		p := paperTable2[s.dataset][s.method]
		rows = append(rows, []string{s.dataset, s.method, s.status, strconv.Itoa(s.runs), report.G8(s.rmse), report.G8(s.rmseSD),
			param, report.G8(s.par), report.G8(s.parSD), strconv.Itoa(s.hitMax), report.G8(s.time), report.G8(s.timeSD), report.G8(s.steps),
			report.G8(s.rank), est, p.rmse, p.par, p.time, s.note})
	}
	return rows
}

func fig2Rows(runs []fig2Run) [][]string {
	rows := [][]string{{"m", "method", "seed", "rank", "steps_or_lambdas", "time_s", "kernel_s", "solve_s", "select_s"}}
	for _, r := range runs {
		rows = append(rows, []string{strconv.Itoa(r.m), r.method, strconv.Itoa(r.seed), strconv.Itoa(r.rank),
			strconv.Itoa(r.steps), fmtSec(r.timing.Total()), fmtSec(r.timing.Kernel), fmtSec(r.timing.Solve),
			fmtSec(r.timing.Select)})
	}
	return rows
}

func fig2SummaryRows(fs []fig2Summary) [][]string {
	rows := [][]string{{"m", "method", "runs", "time_s_mean", "time_s_sd", "kernel_s_mean", "solve_s_mean",
		"select_s_mean", "rank_mean"}}
	for _, s := range fs {
		rows = append(rows, []string{strconv.Itoa(s.m), s.method, strconv.Itoa(s.runs), report.G8(s.time), report.G8(s.timeSD),
			report.G8(s.kernel), report.G8(s.solve), report.G8(s.sel), report.G8(s.rank)})
	}
	return rows
}

func pathRows(res *results) [][]string {
	rows := [][]string{{"dataset", "method", "seed", "lambda", "iter", "train_rmse", "val_rmse"}}
	for _, r := range res.runs {
		for _, p := range r.path {
			lambda, iter := "", ""
			if p.Iter > 0 {
				iter = strconv.Itoa(p.Iter)
			} else if p.Lambda > 0 {
				lambda = report.G8(p.Lambda)
			}
			rows = append(rows, []string{r.dataset, r.method, strconv.Itoa(r.seed), lambda, iter,
				report.G8(p.TrainRMSE), report.G8(p.ValRMSE)})
		}
	}
	return rows
}

// fig2Pairs returns the NKRLS and NYTRO summaries for each m.
func fig2Pairs(fs []fig2Summary) (ms []int, nk, ny map[int]fig2Summary) {
	nk, ny = map[int]fig2Summary{}, map[int]fig2Summary{}
	for _, s := range fs {
		if _, ok := nk[s.m]; !ok {
			if _, ok := ny[s.m]; !ok {
				ms = append(ms, s.m)
			}
		}
		if s.method == methodNKRLS {
			nk[s.m] = s
		} else {
			ny[s.m] = s
		}
	}
	return ms, nk, ny
}

func machine() string {
	return fmt.Sprintf("%s, %s/%s, GOMAXPROCS = %d, BLAS: %s", runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.GOMAXPROCS(0), credlab.BLASBackend)
}

func markdown(res *results, sum []summary, fs []fig2Summary, exps []exponent) string {
	var b strings.Builder
	cfg := res.cfg
	fmt.Fprintf(&b, "<!-- Generated by `%s` on %s. -->\n\n", cfg.command, time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "Run: %s mode; %s; total %s (Table 2 %s, t* study %s, Figure 2 %s).\n\n", cfg.mode(), machine(),
		fmtDur(res.total), fmtDur(res.t2), fmtDur(res.ts), fmtDur(res.f2))
	seeds := "seed 1"
	if cfg.reps > 1 {
		seeds = fmt.Sprintf("seeds 1..%d", cfg.reps)
	}
	fmt.Fprintf(&b, "**Table 2** (ours beside the paper; mean ± sample standard deviation over the runs, %s; "+
		"time = model-selection time, `Fit.Timing.Total()`, in seconds; parameter = lambda* for KRLS/NKRLS, t* for EarlyStopping/NYTRO)\n\n", seeds)
	for _, c := range res.cases {
		n, d := c.xTrain.Dims()
		nt, _ := c.xTest.Dims()
		nv := int(math.Round(0.2 * float64(n)))
		fmt.Fprintf(&b, "- %s: ours n = %d training rows (%d fit + %d validation per split), %d test, d = %d, sigma = %g, m = %d; paper %s.\n",
			c.name, n, n-nv, nv, nt, d, c.sigma, c.m, paperSize[c.name])
	}
	b.WriteString("\n| Dataset | Method | Test RMSE | Paper RMSE | Parameter | Paper parameter | Time (s) | Paper time (s) | Runs |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range sum {
		p := paperTable2[s.dataset][s.method]
		runs := strconv.Itoa(s.runs)
		switch {
		case s.status != "ok":
			runs = "0 (" + s.note + ")"
		case s.method == methodKOLS:
			runs = "1 (deterministic)"
		case s.note != "":
			runs += " (" + s.note + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", s.dataset, s.method, s.rmseString(), p.rmse,
			s.parString(), p.par, s.timeString(), p.time, runs)
	}
	b.WriteString(tstarMarkdown(res))
	if len(fs) > 0 {
		ms, nk, ny := fig2Pairs(fs)
		reps := 0
		for _, s := range fs {
			reps = max(reps, s.runs)
		}
		fmt.Fprintf(&b, "\n**Figure 2** (cpuSmall, n = %d training rows of which 20%% validate, sigma = %g on [0, 1]-scaled features; "+
			"model-selection time in seconds, mean ± sd over %d repetition(s); NKRLS: 100 lambdas; NYTRO: all 500 steps, threshold disabled)\n\n",
			res.fig2N, cfg.fig2.sigma, reps)
		b.WriteString("| m | rank | NKRLS | NYTRO | NYTRO setup | NYTRO 500 steps | NKRLS / NYTRO |\n")
		b.WriteString("|---|---|---|---|---|---|---|\n")
		for _, m := range ms {
			a, y := nk[m], ny[m]
			fmt.Fprintf(&b, "| %d | %.0f | %s | %s | %.2f | %.2f | %.1f |\n", m, y.rank, pm("%.2f", a.time, a.timeSD, a.runs),
				pm("%.2f", y.time, y.timeSD, y.runs), y.kernel, y.solve, a.time/y.time)
		}
		b.WriteString("\nFitted exponents b of time ∝ m^b (least squares on log-log means):\n\n")
		for _, e := range exps {
			fmt.Fprintf(&b, "- %s: b = %.2f for m >= %d, b = %.2f over all m\n", e.series, e.upper, e.from, e.all)
		}
	}
	return b.String()
}

func printTables(w io.Writer, res *results, sum []summary, fs []fig2Summary, exps []exponent) {
	fmt.Fprintf(w, "\nTable 2 (ours | paper); %s\n", machine())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "dataset\tmethod\ttest RMSE\tpaper\tparameter\tpaper\ttime (s)\tpaper\truns")
	for _, s := range sum {
		p := paperTable2[s.dataset][s.method]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", s.dataset, s.method, s.rmseString(), p.rmse,
			s.parString(), p.par, s.timeString(), p.time, s.runs)
	}
	tw.Flush()
	if len(fs) > 0 {
		fmt.Fprintf(w, "\nFigure 2: cpuSmall model-selection time (s), n = %d\n", res.fig2N)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "m\trank\tNKRLS\tNYTRO\tNYTRO setup\tNYTRO steps")
		ms, nk, ny := fig2Pairs(fs)
		for _, m := range ms {
			a, y := nk[m], ny[m]
			fmt.Fprintf(tw, "%d\t%.0f\t%s\t%s\t%.2f\t%.2f\n", m, y.rank, pm("%.2f", a.time, a.timeSD, a.runs),
				pm("%.2f", y.time, y.timeSD, y.runs), y.kernel, y.solve)
		}
		tw.Flush()
		for _, e := range exps {
			fmt.Fprintf(w, "exponent %s: %.2f (m >= %d), %.2f (all m)\n", e.series, e.upper, e.from, e.all)
		}
	}
	fmt.Fprintf(w, "Total %s (Table 2 %s, Figure 2 %s)\n", fmtDur(res.total), fmtDur(res.t2), fmtDur(res.f2))
}
