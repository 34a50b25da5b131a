package credlab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPoolWeightsLine checks the weights on a line, where the nearest
// labeled row is known by hand, ties going to the lower index.
func TestPoolWeightsLine(t *testing.T) {
	pool := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	for _, c := range []struct {
		labeled []float64
		want    []float64
	}{
		{[]float64{0, 9}, []float64{1, 1}},                               // 5 and 5 pool rows
		{[]float64{0, 2}, []float64{0.5, 1.5}},                           // 1 is a tie: 2 and 8 rows
		{[]float64{9, 0, 4}, []float64{12.0 / 13, 12.0 / 13, 15.0 / 13}}, // 3, 3 and 4 rows: 2 goes to 0 (index 1), not 4
	} {
		got, err := PoolWeights(context.Background(), pool, mat.NewDense(len(c.labeled), 1, c.labeled), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("labeled %v: weights %v, want %v", c.labeled, got, c.want)
				break
			}
		}
	}
}

// TestPoolWeightsBruteForce checks the blocked computation against the
// nearest labeled row found by explicit distances, with column scales.
// With 1,000 labeled rows the 3,000 pool rows take two blocks; an offset
// of 1e7 on every column (raw timestamps, say) must not cost precision.
func TestPoolWeightsBruteForce(t *testing.T) {
	for _, c := range []struct {
		N, n   int
		offset float64
	}{{700, 40, 0}, {3000, 1000, 0}, {700, 40, 1e7}} {
		testPoolWeightsBruteForce(t, c.N, c.n, c.offset)
	}
}

func testPoolWeightsBruteForce(t *testing.T, N, n int, offset float64) {
	rng := rand.New(rand.NewPCG(1, uint64(N)))
	const d = 3
	pool := mat.NewDense(N, d, nil)
	for i := 0; i < N; i++ {
		for j := 0; j < d; j++ {
			pool.Set(i, j, offset+rng.NormFloat64())
		}
	}
	labeled := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		labeled.SetRow(i, pool.RawRowView(rng.IntN(N)))
		labeled.Set(i, 0, labeled.At(i, 0)+0.1*rng.NormFloat64())
	}
	orig := mat.DenseCopyOf(pool)
	for c, scales := range [][]float64{nil, {1, 0.2, 3}, {0, 1, 1}} {
		var k Kernel
		switch {
		case c == 1:
			k = MaternKernel{Nu: 1.5, Sigma: 2, Scales: scales}
		case scales != nil:
			k = ManhattanKernel{Sigma: 2, Scales: scales} // its scales weigh the columns too
		}
		got, err := PoolWeights(context.Background(), pool, labeled, k)
		if err != nil {
			t.Fatal(err)
		}
		count := make([]float64, n)
		for i := 0; i < N; i++ {
			best, bk := math.Inf(1), -1
			for k := 0; k < n; k++ {
				dist := 0.0
				for j := 0; j < d; j++ {
					s := 1.0
					if scales != nil {
						s = scales[j]
					}
					v := s * (pool.At(i, j) - labeled.At(k, j))
					dist += v * v
				}
				if dist < best {
					best, bk = dist, k
				}
			}
			count[bk]++
		}
		sum := 0.0
		for k := range got {
			if want := float64(n) * (count[k] + 1) / float64(N+n); math.Abs(got[k]-want) > 1e-12 {
				t.Errorf("N %d, n %d, offset %g, scales %v: weight[%d] = %g, want %g", N, n, offset, scales, k, got[k], want)
			}
			sum += got[k]
		}
		if math.Abs(sum-float64(n)) > 1e-9 {
			t.Errorf("scales %v: weights sum to %g, want %d", scales, sum, n)
		}
	}
	if !mat.Equal(pool, orig) {
		t.Error("PoolWeights modified the pool")
	}
}

