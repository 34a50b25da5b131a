package credlab

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// refNormalScores maps column j of x by brute force: each row's mid-rank CDF
// (rows below it plus half the rows equal to it, over n), its normal
// quantile, standardized over the rows.
func refNormalScores(x *mat.Dense, j int) []float64 {
	n, _ := x.Dims()
	z := make([]float64, n)
	for i := range n {
		v := x.At(i, j)
		below, equal := 0, 0
		for k := range n {
			switch w := x.At(k, j); {
			case w < v:
				below++
			case w == v:
				equal++
			}
		}
		z[i] = distuv.UnitNormal.Quantile((float64(below) + float64(equal)/2) / float64(n))
	}
	mu, sd := meanStd(z)
	for i := range z {
		z[i] = (z[i] - mu) / sd
	}
	return z
}

func meanStd(v []float64) (mu, sd float64) {
	for _, a := range v {
		mu += a / float64(len(v))
	}
	for _, a := range v {
		sd += (a - mu) * (a - mu) / float64(len(v))
	}
	return mu, math.Sqrt(sd)
}

// TestNormalScores checks the map against refNormalScores on its training rows
// (with ties and with more distinct values than knots), between knots,
// beyond the ends, and that the other columns and x are untouched.
func TestNormalScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 3000
	x := mat.NewDense(n, 4, nil)
	for i := range n {
		x.Set(i, 0, math.Exp(2*rng.NormFloat64()))      // 3000 distinct values, 1000 knots
		x.Set(i, 1, rng.NormFloat64())                  // left as it is
		x.Set(i, 2, float64(rng.IntN(4)*rng.IntN(4)*3)) // ties: 0 (7 of 16 rows), 3, 6, 9, 12, 18, 27
		x.Set(i, 3, 0.9)                                // half the rows tie, among 1501 values
		if i%2 == 0 {
			x.Set(i, 3, math.Exp(rng.NormFloat64()))
		}
	}
	orig := mat.DenseCopyOf(x)
	ns, err := FitNormalScores(x, []int{0, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(ns.Knots[0]) != maxScoreKnots || ns.Knots[0][0] != mat.Col(nil, 0, x)[argmin(mat.Col(nil, 0, x))] {
		t.Errorf("%d knots of 1500 distinct values, first %v", len(ns.Knots[0]), ns.Knots[0][0])
	}
	if len(ns.Knots[1]) != 7 {
		t.Errorf("knots %v of a column of 7 values", ns.Knots[1])
	}
	if k := ns.Knots[2]; len(k) > maxScoreKnots || k[sort.SearchFloat64s(k, 0.9)] != 0.9 {
		t.Errorf("%d knots of 1501 values; the value half the rows take is not one of them", len(k))
	}
	got, err := ns.Apply(x)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(x, orig) {
		t.Fatal("Apply modified its argument")
	}
	// Rows at knots get their brute-force scores; rows between knots
	// (column 0 keeps 1000 of 3000 values, column 3 at most 1000 of 1501)
	// a score between their neighbours'.
	for c, j := range []int{0, 2, 3} {
		want := refNormalScores(x, j)
		k, sc := ns.Knots[c], ns.Scores[c]
		between := 0
		for i := range n {
			v, g := x.At(i, j), got.At(i, j)
			p := sort.SearchFloat64s(k, v)
			if k[p] == v {
				if math.Abs(g-want[i]) > 1e-12 {
					t.Fatalf("column %d, row %d at a knot: score %v, want %v", j, i, g, want[i])
				}
				continue
			}
			between++
			if !(sc[p-1] < g && g < sc[p] && sc[p-1] < want[i] && want[i] < sc[p]) {
				t.Fatalf("column %d, row %d between knots %v and %v: score %v, want %v within (%v, %v)", j, i, k[p-1], k[p], g, want[i], sc[p-1], sc[p])
			}
		}
		if want := []int{2000, 0, -1}[c]; between != want && (want >= 0 || between < 501) {
			t.Errorf("column %d: %d rows between knots, want %d (-1: at least 501)", j, between, want)
		}
	}
	for i := range n {
		if got.At(i, 1) != x.At(i, 1) {
			t.Fatalf("row %d: unmapped column changed", i)
		}
	}
	// Halfway between two knots, the scores' midpoint; beyond the ends,
	// the end scores.
	k, s := ns.Knots[1], ns.Scores[1]
	probe := mat.NewDense(3, 4, []float64{
		1, 0, (k[1] + k[2]) / 2, 1,
		1, 0, k[0] - 100, 1,
		1, 0, k[len(k)-1] + 1e6, 1})
	out, err := ns.Apply(probe)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{(s[1] + s[2]) / 2, s[0], s[len(s)-1]} {
		if math.Abs(out.At(i, 2)-want) > 1e-12 {
			t.Errorf("probe %d: score %v, want %v", i, out.At(i, 2), want)
		}
	}
}

func argmin(v []float64) int {
	b := 0
	for i, a := range v {
		if a < v[b] {
			b = i
		}
	}
	return b
}

func TestSkewedColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 2000
	x := mat.NewDense(n, 6, nil)
	for i := range n {
		x.Set(i, 0, rng.ExpFloat64())                  // skewness 2
		x.Set(i, 1, rng.NormFloat64())                 // 0
		x.Set(i, 2, -1e300*rng.ExpFloat64())           // -2, at a scale whose cubes overflow
		x.Set(i, 3, float64(b2i(rng.Float64() < .05))) // skewed, but two values
		x.Set(i, 4, 7)                                 // constant
		x.Set(i, 5, rng.Float64())                     // 0
	}
	got := SkewedColumns(x)
	if len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("skewed columns %v, want [0 2]", got)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestNormalScoresErrors(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 5, 2, 5, 3, 5})
	var pe *ParamError
	for _, cols := range [][]int{{1}, {2}, {0, 0}, {-1}} {
		if _, err := FitNormalScores(x, cols); !errors.As(err, &pe) {
			t.Errorf("columns %v: error %v, want a *ParamError", cols, err)
		}
	}
	ok := &NormalScores{Columns: []int{1}, Knots: [][]float64{{0, 1}}, Scores: [][]float64{{-1, 1}}}
	if _, err := ok.Apply(x); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]*NormalScores{
		"knots not increasing":  {Columns: []int{0}, Knots: [][]float64{{1, 1}}, Scores: [][]float64{{-1, 1}}},
		"scores not increasing": {Columns: []int{0}, Knots: [][]float64{{0, 1}}, Scores: [][]float64{{1, -1}}},
		"NaN knot":              {Columns: []int{0}, Knots: [][]float64{{math.NaN(), 1}}, Scores: [][]float64{{-1, 1}}},
		"one knot":              {Columns: []int{0}, Knots: [][]float64{{0}}, Scores: [][]float64{{0}}},
		"column beyond x":       {Columns: []int{2}, Knots: [][]float64{{0, 1}}, Scores: [][]float64{{-1, 1}}},
		"columns repeated":      {Columns: []int{0, 0}, Knots: [][]float64{{0, 1}, {0, 1}}, Scores: [][]float64{{-1, 1}, {-1, 1}}},
		"lists short":           {Columns: []int{0, 1}, Knots: [][]float64{{0, 1}}, Scores: [][]float64{{-1, 1}}},
	} {
		if _, err := bad.Apply(x); !errors.Is(err, ErrShape) {
			t.Errorf("%s: error %v, want ErrShape", name, err)
		}
	}
}

