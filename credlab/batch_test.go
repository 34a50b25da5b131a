package credlab

import (
	"context"
	"errors"
	"github.com/credlab/credlab/internal/vecmath"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// batchPool returns n rows of d uniform columns and their random Fourier
// features (D of them), a small pool with an explicit kernel K = Phi Phi^T.
func batchPool(t *testing.T, n, d, D int, seed uint64) (*mat.Dense, *RandomFourier, *mat.Dense) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.Float64()*float64(j+1))
		}
	}
	rf, err := NewRandomFourier(d, D, 0.8, seed)
	if err != nil {
		t.Fatal(err)
	}
	phi, err := rf.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	return x, rf, phi
}

// posteriorCov is the explicit N x N posterior covariance of f = Phi beta
// given noisy labels of the rows s: K - K_{:,s} (K_ss + noise I)^-1 K_{s,:}.
func posteriorCov(phi *mat.Dense, s []int, noise float64) *mat.Dense {
	n, _ := phi.Dims()
	k := mat.NewDense(n, n, nil)
	k.Mul(phi, phi.T())
	if len(s) == 0 {
		return k
	}
	kss := mat.NewDense(len(s), len(s), nil)
	kns := mat.NewDense(n, len(s), nil)
	for a, i := range s {
		for b, j := range s {
			kss.Set(a, b, k.At(i, j))
		}
		kss.Set(a, a, kss.At(a, a)+noise)
		for r := 0; r < n; r++ {
			kns.Set(r, a, k.At(r, i))
		}
	}
	var sol mat.Dense
	if err := sol.Solve(kss, kns.T()); err != nil {
		panic(err)
	}
	var red mat.Dense
	red.Mul(kns, &sol)
	k.Sub(k, &red)
	return k
}

// referenceBatch recomputes every greedy choice from scratch: posterior
// covariances for MaxDiag, MaxDet and BAIT (whose backward pass removes the
// row that leaves the smallest trace), explicit distances for MaxDist
// and LCMD.
func referenceBatch(phi *mat.Dense, start []int, budget int, noise float64, method string) []int {
	n, _ := phi.Dims()
	chosen := make([]bool, n)
	for _, j := range start {
		chosen[j] = true
	}
	s := append([]int(nil), start...)
	var idx []int
	c0 := posteriorCov(phi, start, noise)
	forward := budget
	if method == MethodBAIT {
		forward = min(2*budget, n-len(start))
	}
	for len(idx) < forward {
		best, bv := -1, math.Inf(-1)
		var c *mat.Dense
		if method == MethodMaxDet || method == MethodBAIT {
			c = posteriorCov(phi, s, noise)
		}
		var dist []float64
		var owner []int
		if method == MethodMaxDist || method == MethodLCMD {
			dist, owner = make([]float64, n), make([]int, n)
			for i := 0; i < n; i++ {
				dist[i] = math.Inf(1)
				for k, j := range s {
					if v := vecmath.SqDist(phi.RawRowView(i), phi.RawRowView(j)); v < dist[i] {
						dist[i], owner[i] = v, k
					}
				}
			}
		}
		var herd []float64
		if method == MethodHerding {
			k := mat.NewDense(n, n, nil)
			k.Mul(phi, phi.T())
			herd = make([]float64, n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					herd[i] += k.At(i, j) / float64(n)
				}
				for _, j := range s {
					herd[i] -= k.At(i, j) / float64(len(s)+1)
				}
			}
		}
		var size []float64
		if method == MethodLCMD {
			size = make([]float64, len(s))
			for i := 0; i < n; i++ {
				size[owner[i]] += dist[i]
			}
		}
		for i := 0; i < n; i++ {
			if chosen[i] {
				continue
			}
			var v float64
			switch method {
			case MethodMaxDiag:
				v = c0.At(i, i)
			case MethodMaxDet:
				v = c.At(i, i)
			case MethodBAIT:
				col := mat.Col(nil, i, c)
				v = vecmath.Dot(col, col) / (c.At(i, i) + noise)
			case MethodMaxDist:
				v = dist[i]
			case MethodHerding:
				v = herd[i]
			case MethodLCMD:
				if size[owner[i]] != slices.Max(size) {
					continue
				}
				v = dist[i]
			}
			if v > bv {
				best, bv = i, v
			}
		}
		chosen[best] = true
		idx = append(idx, best)
		s = append(s, best)
	}
	// BAIT's backward pass: remove the row whose removal leaves the least
	// summed posterior variance over the pool.
	for len(idx) > budget {
		best, bv := -1, math.Inf(1)
		for k := range idx {
			rest := append(append(append([]int(nil), start...), idx[:k]...), idx[k+1:]...)
			if v := mat.Trace(posteriorCov(phi, rest, noise)); v < bv {
				best, bv = k, v
			}
		}
		idx = append(idx[:best], idx[best+1:]...)
	}
	return idx
}

