//go:build openblas

package fastblas_test

import (
	"gonum.org/v1/netlib/blas/netlib"

	_ "github.com/credlab/credlab/credlab" // links libopenblas (cgo LDFLAGS)
)

func init() {
	backends = append(backends, backend{"openblas", netlib.Implementation{}, ""})
}
