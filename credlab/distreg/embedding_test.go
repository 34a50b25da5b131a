package distreg

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/errtest"
	"github.com/credlab/credlab/internal/vecmath"

	"gonum.org/v1/gonum/mat"
)

// drBags returns n seeded bags of sizes in [nmin, nmax] in d dimensions,
// bag j with points N(c_j, s_j^2 I), labelled c_j[0] + s_j.
func drBags(n, nmin, nmax, d int, seed uint64) *Bags {
	rng := rand.New(rand.NewPCG(seed, 2))
	b := &Bags{Y: make([]float64, n)}
	for j := 0; j < n; j++ {
		nj := nmin + rng.IntN(nmax-nmin+1)
		c := make([]float64, d)
		for i := range c {
			c[i] = rng.Float64()
		}
		s := 0.2 + 0.5*rng.Float64()
		x := mat.NewDense(nj, d, nil)
		for i := 0; i < nj; i++ {
			for k := 0; k < d; k++ {
				x.Set(i, k, c[k]+s*rng.NormFloat64())
			}
		}
		b.X = append(b.X, x)
		b.Y[j] = c[0] + s
	}
	return b
}

// drDirect returns (1/(N_a N_b)) sum_i sum_j g(a_i, b_j) by a plain double
// loop over At.
func drDirect(g credlab.Kernel, a, b *mat.Dense) float64 {
	na, d := a.Dims()
	nb, _ := b.Dims()
	s := 0.0
	ai, bj := make([]float64, d), make([]float64, d)
	for i := 0; i < na; i++ {
		for j := 0; j < nb; j++ {
			for k := 0; k < d; k++ {
				ai[k], bj[k] = a.At(i, k), b.At(j, k)
			}
			s += g.Eval(ai, bj)
		}
	}
	return s / float64(na*nb)
}

func TestEmbeddingGramAgainstDoubleSum(t *testing.T) {
	a := drBags(9, 1, 12, 3, 1)
	b := drBags(5, 2, 7, 3, 2)
	for _, g := range []credlab.Kernel{credlab.GaussianKernel{Sigma: 0.7}, credlab.LaplacianKernel{Sigma: 1.3}, credlab.LinearKernel{},
		credlab.PolynomialKernel{Degree: 3, Gamma: 0.5, Coef0: 1}, evalOnly{credlab.GaussianKernel{Sigma: 0.7}}} {
		sym, err := EmbeddingGram(context.Background(), g, a, nil)
		if err != nil {
			t.Fatal(err)
		}
		cross, err := EmbeddingGram(context.Background(), g, a, b)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < a.Len(); i++ {
			for j := 0; j < a.Len(); j++ {
				want := drDirect(g, a.X[i], a.X[j])
				if math.Abs(sym.At(i, j)-want) > 1e-13*math.Max(1, math.Abs(want)) {
					t.Errorf("%v: <mu_%d, mu_%d> = %g, double sum %g", g, i, j, sym.At(i, j), want)
				}
				if sym.At(i, j) != sym.At(j, i) {
					t.Errorf("%v: Gram not exactly symmetric at %d,%d", g, i, j)
				}
			}
			for j := 0; j < b.Len(); j++ {
				want := drDirect(g, a.X[i], b.X[j])
				if math.Abs(cross.At(i, j)-want) > 1e-13*math.Max(1, math.Abs(want)) {
					t.Errorf("%v: cross <mu_%d, nu_%d> = %g, double sum %g", g, i, j, cross.At(i, j), want)
				}
			}
		}
	}
	// A linear inner kernel embeds a bag as its mean vector.
	lin, _ := EmbeddingGram(context.Background(), credlab.LinearKernel{}, a, nil)
	for i := 0; i < a.Len(); i++ {
		mi := drMean(a.X[i])
		for j := 0; j < a.Len(); j++ {
			if want := vecmath.Dot(mi, drMean(a.X[j])); math.Abs(lin.At(i, j)-want) > 1e-12 {
				t.Errorf("linear embedding %d,%d = %g, mean dot %g", i, j, lin.At(i, j), want)
			}
		}
	}
}

func drMean(x *mat.Dense) []float64 {
	n, d := x.Dims()
	m := make([]float64, d)
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			m[k] += x.At(i, k) / float64(n)
		}
	}
	return m
}

