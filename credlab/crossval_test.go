package credlab

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTuneCV checks the cross-validation score of every lambda against
// the Nyström estimator refitted on each fold's complement by an explicit
// solve, f_V = K_Vm (K_mT W K_Tm + mu K_mm)^-1 K_mT W y_T with
// mu = lambda |T|, with and without weights.
func TestTuneCV(t *testing.T) {
	const n, m, k, seed = 150, 30, 4, 3
	rng := newRNG(7)
	x := randData(rng, n, 2, 1.5)
	y := smoothTargets(rng, x, 0.2)
	grid := LogGrid(1e-8, 1, 9)
	w := make([]float64, n)
	for i := range w {
		w[i] = 0.5 + rng.Float64()
	}
	for _, weights := range [][]float64{nil, w} {
		res, err := Tune(t.Context(), x, y, TuneConfig{Method: "NKRLS", M: m, Seed: seed, Sigma: 0.5, Lambdas: grid, Folds: k, Weights: weights})
		if err != nil {
			t.Fatal(err)
		}
		if res.Choice.Criterion != CriterionCV {
			t.Fatalf("criterion %q, want the default cv", res.Choice.Criterion)
		}
		// The folds, dealt independently of newKFolds.
		fold := make([]int, n)
		for i, r := range rand.New(rand.NewPCG(seed, 0x63726f7373)).Perm(n) {
			fold[r] = i % k
		}
		yc := make([]float64, n)
		mu0, sw := 0.0, 0.0
		for i, v := range y {
			wi := 1.0
			if weights != nil {
				wi = weights[i]
			}
			mu0 += wi * v
			sw += wi
		}
		for i, v := range y {
			yc[i] = v - mu0/sw
		}
		idx, err := NystromCenters(x, m, nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		ref := refGaussian(0.5)
		cm := rowsOf(x, idx)
		kmm := refMatrix(ref, cm, cm)
		knm := refMatrix(ref, x, cm)
		var pts []TunePoint
		for _, p := range res.Table {
			if p.Stage != "centers" {
				pts = append(pts, p)
			}
		}
		if len(pts) != len(grid) {
			t.Fatalf("%d table points, want %d", len(pts), len(grid))
		}
		for li, l := range grid {
			sse := 0.0
			for f := 0; f < k; f++ {
				var tr, va []int
				for i := range fold {
					if fold[i] == f {
						va = append(va, i)
					} else {
						tr = append(tr, i)
					}
				}
				yt := make([]float64, len(tr))
				var wt []float64
				for j, r := range tr {
					yt[j] = yc[r]
					if weights != nil {
						wt = append(wt, weights[r])
					}
				}
				h, rhs, _ := refGram(rowsOf(knm, tr), yt, wt) // K_mT W K_Tm, K_mT W y_T
				g := addMat(h, scaleMat(l*float64(len(tr)), kmm))
				coef := matVec(inverse(t, g), rhs)
				pred := matVec(rowsOf(knm, va), coef)
				for j, r := range va {
					wr := 1.0
					if weights != nil {
						wr = weights[r]
					}
					sse += wr * (yc[r] - pred[j]) * (yc[r] - pred[j])
				}
			}
			want := sse / n
			if p := pts[li]; p.Lambda != l || !relClose(p.Score, want, 1e-6) {
				t.Errorf("weights %v, lambda %g: cv %.10g, want %.10g", weights != nil, l, p.Score, want)
			}
		}
	}
}

// TestKFoldsPartition checks that the folds hold every row once, in
// sizes that differ by at most one, and that the seed fixes them.
func TestKFoldsPartition(t *testing.T) {
	const n, k = 103, 5
	x := mat.NewDense(n, 1, nil)
	y := make([]float64, n)
	for i := range y {
		x.Set(i, 0, float64(i))
		y[i] = float64(i)
	}
	a, err := newKFolds(x, y, nil, k, 9)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newKFolds(x, y, nil, k, 9)
	c, _ := newKFolds(x, y, nil, k, 10)
	seen := make([]int, n)
	same, differ := true, false
	for f := 0; f < k; f++ {
		rows, fy, _ := a.fold(f)
		if r := len(rows); r < n/k || r > n/k+1 {
			t.Errorf("fold %d holds %d rows, want %d or %d", f, r, n/k, n/k+1)
		}
		_, by, _ := b.fold(f)
		_, cy, _ := c.fold(f)
		for i, v := range fy {
			seen[int(v)]++
			if x.At(rows[i], 0) != v {
				t.Fatalf("fold %d row %d: x %g and y %g come from different rows", f, i, x.At(rows[i], 0), v)
			}
			same = same && by[i] == v
			differ = differ || i >= len(cy) || cy[i] != v
		}
	}
	for i, s := range seen {
		if s != 1 {
			t.Errorf("row %d is in %d folds", i, s)
		}
	}
	if !same || !differ {
		t.Errorf("same seed same folds: %v; another seed other folds: %v", same, differ)
	}
}

// TestCVScoresReuseFold0 checks that a full evaluation reusing a screen's
// fold-0 scores equals one that scores every fold, and that the screen's
// scores are fold 0's.
func TestCVScoresReuseFold0(t *testing.T) {
	const dim, k = 12, 4
	rng := newRNG(5)
	grid := LogGrid(1e-6, 1, 7)
	folds := randFolds(t, rng, k, dim, 20)
	screen, f0, err := cvScores(t.Context(), folds, grid, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	reused, _, err := cvScores(t.Context(), folds, grid, false, f0)
	if err != nil {
		t.Fatal(err)
	}
	fresh, g0, err := cvScores(t.Context(), folds, grid, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	least := math.Inf(1)
	for i := range grid {
		if !reflect.DeepEqual(reused[i], fresh[i]) {
			t.Errorf("lambda %g: reusing fold 0 gives %+v, scoring every fold %+v", grid[i], reused[i], fresh[i])
		}
		if want := math.Sqrt(g0.sse[i] / float64(folds[0].Rows)); len(fresh[i].folds) != len(folds) || fresh[i].folds[0] != want {
			t.Errorf("lambda %g: fold RMSEs %v, want %d of them, fold 0's %g", grid[i], fresh[i].folds, len(folds), want)
		}
		if want := g0.sse[i] / float64(folds[0].Rows); math.Abs(screen[i].score-want) > 1e-12*want {
			t.Errorf("lambda %g: screen score %g, fold 0's mean squared error %g", grid[i], screen[i].score, want)
		}
		least = math.Min(least, screen[i].score)
	}
	if got := f0.least(); got != least {
		t.Errorf("least %g, want the screen's least score %g", got, least)
	}
}

// TestExactScreen checks exact KRLS's fold-0 score, the stand-in for a
// doubling of m to the rows the fold trains on, against explicit solves
// f_0 = K_0T W^1/2 (W^1/2 K_TT W^1/2 + mu I)^-1 W^1/2 y_T, mu = lambda |T|,
// with and without weights.
func TestExactScreen(t *testing.T) {
	const n, k, seed, sigma = 120, 4, 5, 0.7
	rng := newRNG(11)
	x := randData(rng, n, 2, 1.5)
	y := smoothTargets(rng, x, 0.2)
	grid := LogGrid(1e-6, 1e-1, 6)
	w := make([]float64, n)
	for i := range w {
		w[i] = 0.5 + rng.Float64()
	}
	for _, weights := range [][]float64{nil, w} {
		tu, err := newTuner(x, y, TuneConfig{Seed: seed, Folds: k, Lambdas: grid, Weights: weights})
		if err != nil {
			t.Fatal(err)
		}
		got, err := tu.exactScreen(t.Context(), sigma)
		if err != nil {
			t.Fatal(err)
		}
		// The folds, dealt independently of newKFolds; the target
		// centered as Tune centers it.
		var tr, va []int
		for i, r := range rand.New(rand.NewPCG(seed, 0x63726f7373)).Perm(n) {
			if i%k == 0 {
				va = append(va, r)
			} else {
				tr = append(tr, r)
			}
		}
		slices.Sort(tr)
		slices.Sort(va)
		ref := refGaussian(sigma)
		ktt := refMatrix(ref, rowsOf(x, tr), rowsOf(x, tr))
		k0t := refMatrix(ref, rowsOf(x, va), rowsOf(x, tr))
		sq := make([]float64, n)
		for i := range sq {
			sq[i] = 1
			if weights != nil {
				sq[i] = math.Sqrt(weights[i])
			}
		}
		want := math.Inf(1)
		for _, l := range grid {
			g := mat.NewDense(len(tr), len(tr), nil)
			b := make([]float64, len(tr))
			for i, ri := range tr {
				for j, rj := range tr {
					g.Set(i, j, sq[ri]*ktt.At(i, j)*sq[rj])
				}
				g.Set(i, i, g.At(i, i)+l*float64(len(tr)))
				b[i] = sq[ri] * tu.y[ri]
			}
			z := denseSolve(t, g, b)
			for i, ri := range tr {
				z[i] *= sq[ri]
			}
			pred := matVec(k0t, z)
			sse := 0.0
			for i, r := range va {
				e := sq[r] * (tu.y[r] - pred[i])
				sse += e * e
			}
			want = math.Min(want, sse/float64(len(va)))
		}
		if !relClose(got, want, 1e-8) {
			t.Errorf("weights %v: exact screen %.10g, want %.10g", weights != nil, got, want)
		}
	}
}

// TestScreenedGrowth checks which screen a doubling of m gets: exact KRLS
// once m reaches the rows fold 0 trains on, the Nyström fold-0 screen
// below, and that either passes only a gain over 1%.
func TestScreenedGrowth(t *testing.T) {
	const n = 200 // fold 0 trains on 160 rows
	rng := newRNG(12)
	x := randData(rng, n, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	for _, c := range []struct {
		m2    int
		first float64
		exact bool
		pass  bool
	}{
		{160, 1e9, true, true},
		{160, 1e-12, true, false},
		{100, 1e9, false, true},
		{100, 1e-12, false, false},
	} {
		tu, err := newTuner(x, y, TuneConfig{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		ev, err := tu.nystromEval(t.Context(), c.m2, nil)
		if err != nil {
			t.Fatal(err)
		}
		pass, err := tu.screenedGrowth(t.Context(), ev, sigmaResult{sigma: 1, best: -1, first: c.first}, c.m2)
		if err != nil {
			t.Fatal(err)
		}
		if pass != c.pass {
			t.Errorf("m2 = %d, best fold-0 score %g: passed %v, want %v", c.m2, c.first, pass, c.pass)
		}
		if !c.pass {
			st := tu.out.Choice.Stages
			if len(st) != 1 || strings.Contains(st[0], "exact KRLS") != c.exact {
				t.Errorf("m2 = %d: stages %q, want one screen by exact KRLS %v", c.m2, st, c.exact)
			}
		}
	}
}

// TestKeptStats checks that the walk's best sigma keeps its folds'
// statistics, so that its full cross-validation makes no second pass, and
// that the scores are those of a fresh evaluation.
func TestKeptStats(t *testing.T) {
	rng := newRNG(13)
	x := randData(rng, 300, 3, 1)
	y := smoothTargets(rng, x, 0.1)
	tu, err := newTuner(x, y, TuneConfig{Seed: 1, Lambdas: LogGrid(1e-6, 1, 7)})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := tu.nystromEval(t.Context(), 60, nil)
	if err != nil {
		t.Fatal(err)
	}
	best, _, _, err := tu.screenWalk(t.Context(), ev, 4)
	if err != nil {
		t.Fatal(err)
	}
	kept := ev.stats
	if ev.statsSigma != best {
		kept = ev.kept
		if ev.keptSigma != best {
			t.Fatalf("walk's best sigma %g: statistics of %g and %g held", best, ev.statsSigma, ev.keptSigma)
		}
	}
	got, err := ev.eval(t.Context(), best)
	if err != nil {
		t.Fatal(err)
	}
	if &ev.stats[0] != &kept[0] {
		t.Error("the best sigma's statistics were computed again")
	}
	fresh, err := tu.nystromEval(t.Context(), 60, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fresh.eval(t.Context(), best)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Float64bits(got[i].score) != math.Float64bits(want[i].score) {
			t.Errorf("lambda %g: score %g from kept statistics, %g fresh", want[i].lambda, got[i].score, want[i].score)
		}
	}
}

// TestCVScoresProcs checks that the folds, scored side by side below
// foldParallelDim and one after another above it, give the same bits on
// one core and on several.
func TestCVScoresProcs(t *testing.T) {
	rng := newRNG(6)
	grid := LogGrid(1e-6, 1, 9)
	for _, c := range []struct{ dim, k int }{{40, 5}, {foldParallelDim + 8, 2}} {
		dim := c.dim
		folds := randFolds(t, rng, c.k, dim, dim/4)
		var one, four []lambdaScore
		var err1, err4 error
		withProcs(1, func() { one, _, err1 = cvScores(t.Context(), folds, grid, false, nil) })
		withProcs(4, func() { four, _, err4 = cvScores(t.Context(), folds, grid, false, nil) })
		if err1 != nil || err4 != nil {
			t.Fatal(err1, err4)
		}
		for i := range grid {
			if math.Float64bits(one[i].score) != math.Float64bits(four[i].score) || math.Float64bits(one[i].train) != math.Float64bits(four[i].train) {
				t.Errorf("dim %d, lambda %g: %+v on 1 core, %+v on 4", dim, grid[i], one[i], four[i])
			}
		}
	}
}

// randFolds returns the Gram statistics of k folds of random rows of dim
// features, fold f holding rows+f of them.
func randFolds(t *testing.T, rng *rand.Rand, k, dim, rows int) []*GramStats {
	folds := make([]*GramStats, k)
	for f := range folds {
		x := randData(rng, rows+f, dim, 1)
		s, err := NewGramStats(dim)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Add(x, smoothTargets(rng, x, 0.3), nil); err != nil {
			t.Fatal(err)
		}
		folds[f] = s
	}
	return folds
}