// TestBatchSelectorSmallNoise checks the posterior methods at noise 1e-8
// against the reference, on a batch that leaves the conditioned rows
// fewer than the features (so that the reference itself is well posed):
// BAIT's backward pass must not divide by noise - d_j, which cancels.
func TestBatchSelectorSmallNoise(t *testing.T) {
	_, rf, phi := batchPool(t, 70, 3, 25, 3)
	x, _, _ := batchPool(t, 70, 3, 25, 3)
	labeled := []int{4, 17, 30}
	for _, method := range []string{MethodMaxDet, MethodBAIT} {
		want := referenceBatch(phi, labeled, 6, 1e-8, method)
		sel, err := BatchSelector{Method: method, Features: rf, Noise: 1e-8, Previous: &Selection{Index: labeled}}.Select(context.Background(), x, 6, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := sel.Index[len(labeled):]; !slices.Equal(got, want) {
			t.Errorf("%s, noise 1e-8: got %v, want %v", method, got, want)
		}
	}
}

func TestBatchSelectorAgainstReference(t *testing.T) {
	_, rf, phi := batchPool(t, 70, 3, 25, 3)
	x, _, _ := batchPool(t, 70, 3, 25, 3)
	for _, method := range []string{MethodMaxDiag, MethodMaxDet, MethodBAIT, MethodMaxDist, MethodLCMD, MethodHerding} {
		for _, labeled := range [][]int{{4, 17, 30}, {1, 2, 3, 5, 8, 13, 21, 34, 55, 60, 61, 62}} {
			for _, noise := range []float64{1e-3, 0.1} {
				want := referenceBatch(phi, labeled, 12, noise, method)
				prev := &Selection{Index: labeled}
				sel, err := BatchSelector{Method: method, Features: rf, Noise: noise, Previous: prev}.Select(context.Background(), x, 12, 1)
				if err != nil {
					t.Fatal(err)
				}
				got := sel.Index[len(labeled):]
				if !slices.Equal(got, want) {
					t.Errorf("%s, %d labeled, noise %g: got %v, want %v", method, len(labeled), noise, got, want)
				}
				if !slices.Equal(sel.Index[:len(labeled)], labeled) || len(sel.Batch) != len(sel.Index) || sel.Batch[len(sel.Index)-1] != 1 {
					t.Errorf("%s: labeled rows or batches wrong: %v %v", method, sel.Index, sel.Batch)
				}
			}
		}
	}
}

func TestBatchSelectorKMeansPP(t *testing.T) {
	// Two tight clusters; the labeled rows cover the first, so the next
	// k-means++ draws land in the second.
	x := mat.NewDense(40, 2, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 40; i++ {
		c := 0.0
		if i >= 30 {
			c = 10
		}
		x.Set(i, 0, c+0.01*rng.Float64())
		x.Set(i, 1, 0.01*rng.Float64())
	}
	prev := &Selection{Index: []int{0, 1, 2}}
	for seed := uint64(1); seed <= 5; seed++ {
		sel, err := BatchSelector{Method: MethodKMeansPP, Features: RawFeatures{}, Previous: prev}.Select(context.Background(), x, 1, seed)
		if err != nil {
			t.Fatal(err)
		}
		if j := sel.Index[3]; j < 30 {
			t.Errorf("seed %d: k-means++ drew row %d in the labeled cluster", seed, j)
		}
		again, _ := BatchSelector{Method: MethodKMeansPP, Features: RawFeatures{}, Previous: prev}.Select(context.Background(), x, 1, seed)
		if !slices.Equal(sel.Index, again.Index) {
			t.Errorf("seed %d: not reproducible", seed)
		}
	}
	sel, err := BatchSelector{Method: MethodKMeansPP, Features: RawFeatures{}}.Select(context.Background(), x, 40, 7)
	if err != nil {
		t.Fatal(err)
	}
	s := slices.Clone(sel.Index)
	slices.Sort(s)
	for i, v := range s {
		if v != i {
			t.Fatalf("the whole pool is not each row once: %v", sel.Index)
		}
	}
}

// exactFeatures returns features phi of the kernel k on the rows of x
// with phi phi^T = K + 1e-9 I: the rows of K's Cholesky factor.
func exactFeatures(t *testing.T, k Kernel, x *mat.Dense) *mat.Dense {
	t.Helper()
	n, _ := x.Dims()
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			sym.SetSym(i, j, k.Eval(x.RawRowView(i), x.RawRowView(j)))
		}
		sym.SetSym(i, i, sym.At(i, i)+1e-9)
	}
	var chol mat.Cholesky
	if !chol.Factorize(sym) {
		t.Fatal("kernel matrix not positive definite")
	}
	var l mat.TriDense
	chol.LTo(&l)
	return mat.DenseCopyOf(&l)
}

