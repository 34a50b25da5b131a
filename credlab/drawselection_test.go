package credlab

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestDrawSelection(t *testing.T) {
	q := []float64{0.5, 0.25, 0.125, 0.125}
	sel, err := DrawSelection(q, 40000, 1)
	if err != nil {
		t.Fatal(err)
	}
	count := make([]float64, 4)
	for i, j := range sel.Index {
		count[j]++
		if want := 1 / (4 * q[j]); sel.Weight[i] != want || sel.Prob[i] != q[j] {
			t.Fatalf("row %d: weight %v, prob %v; want %v, %v", j, sel.Weight[i], sel.Prob[i], want, q[j])
		}
	}
	for j := range q {
		if f := count[j] / 40000; math.Abs(f-q[j]) > 0.01 {
			t.Fatalf("row %d drawn with frequency %v, want %v", j, f, q[j])
		}
	}
	for _, bad := range [][]float64{nil, {0.5, 0.6}, {1.5, -0.5}, {math.NaN(), 1}} {
		if _, err := DrawSelection(bad, 3, 1); err == nil {
			t.Errorf("q = %v accepted", bad)
		}
	}
	if _, err := DrawSelection(q, 0, 1); err == nil {
		t.Error("budget 0 accepted")
	}
}

// CREDSelector draws from its q exactly as DrawSelection does.
func TestDrawSelectionMatchesCREDSelector(t *testing.T) {
	x := mat.NewDense(50, 2, nil)
	for i := 0; i < 50; i++ {
		x.Set(i, 0, math.Sin(float64(i)))
		x.Set(i, 1, math.Cos(float64(3*i)))
	}
	sel, err := CREDSelector{Features: RawFeatures{}, LambdaQ: 1e-3}.Select(context.Background(), x, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	again, err := DrawSelection(sel.Q, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sel.Index {
		if sel.Index[i] != again.Index[i] || sel.Weight[i] != again.Weight[i] {
			t.Fatalf("draw %d: CREDSelector row %d weight %v, DrawSelection row %d weight %v", i, sel.Index[i], sel.Weight[i], again.Index[i], again.Weight[i])
		}
	}
}
