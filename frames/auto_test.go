package frames

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// standardized returns the columns a, b of the frames standardized with
// the training rows' mean and population standard deviation.
func standardized(t *testing.T, train, test *mat.Dense) {
	t.Helper()
	n, d := train.Dims()
	for j := 0; j < d; j++ {
		mean, v := 0.0, 0.0
		for i := 0; i < n; i++ {
			mean += train.At(i, j) / float64(n)
		}
		for i := 0; i < n; i++ {
			v += (train.At(i, j) - mean) * (train.At(i, j) - mean) / float64(n)
		}
		sd := math.Sqrt(v)
		for _, z := range []*mat.Dense{train, test} {
			r, _ := z.Dims()
			for i := 0; i < r; i++ {
				z.Set(i, j, (z.At(i, j)-mean)/sd)
			}
		}
	}
}

func gauss(a, b *mat.Dense, sigma float64) *mat.Dense {
	na, d := a.Dims()
	nb, _ := b.Dims()
	k := mat.NewDense(na, nb, nil)
	for i := 0; i < na; i++ {
		for j := 0; j < nb; j++ {
			s := 0.0
			for c := 0; c < d; c++ {
				t := a.At(i, c) - b.At(j, c)
				s += t * t
			}
			k.Set(i, j, math.Exp(-s/(2*sigma*sigma)))
		}
	}
	return k
}

// TestFitAuto fits with a Spec holding only the target and checks the
// choice against an independent computation: at the chosen sigma and
// lambda, on columns standardized by hand and the target centered by hand,
// the GCV score n ||y - f||^2 / (n - 1 - tr H)^2 with H = K (K + lambda n
// I)^-1 from one dense solve, and the predictions ybar + K(x, X) alpha.
// The model's test RMSE must be near the noise level and the model must
// survive a save and load.
func TestFitAuto(t *testing.T) {
	train, test := regFrame(t, 300, 11), regFrame(t, 200, 12)
	m, err := Fit(train, Spec{Target: "y", Selection: "GCV", Relevance: "off"})
	if err != nil {
		t.Fatal(err)
	}
	c := m.Choice
	if c == nil || m.Spec.Method != "krls" || c.Method != "krls" || c.Criterion != "gcv" || m.Spec.Selection != "gcv" ||
		m.Spec.Scale != ScaleStandardize || !strings.Contains(c.Reason, "exact") || c.Sigma != m.Spec.Sigma || c.Lambda != m.Lambda {
		t.Fatalf("choice %+v, spec %+v", c, m.Spec)
	}
	if r, err := m.RMSE(test); err != nil || !(r < 0.13) {
		t.Errorf("test RMSE %v (noise 0.1), %v", r, err)
	}
	x, _ := ToMatrix(train, "a", "b")
	xt, _ := ToMatrix(test, "a", "b")
	standardized(t, x, xt)
	y := col(t, train, "y")
	n := len(y)
	ybar := 0.0
	for _, v := range y {
		ybar += v / float64(n)
	}
	yc := mat.NewVecDense(n, nil)
	for i, v := range y {
		yc.SetVec(i, v-ybar)
	}
	k := gauss(x, x, c.Sigma)
	var a mat.Dense
	a.CloneFrom(k)
	for i := 0; i < n; i++ {
		a.Set(i, i, a.At(i, i)+c.Lambda*float64(n))
	}
	var ainv mat.Dense
	if err := ainv.Inverse(&a); err != nil {
		t.Fatal(err)
	}
	var h mat.Dense
	h.Mul(k, &ainv)
	var f, alpha mat.VecDense
	f.MulVec(&h, yc)
	alpha.MulVec(&ainv, yc)
	sse := 0.0
	for i := 0; i < n; i++ {
		r := yc.AtVec(i) - f.AtVec(i)
		sse += r * r
	}
	den := float64(n) - 1 - 1.4*mat.Trace(&h) // modified GCV (Kim and Gu 2004)
	gcv := float64(n) * sse / (den * den)
	if math.Abs(c.Score-gcv) > 1e-6*gcv {
		t.Errorf("GCV score %v, by hand %v", c.Score, gcv)
	}
	if math.Abs(m.ValRMSE-math.Sqrt(gcv)) > 1e-6*math.Sqrt(gcv) {
		t.Errorf("validation RMSE %v, sqrt(GCV) %v", m.ValRMSE, math.Sqrt(gcv))
	}
	var pt mat.VecDense
	pt.MulVec(gauss(xt, x, c.Sigma), &alpha)
	got, err := m.PredictValues(test)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if want := ybar + pt.AtVec(i); math.Abs(g-want) > 1e-6*(1+math.Abs(want)) {
			t.Fatalf("row %d: prediction %v, by hand %v", i, g, want)
		}
	}
	var b bytes.Buffer
	if err := m.Save(&b); err != nil {
		t.Fatal(err)
	}
	m2, err := LoadModel(&b)
	if err != nil {
		t.Fatal(err)
	}
	got2, err := m2.PredictValues(test)
	if err != nil || got2[0] != got[0] || !reflect.DeepEqual(m2.Choice, c) || m2.Spec.Selection != "gcv" {
		t.Errorf("after save and load: %v, choice %+v", err, m2.Choice)
	}
	for _, want := range []string{"method krls (automatic: ", "criterion gcv = ", "validation RMSE ", "standardized", "intercept "} {
		if !strings.Contains(m.Summary(), want) {
			t.Errorf("summary lacks %q:\n%s", want, m.Summary())
		}
	}
}

