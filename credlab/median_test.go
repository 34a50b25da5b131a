package credlab

import (
	"context"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestMedianDistance(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{0, 1, 3}, 2},      // distances 1, 3, 2
		{[]float64{0, 1, 3, 7}, 3.5}, // 1, 3, 7, 2, 6, 4: median of an even count
		{[]float64{5, 5, 5}, 1},      // zero: 1
		{[]float64{2}, 1},            // no pairs: 1
	} {
		if got := MedianDistance(mat.NewDense(len(c.x), 1, c.x)); got != c.want {
			t.Errorf("MedianDistance(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestMedianL1Distance(t *testing.T) {
	for _, c := range []struct {
		x    []float64 // rows of two columns
		want float64
	}{
		{[]float64{0, 0, 1, 1, 3, 0}, 3},         // L1 distances 2, 3, 3 (Euclidean 1.41, 3, 2.24)
		{[]float64{0, 0, 1, 0, 0, 2, 3, 3}, 3.5}, // 1, 2, 6, 3, 5, 4: median of an even count
		{[]float64{1, 2, 1, 2}, 1},               // zero: 1
	} {
		if got := MedianL1Distance(mat.NewDense(len(c.x)/2, 2, c.x)); got != c.want {
			t.Errorf("MedianL1Distance(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// The zero configuration of every kernel estimator (with the number of
// Nyström centers, which is required) fits with the Gaussian kernel at the
// median heuristic's sigma, the same model as that kernel given
// explicitly.
func TestZeroConfigKernel(t *testing.T) {
	ctx := context.Background()
	x, y, _ := SmoothRegression(120, 2, 0.1, 3)
	k := GaussianKernel{Sigma: MedianDistance(x)}
	for _, c := range []struct {
		name       string
		zero, with func() (*Model, error)
	}{
		{"KRLS", func() (*Model, error) { f, err := KRLS(ctx, x, y, KRLSConfig{}); return model(f, err) },
			func() (*Model, error) { f, err := KRLS(ctx, x, y, KRLSConfig{Kernel: k}); return model(f, err) }},
		{"KOLS", func() (*Model, error) { f, err := KOLS(ctx, x, y, KOLSConfig{}); return model(f, err) },
			func() (*Model, error) { f, err := KOLS(ctx, x, y, KOLSConfig{Kernel: k}); return model(f, err) }},
		{"EarlyStopping", func() (*Model, error) {
			f, err := EarlyStopping(ctx, x, y, EarlyStoppingConfig{})
			return model(f, err)
		},
			func() (*Model, error) {
				f, err := EarlyStopping(ctx, x, y, EarlyStoppingConfig{Kernel: k})
				return model(f, err)
			}},
		{"NKRLS", func() (*Model, error) {
			f, err := NKRLS(ctx, x, y, NKRLSConfig{Nystrom: NystromConfig{M: 30}})
			return model(f, err)
		},
			func() (*Model, error) {
				f, err := NKRLS(ctx, x, y, NKRLSConfig{Kernel: k, Nystrom: NystromConfig{M: 30}})
				return model(f, err)
			}},
		{"NYTRO", func() (*Model, error) {
			f, err := NYTRO(ctx, x, y, NYTROConfig{Nystrom: NystromConfig{M: 30}})
			return model(f, err)
		},
			func() (*Model, error) {
				f, err := NYTRO(ctx, x, y, NYTROConfig{Kernel: k, Nystrom: NystromConfig{M: 30}})
				return model(f, err)
			}},
		{"SGM", func() (*Model, error) {
			f, err := SGM(ctx, x, y, SGMConfig{})
			if err != nil {
				return nil, err
			}
			return f.Model, nil
		}, func() (*Model, error) {
			f, err := SGM(ctx, x, y, SGMConfig{Kernel: k})
			if err != nil {
				return nil, err
			}
			return f.Model, nil
		}},
	} {
		m0, err := c.zero()
		if err != nil {
			t.Fatalf("%s with a zero config: %v", c.name, err)
		}
		m1, err := c.with()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(m0.Kernel, Kernel(k)) {
			t.Errorf("%s: default kernel %v, want %v", c.name, m0.Kernel, k)
		}
		p0, _ := m0.Predict(x)
		p1, _ := m1.Predict(x)
		for i := range p0 {
			if p0[i] != p1[i] || math.IsNaN(p0[i]) {
				t.Fatalf("%s: prediction %d is %v with the default kernel, %v with it given", c.name, i, p0[i], p1[i])
			}
		}
	}
}

func model(f *Fit, err error) (*Model, error) {
	if err != nil {
		return nil, err
	}
	return f.Model, nil
}