// TestTuneTransform: on lognormal columns, a target smooth in their logs
// gets the map (the leave-one-out comparison below 2000 rows, the
// relevance stage's held-out rows above), and one linear in the columns
// does not; the model maps raw rows itself, and TuneConfig.Transform
// forces or forbids the map.
func TestTuneTransform(t *testing.T) {
	ctx := context.Background()
	table := func(n int, seed uint64, linear bool) (*mat.Dense, []float64) {
		rng := rand.New(rand.NewPCG(seed, 9))
		x := mat.NewDense(n, 3, nil)
		y := make([]float64, n)
		for i := range n {
			r := x.RawRowView(i)
			for j := range r {
				r[j] = math.Exp(rng.NormFloat64())
			}
			if linear {
				y[i] = r[0] + r[1] + r[2] + 0.3*rng.NormFloat64()
			} else {
				y[i] = math.Sin(2*math.Log(r[0])) + math.Log(r[1])*math.Log(r[2]) + 0.1*rng.NormFloat64()
			}
		}
		return x, y
	}
	for _, c := range []struct {
		name   string
		n      int
		linear bool
		mode   string
		mapped bool
		stage  string
	}{
		{"log target, leave-one-out", 400, false, "", true, "mapped to normal scores: leave-one-out MSE of one shared scale"},
		{"linear target, leave-one-out", 400, true, "", false, "left as they are: leave-one-out MSE"},
		{"log target, held-out rows", 2400, false, "", true, "mapped to normal scores: validation MSE"},
		{"off", 400, false, TransformOff, false, ""},
		{"normal", 400, true, TransformNormal, true, "(TuneConfig.Transform)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, y := table(c.n, 1, c.linear)
			orig := mat.DenseCopyOf(x)
			tf, err := Tune(ctx, x, y, TuneConfig{Transform: c.mode, TimeBudget: -1, SearchOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(x, orig) {
				t.Fatal("Tune modified x")
			}
			ch, m := tf.Choice, tf.Fit.Model
			if (ch.Transform != nil) != c.mapped || m.Transform != ch.Transform {
				t.Fatalf("map %v (model's %v), want mapped %v; stages %q", ch.Transform, m.Transform, c.mapped, ch.Stages)
			}
			if !strings.Contains(strings.Join(ch.Stages, "\n"), c.stage) {
				t.Errorf("stages %q lack %q", ch.Stages, c.stage)
			}
			if !c.mapped {
				return
			}
			if len(ch.Transform.Columns) != 3 {
				t.Errorf("mapped columns %v, want all 3", ch.Transform.Columns)
			}
			// The model maps raw rows: its predictions are those of the same
			// expansion on rows mapped by hand.
			xt, _ := table(50, 2, c.linear)
			got, err := m.Predict(xt)
			if err != nil {
				t.Fatal(err)
			}
			xm, err := ch.Transform.Apply(xt)
			if err != nil {
				t.Fatal(err)
			}
			bare := *m
			bare.Transform = nil
			want, err := bare.Predict(xm)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("row %d: %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
	var pe *ParamError
	x, y := table(100, 1, false)
	if _, err := Tune(ctx, x, y, TuneConfig{Transform: "log"}); !errors.As(err, &pe) || pe.Name != "TuneConfig.Transform" {
		t.Errorf("Transform log: error %v, want a *ParamError naming TuneConfig.Transform", err)
	}
}