// TestFitAutoSettings checks that the automatic method honours fixed
// settings and the other criteria.
func TestFitAutoSettings(t *testing.T) {
	train := regFrame(t, 200, 13)
	for _, c := range []struct {
		spec Spec
		crit string
	}{
		{Spec{Selection: "holdout", Seed: 3}, "holdout"},
		{Spec{Selection: "LOO"}, "loo"},
		{Spec{Sigma: 0.8}, "cv"},
		{Spec{Sigma: 0.8, Selection: "gcv"}, "gcv"},
		{Spec{Sigma: 0.8, Lambda: 1e-4}, "cv"},
		{Spec{Method: "auto", Kernel: "laplacian", Scale: "none", NoIntercept: true}, "cv"},
		{Spec{M: 40, Sigma: 0.8}, "cv"},
	} {
		c.spec.Target = "y"
		m, err := Fit(train, c.spec)
		if err != nil {
			t.Fatalf("%+v: %v", c.spec, err)
		}
		ch := m.Choice
		if ch.Criterion != c.crit || (c.spec.Sigma > 0 && ch.Sigma != c.spec.Sigma) || (c.spec.Lambda > 0 && ch.Lambda != c.spec.Lambda) {
			t.Errorf("%+v: choice %+v", c.spec, ch)
		}
		if c.spec.Scale == "none" && (m.Mean != nil || m.Predictor.Intercept != 0 || m.Spec.Kernel != "laplacian") {
			t.Errorf("%+v: means %v, intercept %v", c.spec, m.Mean, m.Predictor.Intercept)
		}
		if c.crit == "holdout" && m.Rows != 200 {
			t.Errorf("rows %d", m.Rows)
		}
	}
}

// TestSweepAuto checks the automatic sweep: one row per (sigma, lambda)
// with the criterion, sorted by Nyström rank (which large sigmas lower),
// sigma and lambda, and the chosen row marked: the least score.
func TestSweepAuto(t *testing.T) {
	df := regFrame(t, 150, 14)
	sw, err := Sweep(df, Spec{Target: "y"}, Grid{Sigma: []float64{0.5, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	crit := sw.Col(SweepCriterion).Records()
	score, sig, lam, ms := col(t, sw, SweepScore), col(t, sw, SweepSigma), col(t, sw, SweepLambda), col(t, sw, SweepM)
	best, _ := sw.Col(SweepBest).Bool()
	nb, least, chosen := 0, math.Inf(1), math.NaN()
	for i := range best {
		if score[i] < least {
			least = score[i]
		}
		if crit[i] != "cv" {
			t.Fatalf("row %d: criterion %q", i, crit[i])
		}
		if i > 0 && ms[i] == ms[i-1] && (sig[i] < sig[i-1] || sig[i] == sig[i-1] && lam[i] <= lam[i-1]) {
			t.Fatalf("rows not sorted by sigma and lambda at %d", i)
		}
		if best[i] {
			nb, chosen = nb+1, score[i]
		}
	}
	if nb != 1 || sw.Nrow() < 3*20 || !(chosen <= least*(1+1e-12)) {
		t.Errorf("%d rows, %d marked best, score %v, least %v", sw.Nrow(), nb, chosen, least)
	}
}