func TestKernelOuter(t *testing.T) {
	a := drBags(6, 2, 8, 2, 3)
	b := drBags(4, 2, 8, 2, 4)
	g := credlab.GaussianKernel{Sigma: 0.8}
	ip, _ := EmbeddingGram(context.Background(), g, a, b)
	bk := Kernel{Inner: g, Outer: GaussianOuter{Sigma: 0.3}}
	kab, err := bk.Gram(context.Background(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	kaa, err := bk.Gram(context.Background(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < a.Len(); i++ {
		aa := drDirect(g, a.X[i], a.X[i])
		for j := 0; j < b.Len(); j++ {
			dist := aa + drDirect(g, b.X[j], b.X[j]) - 2*ip.At(i, j)
			if want := math.Exp(-dist / (2 * 0.09)); math.Abs(kab.At(i, j)-want) > 1e-12 {
				t.Errorf("Gaussian outer %d,%d = %g, want %g", i, j, kab.At(i, j), want)
			}
		}
		if kaa.At(i, i) != 1 {
			t.Errorf("K(mu, mu) = %g, want 1", kaa.At(i, i))
		}
		for j := 0; j < a.Len(); j++ {
			dist := aa + drDirect(g, a.X[j], a.X[j]) - 2*drDirect(g, a.X[i], a.X[j])
			if want := math.Exp(-dist / (2 * 0.09)); math.Abs(kaa.At(i, j)-want) > 1e-12 {
				t.Errorf("symmetric Gaussian outer %d,%d = %g, want %g", i, j, kaa.At(i, j), want)
			}
		}
	}
	// Linear outer is the embedding inner product itself.
	lin, _ := Kernel{Inner: g}.Gram(context.Background(), a, b)
	if !mat.Equal(lin, ip) {
		t.Error("LinearOuter differs from EmbeddingGram")
	}
}

func TestRandomFeatureEmbeddingConverges(t *testing.T) {
	bags := drBags(12, 10, 20, 2, 5)
	g := credlab.GaussianKernel{Sigma: 0.6}
	exact, err := EmbeddingGram(context.Background(), g, bags, nil)
	if err != nil {
		t.Fatal(err)
	}
	prev := math.Inf(1)
	for _, D := range []int{16, 160, 1600, 6400} {
		// Average over seeds to make the decrease reliable.
		errSum := 0.0
		for seed := uint64(0); seed < 3; seed++ {
			rf, err := credlab.NewRandomFourier(2, D, 0.6, seed)
			if err != nil {
				t.Fatal(err)
			}
			approx, err := Kernel{Features: rf}.Gram(context.Background(), bags, nil)
			if err != nil {
				t.Fatal(err)
			}
			errSum += drRMSDiff(approx, exact)
		}
		e := errSum / 3
		t.Logf("D = %5d: RMS error of the embedding Gram %.2e", D, e)
		if !(e < prev) {
			t.Errorf("D = %d: error %g did not decrease from %g", D, e, prev)
		}
		prev = e
	}
	if prev > 0.015 {
		t.Errorf("D = 6400: RMS error %g, want < 0.015 (O(1/sqrt(D)))", prev)
	}
}

func drRMSDiff(a, b *mat.Dense) float64 {
	r, c := a.Dims()
	s := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d := a.At(i, j) - b.At(i, j)
			s += d * d
		}
	}
	return math.Sqrt(s / float64(r*c))
}

func TestMeanFeaturesAcrossBlocks(t *testing.T) {
	// Bags larger than a block, and many small ones, average correctly.
	var xs []*mat.Dense
	for _, n := range []int{3000, 5000, 1, 2, 4100, 7} {
		x := mat.NewDense(n, 2, nil)
		for i := 0; i < n; i++ {
			x.Set(i, 0, float64(i%17)/17)
			x.Set(i, 1, float64(n))
		}
		xs = append(xs, x)
	}
	bags := &Bags{X: xs}
	f, err := MeanFeatures(context.Background(), credlab.RawFeatures{Bias: true}, bags)
	if err != nil {
		t.Fatal(err)
	}
	for j, x := range xs {
		want := append(drMean(x), 1)
		got := f.RawRowView(j)
		if maxRel(got, want) > 1e-12 {
			t.Errorf("bag %d: mean features %v, want %v", j, got, want)
		}
	}
}

func TestEmbeddingIndependentOfGOMAXPROCS(t *testing.T) {
	bags := drBags(70, 5, 30, 2, 6)
	g := credlab.GaussianKernel{Sigma: 0.5}
	var k1, k4 *mat.Dense
	withProcs(1, func() {
		k1, _ = Kernel{Inner: g, Outer: GaussianOuter{Sigma: 0.4}}.Gram(context.Background(), bags, nil)
	})
	withProcs(4, func() {
		k4, _ = Kernel{Inner: g, Outer: GaussianOuter{Sigma: 0.4}}.Gram(context.Background(), bags, nil)
	})
	r := k1.RawMatrix()
	for i, v := range r.Data {
		if math.Float64bits(v) != math.Float64bits(k4.RawMatrix().Data[i]) {
			t.Fatalf("bag Gram depends on GOMAXPROCS at %d", i)
		}
	}
}

func TestBagsValidate(t *testing.T) {
	good := drBags(3, 2, 4, 2, 7)
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	if n := good.Points(); n < 6 || good.Dim() != 2 || good.Len() != 3 {
		t.Errorf("Points %d, Dim %d, Len %d", n, good.Dim(), good.Len())
	}
	mk := func(f func(b *Bags)) error {
		b := &Bags{Y: append([]float64(nil), good.Y...)}
		for _, x := range good.X {
			b.X = append(b.X, mat.DenseCopyOf(x))
		}
		f(b)
		_, err := NewBags(b.X, b.Y)
		return err
	}
	errtest.Want(t, "no bags", (&Bags{}).Validate(), credlab.ErrEmpty)
	errtest.Want(t, "nil bag", mk(func(b *Bags) { b.X[1] = nil }), credlab.ErrEmpty)
	errtest.Want(t, "empty bag", mk(func(b *Bags) { b.X[2] = &mat.Dense{} }), credlab.ErrEmpty)
	errtest.Want(t, "dims", mk(func(b *Bags) { b.X[1] = mat.NewDense(2, 3, nil) }), credlab.ErrShape)
	errtest.Want(t, "NaN", mk(func(b *Bags) { b.X[2].Set(1, 0, math.NaN()) }), &credlab.NotFiniteError{Name: "Bags.X[2]", Row: 1, Col: 0, Value: math.NaN()})
	errtest.Want(t, "Inf", mk(func(b *Bags) { b.X[0].Set(0, 1, math.Inf(1)) }), &credlab.NotFiniteError{Name: "Bags.X[0]", Row: 0, Col: 1, Value: math.Inf(1)})
	errtest.Want(t, "label Inf", mk(func(b *Bags) { b.Y[1] = math.Inf(-1) }), &credlab.NotFiniteError{Name: "Bags.Y", Row: 1, Col: -1, Value: math.Inf(-1)})
	errtest.Want(t, "label count", mk(func(b *Bags) { b.Y = b.Y[:2] }), credlab.ErrShape)
	// Kernel and embedding errors.
	_, err := EmbeddingGram(context.Background(), nil, good, nil)
	errtest.Want(t, "no kernel", err, &credlab.ParamError{Name: "Kernel.Inner"})
	_, err = Kernel{Inner: credlab.GaussianKernel{Sigma: 1}, Outer: GaussianOuter{}}.Gram(context.Background(), good, nil)
	errtest.Want(t, "outer sigma", err, &credlab.ParamError{Name: "Gaussian outer kernel sigma", Value: 0.0})
	_, err = EmbeddingGram(context.Background(), credlab.GaussianKernel{Sigma: 1}, good, drBags(2, 1, 2, 3, 8))
	errtest.Want(t, "cross dims", err, credlab.ErrShape)
	_, err = MeanFeatures(context.Background(), nil, good)
	errtest.Want(t, "no map", err, &credlab.ParamError{Name: "fm"})
	rf, _ := credlab.NewRandomFourier(3, 10, 1, 1)
	_, err = MeanFeatures(context.Background(), rf, good)
	errtest.Want(t, "map dims", err, credlab.ErrShape)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = EmbeddingGram(ctx, credlab.GaussianKernel{Sigma: 1}, good, nil)
	errtest.Want(t, "cancel", err, context.Canceled)
}
