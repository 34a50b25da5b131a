package frames

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestSimulate(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(600, 2, 0.1, 1)
	df, err := FromMatrix(x, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	df = df.Mutate(series.New(y, series.Float, "y"))
	spec := SimulateSpec{Target: "y", Methods: []string{"uniform", "lcmd", "maxdet", "cred"}, Budgets: []int{20, 40, 80}, Seeds: 2, M: 60}
	res, err := Simulate(context.Background(), df, spec)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Curves.Nrow(); r != 2*4*3 {
		t.Fatalf("%d curve rows, want 24", r)
	}
	if r := res.Ratios.Nrow(); r != 4*3 {
		t.Fatalf("%d ratio rows, want 12", r)
	}
	ratio, _ := Column(res.Ratios, "ratio")
	method := res.Ratios.Col("method").Records()
	for i, m := range method {
		if m == "uniform" && ratio[i] != 1 {
			t.Errorf("uniform's ratio %g, want 1", ratio[i])
		}
		if !(ratio[i] > 0) || math.IsInf(ratio[i], 0) {
			t.Errorf("%s: ratio %g", m, ratio[i])
		}
	}
	// The RMSE falls with more labels for uniform labeling on a smooth task.
	rmse, _ := Column(res.Ratios, "rmse")
	if !(rmse[0] > rmse[2]) {
		t.Errorf("uniform RMSE %v does not fall from 20 to 80 labels", rmse[:3])
	}
	again, err := Simulate(context.Background(), df, spec)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := Column(again.Curves, "rmse")
	r1, _ := Column(res.Curves, "rmse")
	for i := range r1 {
		if r1[i] != r2[i] {
			t.Fatalf("not reproducible at row %d: %g, %g", i, r1[i], r2[i])
		}
	}
	var pe *credlab.ParamError
	for _, bad := range []SimulateSpec{
		{Target: "y", Methods: []string{"best"}},
		{Target: "y", Budgets: []int{20, 10}},
		{Target: "y", Budgets: []int{20, 1000}},
		{Target: "y", TestShare: 1},
		{},
	} {
		if _, err := Simulate(context.Background(), df, bad); !errors.As(err, &pe) {
			t.Errorf("%+v: %v, want a *credlab.ParamError", bad, err)
		}
	}
	var ce *ColumnError
	if _, err := Simulate(context.Background(), df, SimulateSpec{Target: "z"}); !errors.As(err, &ce) {
		t.Errorf("missing target: %v", err)
	}
}

// A batch method continues labeled rows: without labels it reports the
// median-distance kernel, with labels the kernel tuned on them.
func TestSimulateTimeBudget(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(300, 2, 0.1, 1)
	df, err := FromMatrix(x, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	df = df.Mutate(series.New(y, series.Float, "y"))
	for _, c := range []struct {
		budget time.Duration
		labels []float64 // budgets measured
	}{
		{time.Nanosecond, []float64{20}}, // spent before the first batch, which always runs
		{-1, []float64{20, 40, 80}},      // no bound
	} {
		spec := SimulateSpec{Target: "y", Methods: []string{"uniform", "lcmd"}, Budgets: []int{20, 40, 80}, Seeds: 2, M: 40, TimeBudget: c.budget}
		res, err := Simulate(context.Background(), df, spec)
		if err != nil {
			t.Fatal(err)
		}
		labels, _ := Column(res.Ratios, "labels")
		if want := append(append([]float64(nil), c.labels...), c.labels...); !slices.Equal(labels, want) {
			t.Errorf("budget %v: ratios at labels %v, want %v", c.budget, labels, want)
		}
		if r, want := res.Curves.Nrow(), 2*2*len(c.labels); r != want {
			t.Errorf("budget %v: %d curve rows, want %d", c.budget, r, want)
		}
		stopped := len(c.labels) < 3
		if res.OutOfTime != stopped || (len(res.Warnings) == 1) != stopped {
			t.Errorf("budget %v: OutOfTime %v, warnings %q", c.budget, res.OutOfTime, res.Warnings)
		}
		if stopped && !strings.Contains(res.Warnings[0], "stopped the simulation at 20 labels: the batch to 40 labels (4 fits)") {
			t.Errorf("warning %q does not say where the budget stopped", res.Warnings[0])
		}
	}
}

func TestSelectBatchMethod(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(400, 2, 0.1, 3)
	pool, err := FromMatrix(x, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	spec := SelectSpec{Method: "lcmd", Seed: 1, M: 50, Target: "y", Report: func(l string) { lines = append(lines, l) }}
	first, err := Select(pool, 30, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "median distance") {
		t.Errorf("report without labels: %q", lines)
	}
	rows, _ := first.Col(RowColumn).Int()
	// Without labels the kernel has no column scales: the pool weights are
	// nearest-neighbour shares in the standardized columns.
	xs := mat.DenseCopyOf(x)
	for j := 0; j < 2; j++ {
		col := mat.Col(nil, j, xs)
		mean, sd := stat.MeanStdDev(col, nil)
		for i, v := range col {
			xs.Set(i, j, (v-mean)/sd)
		}
	}
	chosen, err := credlab.GatherRows(xs, rows)
	if err != nil {
		t.Fatal(err)
	}
	want, err := credlab.PoolWeights(context.Background(), xs, chosen, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Column(first, PoolWeightColumn)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("pool weights %v, want %v", got, want)
		}
	}
	labels := make([]float64, len(rows))
	for i, r := range rows {
		labels[i] = y[r]
	}
	labeled := first.Mutate(series.New(labels, series.Float, "y"))
	spec.Labeled = &labeled
	next, err := Select(pool, 20, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || !strings.Contains(lines[1], "tuned on the 30 labeled rows, weighted by their pool weights") {
		t.Errorf("report with labels: %q", lines)
	}
	if w, err := Column(next, PoolWeightColumn); err != nil || len(w) != 50 || math.Abs(floats.Sum(w)-50) > 1e-9 {
		t.Errorf("pool weights of the 50 rows: %v, %v", w, err)
	}
	// The tuning's time budget and progress; its warnings reach Report.
	lines, statuses := nil, 0
	bounded := spec
	bounded.TimeBudget, bounded.Progress = time.Nanosecond, func(credlab.TuneStatus) { statuses++ }
	if _, err := Select(pool, 20, bounded); err != nil {
		t.Fatal(err)
	}
	if statuses == 0 || !slices.ContainsFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "warning: tuning the kernel on the 30 labeled rows: the time budget of 1ns stopped the search")
	}) {
		t.Errorf("%d statuses, report %q", statuses, lines)
	}
	zero := make([]float64, first.Nrow())
	copy(zero, got)
	zero[2] = 0
	bad := labeled.Mutate(series.New(zero, series.Float, PoolWeightColumn))
	spec.Labeled = &bad
	var pe *ColumnProblemError
	if _, err := Select(pool, 20, spec); !errors.As(err, &pe) || pe.Name != PoolWeightColumn || !strings.Contains(err.Error(), "row 2") {
		t.Errorf("a zero pool weight: %v", err)
	}
	if c, err := Select(pool, 30, SelectSpec{Method: "cred", Seed: 1}); err != nil || FindColumn(c, PoolWeightColumn, "") == nil {
		t.Errorf("a CRED selection has pool weights: %v, columns %v", err, c.Names())
	}
	all, _ := next.Col(RowColumn).Int()
	seen := map[int]bool{}
	for i, r := range all {
		if seen[r] || (i < 30 && r != rows[i]) {
			t.Fatalf("rows %v do not continue %v with distinct rows", all, rows)
		}
		seen[r] = true
	}
	if len(all) != 50 {
		t.Errorf("%d rows, want 50", len(all))
	}
	labels[3] = math.NaN()
	part := first.Mutate(series.New(labels, series.Float, "y"))
	spec.Labeled = &part
	if _, err := Select(pool, 20, spec); err == nil || !strings.Contains(err.Error(), "row 3") {
		t.Errorf("a label missing in row 3: %v", err)
	}
	if _, err := Select(pool, 5, SelectSpec{Method: "best"}); err == nil || !strings.Contains(err.Error(), "lcmd") {
		t.Errorf("unknown method: %v", err)
	}
}

