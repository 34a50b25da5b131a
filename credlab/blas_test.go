package credlab

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestUseBLAS(t *testing.T) {
	start := BLASBackend
	defer UseBLAS(start)
	if !slices.Contains(BLASBackends(), start) {
		t.Fatalf("BLASBackend %q is not among BLASBackends() %v", start, BLASBackends())
	}
	a := mat.NewDense(70, 90, nil)
	for i := range a.RawMatrix().Data {
		a.RawMatrix().Data[i] = math.Sin(float64(i))
	}
	var want mat.Dense
	want.Mul(a, a.T())
	for _, name := range BLASBackends() {
		if err := UseBLAS(name); err != nil {
			t.Fatalf("UseBLAS(%q): %v", name, err)
		}
		if BLASBackend != name {
			t.Fatalf("after UseBLAS(%q), BLASBackend = %q", name, BLASBackend)
		}
		var got mat.Dense
		got.Mul(a, a.T())
		if !mat.EqualApprox(&got, &want, 1e-12) {
			t.Errorf("%s: A A^T differs from %s's", name, start)
		}
	}
	if err := UseBLAS("mkl"); err == nil {
		t.Error("unknown backend accepted")
	}
}
