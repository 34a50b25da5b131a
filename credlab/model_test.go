package credlab

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// TestPredictSpansBlocks predicts more rows than one kernel block holds
// (predictBlockBytes / 8 / centers rows per block, last block partial) and
// compares with a direct computation.
func TestPredictSpansBlocks(t *testing.T) {
	rng := newRNG(90)
	const c, d = 20000, 2
	block := predictBlockBytes / 8 / c
	n := 2*block + 50 // three blocks, the last one partial
	centers := randData(rng, c, d, 1)
	coef := make([]float64, c)
	for i := range coef {
		coef[i] = rng.NormFloat64()
	}
	x := randData(rng, n, d, 1)

	// Linear kernel: f(x) = x . (C^T coef), computed directly.
	m := &Model{Kernel: LinearKernel{}, Centers: centers, Coef: coef}
	got, err := m.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	w := matVec(centers.T(), coef)
	if dd := relDiff(got, matVec(x, w)); dd > 1e-10 {
		t.Errorf("linear, %d rows in blocks of %d: rel %g", n, block, dd)
	}

	// Gaussian kernel through the distance path: the centers are 5 distinct
	// points repeated, so the direct sum collapses to 5 terms per row.
	pts := randData(rng, 5, d, 1)
	cg := mat.NewDense(c, d, nil)
	sums := make([]float64, 5)
	for j := 0; j < c; j++ {
		cg.SetRow(j, row(pts, j%5))
		sums[j%5] += coef[j]
	}
	mg := &Model{Kernel: GaussianKernel{Sigma: 0.8}, Centers: cg, Coef: coef}
	got, err = mg.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	ref := refGaussian(0.8)
	want := make([]float64, n)
	for i := range want {
		for p := 0; p < 5; p++ {
			want[i] += sums[p] * ref(row(x, i), row(pts, p))
		}
	}
	if dd := relDiff(got, want); dd > 1e-9 {
		t.Errorf("gaussian, %d rows in blocks of %d: rel %g", n, block, dd)
	}
}

func TestPredictModerate(t *testing.T) {
	rng := newRNG(91)
	centers := randData(rng, 50, 3, 1)
	coef := smoothTargets(rng, centers, 1)
	x := randData(rng, 70, 3, 1)
	for _, c := range kernelCases() {
		m := &Model{Kernel: c.k, Centers: centers, Coef: coef}
		got, err := m.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		if dd := relDiff(got, matVec(refMatrix(c.ref, x, centers), coef)); dd > 1e-12 {
			t.Errorf("%s: rel %g", c.name, dd)
		}
	}
}