// The default method continues a uniform first batch with labels by
// DefaultBatchMethod, and a CRED one by CRED; a uniform one without labels
// is continued by CRED, which is an error (not its design).
func TestSelectDefaultMethod(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(300, 2, 0.1, 4)
	pool, _ := FromMatrix(x, "a", "b")
	for _, c := range []struct {
		first  string
		labels bool
		batch  bool
	}{{"uniform", true, true}, {"uniform", false, false}, {"cred", true, false}} {
		first, err := Select(pool, 30, SelectSpec{Method: c.first, Design: "without", Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		if c.labels {
			rows, _ := first.Col(RowColumn).Int()
			v := make([]float64, len(rows))
			for i, r := range rows {
				v[i] = y[r]
			}
			first = first.Mutate(series.New(v, series.Float, "y"))
		}
		var lines []string
		next, err := Select(pool, 10, SelectSpec{Design: "without", Seed: 2, Labeled: &first, Target: "y", Report: func(l string) { lines = append(lines, l) }})
		if !c.labels && c.first == "uniform" {
			if err == nil {
				t.Errorf("%+v: continued by CRED without an error", c)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		w, _ := Column(next, WeightColumn)
		if got := len(lines) == 1 && strings.HasPrefix(lines[0], DefaultBatchMethod); got != c.batch {
			t.Errorf("%+v: report %q", c, lines)
		}
		if c.first == "uniform" && w[len(w)-1] != 1 {
			t.Errorf("%+v: weight %g of a new row", c, w[len(w)-1])
		}
	}
}

// OneShot: a batch method chooses the first batch itself, so its first
// fit differs from uniform labeling's; without it they share the batch.
func TestSimulateOneShot(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(300, 2, 0.1, 5)
	df, _ := FromMatrix(x, "a", "b")
	df = df.Mutate(series.New(y, series.Float, "y"))
	for _, one := range []bool{false, true} {
		res, err := Simulate(context.Background(), df, SimulateSpec{Target: "y", Methods: []string{"uniform", "maxdist"}, Budgets: []int{25}, M: 40, OneShot: one})
		if err != nil {
			t.Fatal(err)
		}
		r, _ := Column(res.Ratios, "ratio")
		if (r[1] != 1) != one {
			t.Errorf("OneShot %v: maxdist's first ratio %g", one, r[1])
		}
	}
}

// A batch method leaves DefaultAuditShare of each batch to an audit
// sample, which continues across batches, and Fit estimates the pool RMSE
// from the audit rows alone.
func TestSelectAudit(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(400, 2, 0.1, 3)
	pool, err := FromMatrix(x, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	label := func(df dataframe.DataFrame) dataframe.DataFrame {
		rows, _ := df.Col(RowColumn).Int()
		v := make([]float64, len(rows))
		for i, r := range rows {
			v[i] = y[r]
		}
		return df.Mutate(series.New(v, series.Float, "y"))
	}
	spec := SelectSpec{Method: "lcmd", Seed: 1, M: 50, Target: "y"}
	first, err := Select(pool, 30, spec)
	if err != nil {
		t.Fatal(err)
	}
	l1 := label(first)
	spec.Labeled = &l1
	next, err := Select(pool, 50, spec)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Column(next, AuditColumn)
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, v := range a {
		if v > 0 {
			got = append(got, v)
		}
	}
	want := []float64{400.0 / 3, 400.0 / 3, 400.0 / 3, 370.0 / 5, 370.0 / 5, 370.0 / 5, 370.0 / 5, 370.0 / 5}
	if len(got) != len(want) || got[0] != want[0] || got[7] != want[7] {
		t.Fatalf("audit weights %v, want %v", got, want)
	}
	l2 := label(next)
	m, err := Fit(l2, Spec{Target: "y", Audit: AuditColumn})
	if err != nil {
		t.Fatal(err)
	}
	if e := m.Choice.PoolRMSE; e == nil || e.Rows != 8 || !strings.Contains(m.Summary(), "the 8 audit rows") {
		t.Errorf("pool RMSE %+v from the audit rows; summary:\n%s", e, m.Summary())
	}
	var ce *ColumnError
	if _, err := Fit(l2, Spec{Target: "y", Audit: "aduit"}); !errors.As(err, &ce) {
		t.Errorf("missing audit column: %v", err)
	}
	bad := l2.Mutate(series.New(make([]float64, l2.Nrow()), series.Float, AuditColumn))
	var pe *ColumnProblemError
	if _, err := Fit(bad, Spec{Target: "y", Audit: AuditColumn}); !errors.As(err, &pe) {
		t.Errorf("no audit rows: %v", err)
	}
	none := SelectSpec{Method: "lcmd", Seed: 1, M: 50, Audit: -1}
	if s, err := Select(pool, 30, none); err != nil || FindColumn(s, AuditColumn, "") == nil {
		t.Errorf("Audit -1: %v, columns %v", err, s.Names())
	}
}

func TestFitsLeft(t *testing.T) {
	// seed 1: uniform, lcmd (random first batch), cred (its own); seed 2: uniform, lcmd.
	var runs []*simRun
	for _, r := range []struct {
		m    string
		seed uint64
	}{{"uniform", 1}, {"lcmd", 1}, {"cred", 1}, {"uniform", 2}, {"lcmd", 2}} {
		runs = append(runs, &simRun{method: r.m, seed: r.seed, random: randomFirst(r.m, false)})
	}
	for _, c := range []struct {
		k     int
		first bool
		want  int
	}{{0, true, 3}, {1, true, 2}, {2, true, 2}, {3, true, 1}, {4, true, 0}, {0, false, 5}, {3, false, 2}} {
		if got := fitsLeft(runs, c.k, c.first); got != c.want {
			t.Errorf("fitsLeft(k=%d, first=%v) = %d, want %d", c.k, c.first, got, c.want)
		}
	}
	for _, c := range []struct {
		m       string
		oneShot bool
		want    bool
	}{{"uniform", false, true}, {"uniform", true, true}, {"lcmd", false, true}, {"lcmd", true, false}, {"cred", false, false}, {"cred", true, false}} {
		if got := randomFirst(c.m, c.oneShot); got != c.want {
			t.Errorf("randomFirst(%s, %v) = %v", c.m, c.oneShot, got)
		}
	}
}

func TestRatioInterval(t *testing.T) {
	// Three seeds' ratios 0.9, 1.0, 1.1: the log ratios' mean m and sample
	// standard deviation s, t_{0.95, 2} = 2.919986.
	l := []float64{math.Log(0.9), 0, math.Log(1.1)}
	m := (l[0] + l[1] + l[2]) / 3
	s := math.Sqrt(((l[0]-m)*(l[0]-m) + (l[1]-m)*(l[1]-m) + (l[2]-m)*(l[2]-m)) / 2)
	h := 2.919986 * s / math.Sqrt(3)
	r, lo, hi := ratioInterval(l)
	for _, c := range [][2]float64{{r, math.Exp(m)}, {lo, math.Exp(m - h)}, {hi, math.Exp(m + h)}} {
		if math.Abs(c[0]-c[1]) > 1e-6 {
			t.Errorf("ratioInterval(0.9, 1, 1.1) = %v, %v, %v; want %v, %v, %v", r, lo, hi, math.Exp(m), math.Exp(m-h), math.Exp(m+h))
			break
		}
	}
	if r, lo, hi := ratioInterval([]float64{math.Log(0.8)}); math.Abs(r-0.8) > 1e-15 || !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("one repetition: %v, %v, %v; want 0.8, NaN, NaN", r, lo, hi)
	}
	if r, lo, _ := ratioInterval([]float64{0, math.NaN()}); !math.IsNaN(r) || !math.IsNaN(lo) {
		t.Errorf("a NaN log ratio gave %v, %v", r, lo)
	}
}

// TestSimulatePoolWeights checks that a batch method's rows are fitted with
// their pool weights, and uniform labeling's without.
func TestSimulatePoolWeights(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(300, 2, 0.1, 4)
	df, err := FromMatrix(x, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	df = df.Mutate(series.New(y, series.Float, "y"))
	spec := SimulateSpec{Target: "y", Methods: []string{"uniform", "lcmd"}, Budgets: []int{20, 40}, M: 40}
	weighted, err := Simulate(context.Background(), df, spec)
	if err != nil {
		t.Fatal(err)
	}
	spec.NoPoolWeights = true
	plain, err := Simulate(context.Background(), df, spec)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := Column(weighted.Curves, "rmse")
	p, _ := Column(plain.Curves, "rmse")
	// Rows: uniform 20, 40, then lcmd 20 (the shared random batch), 40.
	if w[0] != p[0] || w[1] != p[1] || w[2] != p[2] || w[3] == p[3] {
		t.Errorf("test RMSE with pool weights %v, without %v: only lcmd at 40 labels should differ", w, p)
	}

	// One fit against credlab.Tune with credlab.PoolWeights.
	sp := &simSplit{xt: x, yt: y, xp: x, yp: y}
	k := credlab.GaussianKernel{Sigma: 1, Scales: []float64{1, 0.5}}
	r := &simRun{method: "lcmd", seed: 3, split: sp, labeled: []int{0, 5, 9, 14, 20, 33, 41, 57, 60, 71, 80, 99, 120, 150, 200}, kernel: k}
	row, err := r.fit(context.Background(), 15, -1, true)
	if err != nil {
		t.Fatal(err)
	}
	xl := gatherX(x, r.labeled)
	pw, err := credlab.PoolWeights(context.Background(), x, xl, k) // the kernel the rows were selected with
	if err != nil {
		t.Fatal(err)
	}
	fit, err := credlab.Tune(context.Background(), xl, gatherFloats(y, r.labeled), credlab.TuneConfig{Weights: pw, Seed: 3, TimeBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	pred, err := fit.Fit.Model.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	if want := credlab.RMSE(pred, y); row.rmse != want {
		t.Errorf("weighted fit's test RMSE %g, want %g", row.rmse, want)
	}
	// pool_rmse: the same predictions on the 285 rows not labeled.
	var pr, yr []float64
	for i := range y {
		if !slices.Contains(r.labeled, i) {
			pr, yr = append(pr, pred[i]), append(yr, y[i])
		}
	}
	if want := credlab.RMSE(pr, yr); len(pr) != 285 || math.Abs(row.pool-want) > 1e-12*want {
		t.Errorf("RMSE on the %d unlabeled pool rows %g, want %g", len(pr), row.pool, want)
	}
	// est_lo, est_hi: the fit's interval for the RMSE over those 285 rows.
	if e := fit.Choice.PoolRMSE; e == nil {
		t.Error("no pool RMSE estimate")
	} else if o := e.OverRows(285); row.est != e.RMSE || row.estLo != o.Lo || row.estHi != o.Hi || !(o.Lo < e.Lo) {
		t.Errorf("estimate %g (%g to %g), want %g (%g to %g) from %+v", row.est, row.estLo, row.estHi, e.RMSE, o.Lo, o.Hi, e)
	}
}

// A last budget that labels the whole pool leaves no pool row to measure:
// pool_rmse is NaN there, and the simulation runs to the end.
func TestSimulateWholePool(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(100, 2, 0.1, 5)
	df, err := FromMatrix(x, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	df = df.Mutate(series.New(y, series.Float, "y"))
	res, err := Simulate(context.Background(), df, SimulateSpec{Target: "y", Methods: []string{"uniform", "lcmd"}, Budgets: []int{20, 80}, M: 30})
	if err != nil {
		t.Fatal(err)
	}
	pool, _ := Column(res.Curves, "pool_rmse")
	labels, _ := Column(res.Curves, "labels")
	for i := range pool {
		if (labels[i] == 80) != math.IsNaN(pool[i]) {
			t.Errorf("row %d, %g labels of 80 pool rows: pool_rmse %g", i, labels[i], pool[i])
		}
	}
}

// TestCutShort: the warning names the fits whose search the time budget
// stopped, five at most, and counts them all.
func TestCutShort(t *testing.T) {
	row := func(m string, labels int, seed uint64, cut bool) simRow {
		return simRow{method: m, labels: labels, seed: seed, cut: cut}
	}
	if w := cutShort([]simRow{row("uniform", 256, 1, false)}); w != "" {
		t.Errorf("no fit cut: %q", w)
	}
	w := cutShort([]simRow{row("uniform", 256, 1, false), row("lcmd", 512, 1, true), row("uniform", 512, 2, true)})
	if !strings.HasPrefix(w, "2 of 3 fits stopped their search") || !strings.Contains(w, ": lcmd at 512 labels (seed 1), uniform at 512 labels (seed 2); a larger -time") {
		t.Errorf("two fits cut: %q", w)
	}
	var many []simRow
	for i := range 7 {
		many = append(many, row("lcmd", 256*(i+1), 1, true))
	}
	if w := cutShort(many); !strings.HasPrefix(w, "7 of 7 fits") || !strings.Contains(w, "lcmd at 1280 labels (seed 1), ...; ") || strings.Contains(w, "1536") {
		t.Errorf("seven fits cut: %q", w)
	}
}
