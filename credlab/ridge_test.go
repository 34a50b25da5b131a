package credlab

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// CholeskySolve against gonum's LU solve of (A + shift I) z = b, and its
// refusal of a matrix that is not positive definite.
func TestCholeskySolve(t *testing.T) {
	a := mat.NewDense(3, 3, []float64{4, 1, 0, 1, 3, 1, 0, 1, 2})
	b := []float64{1, -2, 3}
	const shift = 0.5
	var want mat.VecDense
	shifted := mat.DenseCopyOf(a)
	for i := 0; i < 3; i++ {
		shifted.Set(i, i, shifted.At(i, i)+shift)
	}
	if err := want.SolveVec(shifted, mat.NewVecDense(3, append([]float64(nil), b...))); err != nil {
		t.Fatal(err)
	}
	z, ok := CholeskySolve(mat.DenseCopyOf(a), shift, b)
	if !ok || !mat.EqualApprox(mat.NewVecDense(3, z), &want, 1e-14) {
		t.Fatalf("z = %v (ok %v), want %v", z, ok, want.RawVector().Data)
	}
	if _, ok := CholeskySolve(mat.DenseCopyOf(a), -5, b); ok {
		t.Fatal("A - 5 I is indefinite, solved anyway")
	}
}