func TestPredictErrors(t *testing.T) {
	rng := newRNG(92)
	centers := randData(rng, 10, 3, 1)
	coef := make([]float64, 10)
	x := randData(rng, 4, 3, 1)
	g := GaussianKernel{Sigma: 1}
	nanX := mat.DenseCopyOf(x)
	nanX.Set(1, 2, math.NaN())
	cases := []struct {
		name string
		m    *Model
		x    *mat.Dense
		want errKind
	}{
		{"nil model", nil, x, isErr(ErrEmpty)},
		{"zero model", &Model{}, x, isErr(ErrEmpty)},
		{"no coefficients", &Model{Kernel: g, Centers: centers}, x, isErr(ErrEmpty)},
		{"no centers", &Model{Kernel: g, Coef: coef}, x, isErr(ErrEmpty)},
		{"coef/centers mismatch", &Model{Kernel: g, Centers: centers, Coef: coef[:7]}, x, isErr(ErrShape)},
		{"column mismatch", &Model{Kernel: g, Centers: centers, Coef: coef}, randData(rng, 4, 2, 1), isErr(ErrShape)},
		{"nil kernel", &Model{Centers: centers, Coef: coef}, x, paramErr("Kernel")},
		{"bad kernel", &Model{Kernel: GaussianKernel{}, Centers: centers, Coef: coef}, x, paramErr("Gaussian kernel sigma", 0.0)},
		{"nil x", &Model{Kernel: g, Centers: centers, Coef: coef}, nil, isErr(ErrEmpty)},
		{"NaN x", &Model{Kernel: g, Centers: centers, Coef: coef}, nanX, notFiniteErr("x", 1, 2, math.NaN())},
	}
	for _, c := range cases {
		err := callNoPanic(func() error { _, err := c.m.Predict(c.x); return err })
		wantErr(t, c.name, err, c.want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := &Model{Kernel: g, Centers: centers, Coef: coef}
	if _, err := m.PredictContext(ctx, x); err == nil {
		t.Error("cancelled context: no error")
	}
}

// TestDeterminism fits every estimator twice with the same seeds, with
// GOMAXPROCS 1 and 2, and requires bit-identical results. n = 100 rows
// exceed the 64-row threshold of the parallel loops.
func TestDeterminism(t *testing.T) {
	rng := newRNG(93)
	x := randData(rng, 100, 3, 1)
	y := smoothTargets(rng, x, 0.2)
	for _, e := range estimators(GaussianKernel{Sigma: 0.7}, 20) {
		var f1, f2 *Fit
		withProcs(1, func() {
			var err error
			if f1, err = e.fit(x, y); err != nil {
				t.Fatal(err)
			}
		})
		withProcs(2, func() {
			var err error
			if f2, err = e.fit(x, y); err != nil {
				t.Fatal(err)
			}
		})
		if !sameFit(f1, f2) {
			t.Errorf("%s: fits differ between GOMAXPROCS 1 and 2", e.name)
		}
	}
}

func sameFit(a, b *Fit) bool {
	if a.Method != b.Method || a.Iter != b.Iter || a.Rank != b.Rank || len(a.Path) != len(b.Path) {
		return false
	}
	if !sameBits([]float64{a.Lambda, a.ValRMSE}, []float64{b.Lambda, b.ValRMSE}) {
		return false
	}
	for i := range a.Path {
		p, q := a.Path[i], b.Path[i]
		if p.Iter != q.Iter || !sameBits([]float64{p.Lambda, p.TrainRMSE, p.ValRMSE}, []float64{q.Lambda, q.TrainRMSE, q.ValRMSE}) {
			return false
		}
	}
	if !sameBits(a.Model.Coef, b.Model.Coef) || !sameBits(denseBits(a.Model.Centers), denseBits(b.Model.Centers)) {
		return false
	}
	if len(a.Iterates) != len(b.Iterates) {
		return false
	}
	for k, v := range a.Iterates {
		if !sameBits(v, b.Iterates[k]) {
			return false
		}
	}
	return true
}

// TestSingleRow: fixed-parameter fits work on one row and reproduce the
// target; selection needs a validation row and says so.
func TestSingleRow(t *testing.T) {
	x := mat.NewDense(1, 2, []float64{0.3, -0.7})
	y := []float64{2.5}
	bg := context.Background()
	g := GaussianKernel{Sigma: 1}
	one := NystromConfig{M: 1}
	step := IterConfig{Iter: 1, StepSize: 1, Plain: true}
	fixed := map[string]Estimator{
		"KRLS":          KRLSConfig{Kernel: g, Lambda: 1e-10},
		"KOLS":          KOLSConfig{Kernel: g},
		"EarlyStopping": EarlyStoppingConfig{Kernel: g, IterConfig: step},
		"NKRLS":         NKRLSConfig{Kernel: g, Lambda: 1e-10, Nystrom: one},
		"NYTRO":         NYTROConfig{Kernel: g, Nystrom: one, IterConfig: step},
	}
	for name, e := range fixed {
		var fit *Fit
		err := callNoPanic(func() error { var err error; fit, err = e.Fit(bg, x, y, nil); return err })
		if err != nil {
			t.Errorf("%s on one row: %v", name, err)
			continue
		}
		p, err := fit.Model.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p[0]-y[0]) > 1e-8 {
			t.Errorf("%s on one row predicts %g, want %g", name, p[0], y[0])
		}
	}
	// A polynomial kernel (k(x,x) != 1): one plain gradient step with the
	// NYTRO paper's step 1/k(x,x) lands on y exactly for EarlyStopping and
	// NYTRO; the default step is 0.95/k(x,x), the nu-method's first step
	// weight 6/5, so 30 default steps come close.
	pk := PolynomialKernel{Degree: 2, Gamma: 1, Coef0: 1}
	r := x.RawRowView(0)
	paper := IterConfig{Iter: 1, StepSize: 1 / pk.Eval(r, r), Plain: true}
	for name, f := range map[string]func() (*Fit, error){
		"EarlyStopping": func() (*Fit, error) {
			return EarlyStopping(bg, x, y, EarlyStoppingConfig{Kernel: pk, IterConfig: paper})
		},
		"NYTRO": func() (*Fit, error) {
			return NYTRO(bg, x, y, NYTROConfig{Kernel: pk, Nystrom: one, IterConfig: paper})
		},
	} {
		fit, err := f()
		if err != nil {
			t.Fatalf("%s polynomial: %v", name, err)
		}
		p, _ := fit.Model.Predict(x)
		if math.Abs(p[0]-y[0]) > 1e-12 {
			t.Errorf("%s polynomial, one row, one step: %g, want %g", name, p[0], y[0])
		}
	}
	selection := map[string]Estimator{
		"KRLS":          KRLSConfig{Kernel: g},
		"EarlyStopping": EarlyStoppingConfig{Kernel: g},
		"NKRLS":         NKRLSConfig{Kernel: g, Nystrom: one},
		"NYTRO":         NYTROConfig{Kernel: g, Nystrom: one},
	}
	for name, e := range selection {
		err := callNoPanic(func() error { _, err := e.Fit(bg, x, y, nil); return err })
		wantErr(t, name+" selection on one row", err, isErr(ErrEmpty))
	}
}

// TestDuplicatedData: every row twice (same target) is the same problem as
// the unique rows for KRLS (same lambda), KOLS and Landweber (same step), so
// predictions agree with fits on the unique rows.
func TestDuplicatedData(t *testing.T) {
	rng := newRNG(94)
	xu := randData(rng, 25, 2, 2)
	yu := smoothTargets(rng, xu, 0.2)
	xd := mat.NewDense(50, 2, nil)
	yd := make([]float64, 50)
	for i := 0; i < 50; i++ {
		xd.SetRow(i, row(xu, i%25))
		yd[i] = yu[i%25]
	}
	xnew := randData(rng, 20, 2, 2)
	g := GaussianKernel{Sigma: 0.6}
	bg := context.Background()
	pairs := []estimator{
		{"KRLS", KRLSConfig{Kernel: g, Lambda: 1e-3}},
		{"KOLS", KOLSConfig{Kernel: g}},
		{"EarlyStopping", EarlyStoppingConfig{Kernel: g, IterConfig: IterConfig{Iter: 30}}},
	}
	for _, p := range pairs {
		fu, err := p.fit(xu, yu)
		if err != nil {
			t.Fatal(err)
		}
		fd, err := p.fit(xd, yd)
		if err != nil {
			t.Fatalf("%s on duplicated rows: %v", p.name, err)
		}
		a, _ := fu.Model.Predict(xnew)
		b, _ := fd.Model.Predict(xnew)
		if d := relDiff(b, a); d > 1e-7 {
			t.Errorf("%s: duplicated-row predictions differ from unique-row ones: rel %g", p.name, d)
		}
	}
	// KOLS's numerical rank counts distinct rows.
	f, err := KOLS(bg, xd, yd, KOLSConfig{Kernel: g})
	if err != nil {
		t.Fatal(err)
	}
	if f.Rank != 25 {
		t.Errorf("KOLS rank on 25 distinct rows twice: %d", f.Rank)
	}
}

// TestConstantTargets: zero targets give exactly zero models everywhere;
// constant targets are fitted without trouble.
func TestConstantTargets(t *testing.T) {
	rng := newRNG(95)
	x := randData(rng, 40, 2, 1)
	zero := make([]float64, 40)
	three := make([]float64, 40)
	for i := range three {
		three[i] = 3
	}
	for _, e := range estimators(GaussianKernel{Sigma: 1}, 10) {
		fit, err := e.fit(x, zero)
		if err != nil {
			t.Errorf("%s, zero targets: %v", e.name, err)
			continue
		}
		for _, v := range fit.Model.Coef {
			if v != 0 {
				t.Errorf("%s, zero targets: coefficient %g", e.name, v)
				break
			}
		}
		for _, p := range fit.Path {
			if p.TrainRMSE != 0 && !math.IsNaN(p.TrainRMSE) {
				t.Errorf("%s, zero targets: TrainRMSE %g", e.name, p.TrainRMSE)
				break
			}
		}
		fit, err = e.fit(x, three)
		if err != nil {
			t.Errorf("%s, constant targets: %v", e.name, err)
			continue
		}
		p, err := fit.Model.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range p {
			if math.IsNaN(v) || math.Abs(v-3) > 1.5 {
				t.Errorf("%s, constant 3: prediction %g", e.name, v)
				break
			}
		}
		if !math.IsNaN(fit.ValRMSE) && !(fit.ValRMSE < 1) {
			t.Errorf("%s, constant 3: ValRMSE %g", e.name, fit.ValRMSE)
		}
	}
	// KRLS with small lambda and KOLS fit the constant closely.
	f, err := KRLS(context.Background(), x, three, KRLSConfig{Kernel: GaussianKernel{Sigma: 1}, Lambda: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := f.Model.Predict(x)
	if d := relDiff(p, three); d > 1e-4 {
		t.Errorf("KRLS lambda 1e-9, constant 3: rel %g", d)
	}
}

func TestRMSEAndTiming(t *testing.T) {
	p := []float64{1, 2, 3, 4}
	y := []float64{1.5, 2, 2, 4}
	if got, want := RMSE(p, y), math.Sqrt((0.25+1)/4); math.Abs(got-want) > 1e-15 {
		t.Errorf("RMSE = %g, want %g", got, want)
	}
	if !math.IsNaN(RMSE(nil, nil)) {
		t.Error("RMSE of nothing is not NaN")
	}
	tm := Timing{Kernel: time.Second, Solve: 2 * time.Millisecond, Select: 3}
	if tm.Total() != time.Second+2*time.Millisecond+3 {
		t.Errorf("Total = %v", tm.Total())
	}
	if !strings.Contains(GaussianKernel{Sigma: 2}.String(), "2") {
		t.Error("kernel String lacks its parameter")
	}
}
