package fastblas

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestPanics checks that invalid arguments panic with gonum's messages.
func TestPanics(t *testing.T) {
	x := make([]float64, 400)
	calls := map[string]func(impl blas.Float64){
		"Dgemm lda":   func(b blas.Float64) { b.Dgemm(blas.NoTrans, blas.NoTrans, 20, 20, 20, 1, x, 19, x, 20, 0, x, 20) },
		"Dgemm short": func(b blas.Float64) { b.Dgemm(blas.NoTrans, blas.Trans, 20, 20, 20, 1, x, 20, x, 20, 0, x[1:], 20) },
		"Dgemm trans": func(b blas.Float64) { b.Dgemm('X', blas.NoTrans, 20, 20, 20, 1, x, 20, x, 20, 0, x, 20) },
		"Dsyrk uplo":  func(b blas.Float64) { b.Dsyrk(blas.All, blas.NoTrans, 20, 20, 1, x, 20, 0, x, 20) },
		"Dsyrk ldc":   func(b blas.Float64) { b.Dsyrk(blas.Lower, blas.Trans, 20, 20, 1, x, 20, 0, x, 10) },
		"Dtrsm side":  func(b blas.Float64) { b.Dtrsm('X', blas.Lower, blas.NoTrans, blas.Unit, 20, 20, 1, x, 20, x, 20) },
		"Dtrsm short": func(b blas.Float64) {
			b.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, 20, 20, 1, x[1:], 20, x, 20)
		},
		"Dsymv incx":  func(b blas.Float64) { b.Dsymv(blas.Lower, 20, 1, x, 20, x, 0, 0, x, 1) },
		"Dsymv short": func(b blas.Float64) { b.Dsymv(blas.Upper, 20, 1, x, 20, x, 30, 0, x, 1) },
		"Dsymv uplo":  func(b blas.Float64) { b.Dsymv(blas.All, 20, 1, x, 20, x, 1, 0, x, 1) },
		"Dsyr2 lda":   func(b blas.Float64) { b.Dsyr2(blas.Lower, 20, 1, x, 1, x, 1, x, 19) },
		"Dsyr2 short": func(b blas.Float64) { b.Dsyr2(blas.Lower, 20, 1, x, 1, x, -30, x, 20) },
		"Dsyr2k ldb":  func(b blas.Float64) { b.Dsyr2k(blas.Lower, blas.NoTrans, 20, 20, 1, x, 20, x, 19, 0, x, 20) },
		"Dsyr2k trans": func(b blas.Float64) {
			b.Dsyr2k(blas.Upper, 'X', 20, 20, 1, x, 20, x, 20, 0, x, 20)
		},
		"Dtrmm diag": func(b blas.Float64) { b.Dtrmm(blas.Right, blas.Upper, blas.Trans, 'X', 20, 20, 1, x, 20, x, 20) },
		"Dtrmm m":    func(b blas.Float64) { b.Dtrmm(blas.Right, blas.Upper, blas.Trans, blas.Unit, -1, 20, 1, x, 20, x, 20) },
	}
	for name, call := range calls {
		want, got := recovered(func() { call(gonum.Implementation{}) }), recovered(func() { call(Implementation{}) })
		if want == nil || got != want {
			t.Errorf("%s: panic %v, want gonum's %v", name, got, want)
		}
	}
}

func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}
