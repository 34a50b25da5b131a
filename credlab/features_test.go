package credlab

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// phi(x)_j = sqrt(2/D) cos(sum_k x_k W_kj + b_j), by hand.
func TestRandomFourierFormula(t *testing.T) {
	const d, D = 3, 17
	rf, err := NewRandomFourier(d, D, 0.7, 8)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := rf.W.Dims(); r != d || c != D || len(rf.B) != D {
		t.Fatalf("W is %d x %d and B has %d values, want %d x %d and %d", r, c, len(rf.B), d, D, D)
	}
	x := randData(crRNG(31), 9, d, 2)
	x0 := mat.DenseCopyOf(x)
	phi, err := rf.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 9; i++ {
		for j := 0; j < D; j++ {
			z := rf.B[j]
			for k := 0; k < d; k++ {
				z += x.At(i, k) * rf.W.At(k, j)
			}
			want := math.Sqrt(2.0/D) * math.Cos(z)
			if got := phi.At(i, j); math.Abs(got-want) > 1e-14 {
				t.Fatalf("phi[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
	if !mat.Equal(x, x0) {
		t.Error("x was modified")
	}
	// A strided view gives the same features as a copy.
	big := randData(crRNG(32), 12, 5, 1)
	view := big.Slice(2, 10, 1, 4).(*mat.Dense)
	a, err := rf.Features(view)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rf.Features(mat.DenseCopyOf(view))
	if !mat.Equal(a, b) {
		t.Error("features of a strided view differ from those of a copy")
	}
	// The same seed draws the same map; another seed another.
	rf2, _ := NewRandomFourier(d, D, 0.7, 8)
	rf3, _ := NewRandomFourier(d, D, 0.7, 9)
	if !mat.Equal(rf.W, rf2.W) || !sameBits(rf.B, rf2.B) {
		t.Error("same seed, different features")
	}
	if mat.Equal(rf.W, rf3.W) {
		t.Error("seeds 8 and 9 drew the same W")
	}
}

// W has N(0, 1/sigma^2) entries and b is uniform on [0, 2 pi).
func TestRandomFourierDistribution(t *testing.T) {
	const d, D, sigma = 4, 5000, 0.5
	rf, err := NewRandomFourier(d, D, sigma, 1)
	if err != nil {
		t.Fatal(err)
	}
	raw := rf.W.RawMatrix().Data
	mean, sq := 0.0, 0.0
	for _, v := range raw {
		mean += v
		sq += v * v
	}
	m := float64(len(raw))
	mean /= m
	vr := sq/m - mean*mean
	// sd of the sample mean: 1/(sigma sqrt(m)); of the sample variance:
	// sqrt(2/m)/sigma^2.
	if math.Abs(mean) > 5/(sigma*math.Sqrt(m)) {
		t.Errorf("W mean %v", mean)
	}
	if math.Abs(vr-1/(sigma*sigma)) > 5*math.Sqrt(2/m)/(sigma*sigma) {
		t.Errorf("W variance %v, want %v", vr, 1/(sigma*sigma))
	}
	bm := 0.0
	for _, b := range rf.B {
		if b < 0 || b >= 2*math.Pi {
			t.Fatalf("b = %v outside [0, 2 pi)", b)
		}
		bm += b
	}
	bm /= D
	if sd := 2 * math.Pi / math.Sqrt(12*D); math.Abs(bm-math.Pi) > 5*sd {
		t.Errorf("b mean %v, want pi +- %v", bm, sd)
	}
}

// phi(x).phi(x') approximates exp(-||x-x'||^2/(2 sigma^2)) with an error
// of order 1/sqrt(D).
func TestRandomFourierApproximatesGaussian(t *testing.T) {
	const d, sigma = 3, 0.9
	x := randData(crRNG(33), 8, d, 1)
	k := refMatrix(refGaussian(sigma), x, x)
	maxErr := func(D int) float64 {
		rf, err := NewRandomFourier(d, D, sigma, 2)
		if err != nil {
			t.Fatal(err)
		}
		phi, err := rf.Features(x)
		if err != nil {
			t.Fatal(err)
		}
		var g mat.Dense
		g.Mul(phi, phi.T())
		e := 0.0
		for i := 0; i < 8; i++ {
			for j := 0; j < 8; j++ {
				e = math.Max(e, math.Abs(g.At(i, j)-k.At(i, j)))
			}
		}
		return e
	}
	e50, e20000 := maxErr(50), maxErr(20000)
	t.Logf("max |phi.phi' - k| over 64 pairs: D=50 %.4f, D=20000 %.4f", e50, e20000)
	if e20000 >= 0.05 {
		t.Errorf("D = 20000: max error %v, want < 0.05", e20000)
	}
	// The error scales like 1/sqrt(D): a factor 20 from 50 to 20000.
	if e50 <= 4*e20000 {
		t.Errorf("error at D = 50 (%v) not clearly larger than at D = 20000 (%v)", e50, e20000)
	}
}

func TestRandomFourierErrors(t *testing.T) {
	for _, tc := range []struct {
		d, D  int
		sigma float64
		want  errKind
	}{
		{0, 10, 1, paramErr("random features d", 0)},
		{-1, 10, 1, paramErr("random features d", -1)},
		{3, 0, 1, paramErr("random features D", 0)},
		{3, -5, 1, paramErr("random features D", -5)},
		{3, 10, 0, paramErr("random features sigma", 0.0)},
		{3, 10, -1, paramErr("random features sigma", -1.0)},
		{3, 10, math.NaN(), paramErr("random features sigma", math.NaN())},
		{3, 10, math.Inf(1), paramErr("random features sigma", math.Inf(1))},
	} {
		_, err := NewRandomFourier(tc.d, tc.D, tc.sigma, 1)
		wantErrKind(t, fmt.Sprintf("NewRandomFourier(%d, %d, %v)", tc.d, tc.D, tc.sigma), err, tc.want)
	}
	rf, _ := NewRandomFourier(3, 10, 1, 1)
	_, err := rf.Features(randData(crRNG(1), 4, 2, 1))
	wantErrKind(t, "wrong input width", err, isErr(ErrShape))
	_, err = (&RandomFourier{}).Features(randData(crRNG(1), 4, 3, 1))
	wantErrKind(t, "zero RandomFourier", err, isErr(ErrShape))
	bad := randData(crRNG(1), 4, 3, 1)
	bad.Set(2, 1, math.Inf(1))
	_, err = rf.Features(bad)
	wantErrKind(t, "Inf input", err, notFiniteErr("x", 2, 1, math.Inf(1)))
	_, err = rf.Features(nil)
	wantErrKind(t, "nil input", err, isErr(ErrEmpty))
}

func TestRawFeatures(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	x0 := mat.DenseCopyOf(x)
	f, err := RawFeatures{}.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(f, x) {
		t.Errorf("RawFeatures{} = %v, want x", mat.Formatted(f))
	}
	f.Set(0, 0, 100)
	if !mat.Equal(x, x0) {
		t.Error("RawFeatures shares memory with x")
	}
	fb, err := RawFeatures{Bias: true}.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(3, 3, []float64{1, 2, 1, 3, 4, 1, 5, 6, 1})
	if !mat.Equal(fb, want) {
		t.Errorf("RawFeatures{Bias} = %v, want %v", mat.Formatted(fb), mat.Formatted(want))
	}
	// A strided view.
	v := mat.NewDense(3, 4, []float64{0, 1, 2, 0, 0, 3, 4, 0, 0, 5, 6, 0}).Slice(0, 3, 1, 3).(*mat.Dense)
	fv, err := RawFeatures{Bias: true}.Features(v)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(fv, want) {
		t.Errorf("RawFeatures{Bias} of a view = %v", mat.Formatted(fv))
	}
	bad := mat.DenseCopyOf(x)
	bad.Set(1, 0, math.NaN())
	_, err = RawFeatures{Bias: true}.Features(bad)
	wantErrKind(t, "NaN input", err, notFiniteErr("x", 1, 0, math.NaN()))
}

func crRelu(v float64) float64 { return math.Max(v, 0) }

func TestReLUNetwork(t *testing.T) {
	// A hand-made network: x (1 x 2) -> 3 -> 2, no biases.
	net := &ReLUNetwork{Layers: []*mat.Dense{
		mat.NewDense(2, 3, []float64{1, -1, 2, 0.5, 1, -3}),
		mat.NewDense(3, 2, []float64{1, -2, 1, 1, -1, 0.5}),
	}}
	x := mat.NewDense(2, 2, []float64{2, 1, -1, 4})
	// Row 0: h1 = relu([2*1+1*0.5, 2*-1+1*1, 2*2+1*-3]) = relu([2.5, -1, 1]) = [2.5, 0, 1];
	//        h2 = relu([2.5*1 + 0*1 + 1*-1, 2.5*-2 + 0*1 + 1*0.5]) = relu([1.5, -4.5]) = [1.5, 0].
	// Row 1: h1 = relu([-1+2, 1+4, -2-12]) = [1, 5, 0];
	//        h2 = relu([1 + 5, -2 + 5]) = [6, 3].
	want := mat.NewDense(2, 2, []float64{1.5, 0, 6, 3})
	got, err := net.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, want) {
		t.Errorf("hand network: %v, want %v", mat.Formatted(got), mat.Formatted(want))
	}

	// A random network against a loop forward pass.
	const d = 4
	widths := []int{7, 5, 6}
	rnet, err := NewReLUNetwork(d, widths, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(rnet.Layers) != 3 {
		t.Fatalf("%d layers", len(rnet.Layers))
	}
	in := d
	for l, w := range widths {
		if r, c := rnet.Layers[l].Dims(); r != in || c != w {
			t.Fatalf("layer %d is %d x %d, want %d x %d", l, r, c, in, w)
		}
		in = w
	}
	xs := randData(crRNG(34), 11, d, 1)
	x0 := mat.DenseCopyOf(xs)
	phi, err := rnet.Features(xs)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 11; i++ {
		h := mat.Row(nil, i, xs)
		for _, l := range rnet.Layers {
			r, c := l.Dims()
			next := make([]float64, c)
			for j := 0; j < c; j++ {
				s := 0.0
				for k := 0; k < r; k++ {
					s += h[k] * l.At(k, j)
				}
				next[j] = crRelu(s)
			}
			h = next
		}
		if dd := crRelDiff(mat.Row(nil, i, phi), h); dd > 1e-13 {
			t.Fatalf("row %d: rel diff %.3g from the loop forward pass", i, dd)
		}
	}
	if !mat.Equal(xs, x0) {
		t.Error("x was modified")
	}
	// N(0, 1) weights: the first layer's mean and variance.
	big, _ := NewReLUNetwork(50, []int{200}, 5)
	raw := big.Layers[0].RawMatrix().Data
	mean, sq := 0.0, 0.0
	for _, v := range raw {
		mean += v
		sq += v * v
	}
	m := float64(len(raw))
	mean /= m
	if math.Abs(mean) > 5/math.Sqrt(m) || math.Abs(sq/m-mean*mean-1) > 5*math.Sqrt(2/m) {
		t.Errorf("weights mean %v variance %v, want N(0, 1)", mean, sq/m-mean*mean)
	}
	again, _ := NewReLUNetwork(d, widths, 3)
	for l := range widths {
		if !mat.Equal(again.Layers[l], rnet.Layers[l]) {
			t.Error("same seed, different network")
		}
	}

	for _, tc := range []struct {
		d      int
		widths []int
		want   errKind
	}{
		{0, []int{3}, paramErr("ReLU network d", 0)},
		{3, nil, paramErr("ReLU network widths")},
		{3, []int{4, 0}, paramErr("ReLU network widths[1]", 0)},
		{3, []int{-2}, paramErr("ReLU network widths[0]", -2)},
	} {
		_, err := NewReLUNetwork(tc.d, tc.widths, 1)
		wantErrKind(t, fmt.Sprintf("NewReLUNetwork(%d, %v)", tc.d, tc.widths), err, tc.want)
	}
	_, err = rnet.Features(randData(crRNG(1), 3, d+1, 1))
	wantErrKind(t, "wrong input width", err, isErr(ErrShape))
	_, err = (&ReLUNetwork{}).Features(xs)
	wantErrKind(t, "no layers", err, isErr(ErrEmpty))
	_, err = (&ReLUNetwork{Layers: []*mat.Dense{mat.NewDense(d, 3, nil), mat.NewDense(4, 2, nil)}}).Features(xs)
	wantErrKind(t, "layers that do not chain", err, isErr(ErrShape))
}

// crWideFeatures is a cheap feature map of any width, phi(x)_k = x_0 (k%5 + 1)
// + x_1 (k%3), recording the rows of each call.
type crWideFeatures struct {
	width int
	rows  *[]int
}

func (f crWideFeatures) Features(x *mat.Dense) (*mat.Dense, error) {
	n, _ := x.Dims()
	if f.rows != nil {
		*f.rows = append(*f.rows, n)
	}
	out := mat.NewDense(n, f.width, nil)
	for i := 0; i < n; i++ {
		a, b := x.At(i, 0), x.At(i, 1)
		row := out.RawRowView(i)
		for k := range row {
			row[k] = a*float64(k%5+1) + b*float64(k%3)
		}
	}
	return out, nil
}

// Model with Features: Predict is Features(x).Coef, in row blocks.
func TestModelFeaturesPredict(t *testing.T) {
	rng := crRNG(35)
	rf, err := NewRandomFourier(2, 25, 0.6, 4)
	if err != nil {
		t.Fatal(err)
	}
	x := randData(rng, 30, 2, 1)
	for _, tc := range []struct {
		name string
		fm   FeatureMap
		D    int
	}{
		{"random Fourier", rf, 25},
		{"raw with bias", RawFeatures{Bias: true}, 3},
		{"raw", RawFeatures{}, 2},
		{"ReLU", &ReLUNetwork{Layers: []*mat.Dense{randData(rng, 2, 6, 1)}}, 6},
	} {
		coef := make([]float64, tc.D)
		for i := range coef {
			coef[i] = rng.NormFloat64()
		}
		m := &Model{Features: tc.fm, Coef: coef}
		got, err := m.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		phi, _ := tc.fm.Features(x)
		for i := range got {
			if want := refDot(mat.Row(nil, i, phi), coef); math.Abs(got[i]-want) > 1e-13*(1+math.Abs(want)) {
				t.Errorf("%s: f(x_%d) = %v, want %v", tc.name, i, got[i], want)
			}
		}
	}

	// Wide features: several blocks of predictBlockBytes each.
	const width = 1 << 16 // blocks of 64 rows
	var rows []int
	wf := crWideFeatures{width: width, rows: &rows}
	coef := make([]float64, width)
	for i := range coef {
		coef[i] = float64(i%7) - 3
	}
	xs := randData(rng, 70, 2, 1)
	got, err := (&Model{Features: wf, Coef: coef}).Predict(xs)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 || crSum(func() []float64 {
		s := make([]float64, len(rows))
		for i, r := range rows {
			s[i] = float64(r)
		}
		return s
	}()) != 70 {
		t.Errorf("blocks of %v rows, want several covering 70", rows)
	}
	for i := range got {
		a, b := xs.At(i, 0), xs.At(i, 1)
		want := 0.0
		for k, c := range coef {
			want += c * (a*float64(k%5+1) + b*float64(k%3))
		}
		if math.Abs(got[i]-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("wide: f(x_%d) = %v, want %v", i, got[i], want)
		}
	}

	// A feature map returning the wrong width is an error.
	_, err = (&Model{Features: RawFeatures{Bias: true}, Coef: []float64{1, 2}}).Predict(x)
	wantErrKind(t, "too wide", err, isErr(ErrShape))
	_, err = (&Model{Features: RawFeatures{}, Coef: []float64{1, 2, 3}}).Predict(x)
	wantErrKind(t, "too narrow", err, isErr(ErrShape))
	_, err = (&Model{Features: rf}).Predict(x)
	wantErrKind(t, "no coefficients", err, isErr(ErrEmpty))
	_, err = (&Model{Features: rf, Coef: make([]float64, 25)}).Predict(randData(rng, 3, 4, 1))
	wantErrKind(t, "input of the wrong width", err, isErr(ErrShape))
	bad := mat.DenseCopyOf(x)
	bad.Set(3, 1, math.NaN())
	_, err = (&Model{Features: rf, Coef: make([]float64, 25)}).Predict(bad)
	wantErrKind(t, "NaN input", err, notFiniteErr("x", 3, 1, math.NaN()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&Model{Features: rf, Coef: make([]float64, 25)}).PredictContext(ctx, x); err == nil {
		t.Error("cancelled context: no error")
	}
}

// crRowsFeatures returns extra more (or, negative, fewer) rows than x has.
type crRowsFeatures struct{ extra int }

func (f crRowsFeatures) Features(x *mat.Dense) (*mat.Dense, error) {
	n, d := x.Dims()
	m := max(n+f.extra, 1)
	out := mat.NewDense(m, d, nil)
	for i := 0; i < min(n, m); i++ {
		out.SetRow(i, mat.Row(nil, i, x))
	}
	return out, nil
}

// A feature map returning the wrong number of rows is an error, as the
// wrong width is, in FeatureLeverageScores, LinearRLS, LinearGD and
// Model.Predict.
func TestFeatureMapRowCount(t *testing.T) {
	ctx := context.Background()
	rng := crRNG(36)
	x := randData(rng, 10, 2, 1)
	y := smoothTargets(rng, x, 0.1)
	try := func(name string, f func() error) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: panic %v, want an error", name, r)
			}
		}()
		wantErrKind(t, name, f(), isErr(ErrShape))
	}
	for _, extra := range []int{1, -1} {
		fm := crRowsFeatures{extra}
		try(fmt.Sprintf("scores, %+d rows", extra), func() error {
			_, err := FeatureLeverageScores(ctx, fm, x, 1e-3, 4)
			return err
		})
		try(fmt.Sprintf("LinearRLS, %+d rows", extra), func() error {
			_, err := LinearRLS(ctx, x, y, LinearRLSConfig{Features: fm, Lambda: 1e-3})
			return err
		})
		try(fmt.Sprintf("LinearGD, %+d rows", extra), func() error {
			_, err := LinearGD(ctx, x, y, LinearGDConfig{Features: fm, IterConfig: IterConfig{Iter: 3}})
			return err
		})
		try(fmt.Sprintf("Predict, %+d rows", extra), func() error {
			_, err := (&Model{Features: fm, Coef: []float64{1, 2}}).Predict(x)
			return err
		})
	}
}
