package fastblas

import (
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
)

func TestInstall(t *testing.T) {
	defer blas64.Use(blas64.Implementation())
	blas64.Use(gonum.Implementation{})
	ok := Install()
	if ok != Available() {
		t.Fatalf("Install() = %v, Available() = %v", ok, Available())
	}
	_, isFast := blas64.Implementation().(Implementation)
	if isFast != ok {
		t.Errorf("after Install() = %v, blas64 uses %T", ok, blas64.Implementation())
	}
}