func TestBatchSelectorNystromDefault(t *testing.T) {
	// With M = N the default Nyström features give the exact kernel: MaxDet
	// then follows the posterior of the Gaussian kernel itself.
	x, _, _ := batchPool(t, 50, 2, 5, 9)
	k := GaussianKernel{Sigma: 0.7}
	want := referenceBatch(exactFeatures(t, k, x), []int{3}, 8, 0.01, MethodMaxDet)
	sel, err := BatchSelector{Method: MethodMaxDet, Kernel: k, M: 50, Noise: 0.01, Previous: &Selection{Index: []int{3}}}.Select(context.Background(), x, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := sel.Index[1:]; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestBatchSelectorKernelDistances(t *testing.T) {
	// The distance methods measure a radial kernel's feature distances
	// exactly: their choices are those on the kernel's exact features.
	x, _, _ := batchPool(t, 60, 3, 5, 4)
	start := []int{5, 17, 40}
	for _, k := range []Kernel{
		GaussianKernel{Sigma: 0.6},
		GaussianKernel{Sigma: 0.9, Scales: []float64{1, 0.3, 0}},
		MaternKernel{Nu: 1.5, Sigma: 0.8, Scales: []float64{0.5, 1, 0.2}},
		ManhattanKernel{Sigma: 1.2, Scales: []float64{1, 0.4, 0.7}},
	} {
		phi := exactFeatures(t, k, x)
		for _, method := range []string{MethodMaxDist, MethodLCMD} {
			want := referenceBatch(phi, start, 12, 0.01, method)
			sel, err := BatchSelector{Method: method, Kernel: k, M: 7, Previous: &Selection{Index: start}}.Select(context.Background(), x, 12, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := sel.Index[len(start):]; !slices.Equal(got, want) {
				t.Errorf("%v %s: got %v, want %v", k, method, got, want)
			}
		}
	}
}

func TestBatchSelectorErrors(t *testing.T) {
	x, _, _ := batchPool(t, 20, 2, 5, 1)
	ctx := context.Background()
	var pe *ParamError
	if _, err := (BatchSelector{Method: "best"}).Select(ctx, x, 2, 1); !errors.As(err, &pe) || pe.Name != "BatchSelector.Method" {
		t.Errorf("unknown method: %v", err)
	}
	if _, err := (BatchSelector{Previous: &Selection{Index: []int{1, 2}}}).Select(ctx, x, 19, 1); !errors.As(err, &pe) || pe.Name != "budget" {
		t.Errorf("budget above the unlabeled rows: %v", err)
	}
	if _, err := (BatchSelector{Previous: &Selection{Index: []int{20}}}).Select(ctx, x, 1, 1); err == nil {
		t.Error("a labeled row outside the pool is accepted")
	}
	if _, err := (BatchSelector{M: 21}).Select(ctx, x, 1, 1); !errors.As(err, &pe) || pe.Name != "BatchSelector.M" {
		t.Errorf("M above the pool: %v", err)
	}
	if _, err := (BatchSelector{Noise: -1}).Select(ctx, x, 1, 1); err == nil {
		t.Error("negative noise accepted")
	}
	before := mat.DenseCopyOf(x)
	if _, err := (BatchSelector{}).Select(ctx, x, 5, 1); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(before, x) {
		t.Error("the pool was modified")
	}
}

func TestBatchSelectorAudit(t *testing.T) {
	x, rf, phi := batchPool(t, 70, 3, 25, 3)
	n, _ := phi.Dims()
	for _, method := range []string{MethodMaxDet, MethodBAIT, MethodLCMD, MethodHerding} {
		// A first batch of 8 after 6 labeled rows, then a second of 12:
		// each draws a quarter as audit rows, which the method never sees.
		prev := &Selection{Index: []int{4, 17, 30, 41, 52, 63}}
		for round, budget := range []int{8, 12} {
			sel, err := BatchSelector{Method: method, Features: rf, Noise: 0.01, Previous: prev, Audit: 0.25}.Select(context.Background(), x, budget, 7)
			if err != nil {
				t.Fatal(err)
			}
			k := len(prev.Index)
			a := budget / 4
			if len(sel.Index) != k+budget || len(sel.Audit) != len(sel.Index) || !slices.Equal(sel.Index[:k], prev.Index) {
				t.Fatalf("%s round %d: %d rows, %d audit weights", method, round, len(sel.Index), len(sel.Audit))
			}
			for i := range k {
				if prev.Audit != nil && sel.Audit[i] != prev.Audit[i] || prev.Audit == nil && sel.Audit[i] != 0 {
					t.Errorf("%s round %d: labeled row %d has audit weight %g", method, round, i, sel.Audit[i])
				}
			}
			for i := k; i < len(sel.Index); i++ {
				want := 0.0
				if i >= len(sel.Index)-a {
					want = float64(n-k) / float64(a)
				}
				if sel.Audit[i] != want {
					t.Errorf("%s round %d: row %d audit weight %g, want %g", method, round, i, sel.Audit[i], want)
				}
			}
			// Reference: the method on the rows that are not audit rows.
			var keep, start []int
			hide := map[int]bool{}
			for i, j := range sel.Index {
				if sel.Audit[i] > 0 {
					hide[j] = true
				}
			}
			at := map[int]int{}
			for i := range n {
				if !hide[i] {
					at[i] = len(keep)
					keep = append(keep, i)
				}
			}
			for _, j := range prev.Index {
				if !hide[j] {
					start = append(start, at[j])
				}
			}
			want := referenceBatch(gatherRows(phi, keep), start, budget-a, 0.01, method)
			for i, j := range want {
				want[i] = keep[j]
			}
			if got := sel.Index[k : k+budget-a]; !slices.Equal(got, want) {
				t.Errorf("%s round %d: chose %v, want %v (the method without the audit rows)", method, round, got, want)
			}
			prev = sel
		}
	}
}

func TestBatchSelectorAuditUniform(t *testing.T) {
	// Audit rows are a simple random sample of the unlabeled rows: each of
	// the 8 has inclusion probability 2/8.
	x := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	prev := &Selection{Index: []int{0, 9}}
	hits := make([]int, 10)
	const draws = 4000
	for s := range uint64(draws) {
		sel, err := BatchSelector{Method: MethodLCMD, Features: RawFeatures{}, Previous: prev, Audit: 0.5}.Select(context.Background(), x, 4, s)
		if err != nil {
			t.Fatal(err)
		}
		for i, j := range sel.Index {
			if sel.Audit[i] > 0 {
				hits[j]++
				if sel.Audit[i] != 4 {
					t.Fatalf("audit weight %g, want 8/2", sel.Audit[i])
				}
			}
		}
	}
	for j, h := range hits {
		want := 0.25 * draws
		if j == 0 || j == 9 {
			want = 0
		}
		if math.Abs(float64(h)-want) > 4*math.Sqrt(draws*0.25*0.75) {
			t.Errorf("row %d drawn %d times of %d, want about %g", j, h, draws, want)
		}
	}
	if _, err := (BatchSelector{Audit: 0.7}).Select(context.Background(), x, 4, 1); err == nil {
		t.Error("Audit 0.7: no error")
	}
}