func TestPoolWeightsBadInput(t *testing.T) {
	pool := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	nan := mat.NewDense(1, 2, []float64{math.NaN(), 1})
	for _, c := range []struct {
		name    string
		labeled *mat.Dense
		k       Kernel
		check   func(error) bool
	}{
		{"columns", mat.NewDense(1, 3, nil), nil, func(err error) bool { return errors.Is(err, ErrShape) }},
		{"scales length", mat.NewDense(1, 2, nil), GaussianKernel{Sigma: 1, Scales: []float64{1}}, func(err error) bool { return errors.Is(err, ErrShape) }},
		{"negative scale", mat.NewDense(1, 2, nil), GaussianKernel{Sigma: 1, Scales: []float64{1, -1}}, func(err error) bool {
			var pe *ParamError
			return errors.As(err, &pe)
		}},
		{"NaN", nan, nil, func(err error) bool {
			var ne *NotFiniteError
			return errors.As(err, &ne) && ne.Name == "labeled"
		}},
	} {
		if _, err := PoolWeights(context.Background(), pool, c.labeled, c.k); !c.check(err) {
			t.Errorf("%s: error %v", c.name, err)
		}
	}
}

// BenchmarkPoolWeights: N pool rows of 8 columns, n labeled rows among them.
func BenchmarkPoolWeights(b *testing.B) {
	for _, c := range []struct{ N, n int }{{5000, 512}, {20000, 2048}, {50000, 4352}} {
		b.Run(fmt.Sprintf("N=%d/n=%d", c.N, c.n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(7, uint64(c.N)))
			pool := mat.NewDense(c.N, 8, nil)
			for i := 0; i < c.N; i++ {
				for j := 0; j < 8; j++ {
					pool.Set(i, j, rng.NormFloat64())
				}
			}
			labeled, err := GatherRows(pool, rng.Perm(c.N)[:c.n])
			if err != nil {
				b.Fatal(err)
			}
			k := GaussianKernel{Sigma: 1, Scales: []float64{1, 2, 0.5, 1, 1, 0.1, 3, 1}}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := PoolWeights(context.Background(), pool, labeled, k); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestNearestCountsShards: the counts of a pool's shards add up to the
// pool's, also where distances tie (integer columns), and, without ties,
// PoolWeightsFromCounts of the sum is PoolWeights of the pool.
func TestNearestCountsShards(t *testing.T) {
	for _, ints := range []bool{false, true} {
		testNearestCountsShards(t, ints)
	}
}

func testNearestCountsShards(t *testing.T, ints bool) {
	rng := rand.New(rand.NewPCG(4, 4))
	const N, n, d = 500, 30, 3
	pool := mat.NewDense(N, d, nil)
	for i := 0; i < N; i++ {
		for j := 0; j < d; j++ {
			v := rng.NormFloat64()
			if ints {
				v = float64(rng.IntN(5)) + 1e6 // ties, far from the origin
			}
			pool.Set(i, j, v)
		}
	}
	lab, _ := GatherRows(pool, rng.Perm(N)[:n])
	k := GaussianKernel{Sigma: 1, Scales: []float64{0.5, 1, 2}}
	ctx := context.Background()
	sum := make([]int, n)
	for _, part := range [][2]int{{0, 170}, {170, 420}, {420, N}} {
		c, err := NearestCounts(ctx, pool.Slice(part[0], part[1], 0, d).(*mat.Dense), lab, k)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range c {
			sum[i] += v
		}
	}
	all, err := NearestCounts(ctx, pool, lab, k)
	if err != nil {
		t.Fatal(err)
	}
	w, err := PoolWeights(ctx, pool, lab, k)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, v := range sum {
		total += v
	}
	fromSum, err := PoolWeightsFromCounts(sum, N)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PoolWeightsFromCounts(sum, N+1); err == nil {
		t.Error("counts that do not sum to N: no error")
	}
	if _, err := PoolWeightsFromCounts([]int{-1, N + 1}, N); err == nil {
		t.Error("a negative count: no error")
	}
	for i := range all {
		if sum[i] != all[i] || !ints && fromSum[i] != w[i] {
			t.Fatalf("integer columns %v, labeled row %d: counts %d over the shards, %d on the pool; weights %v, %v", ints, i, sum[i], all[i], fromSum[i], w[i])
		}
	}
	if total != N {
		t.Errorf("counts sum to %d, want the %d pool rows", total, N)
	}
}
