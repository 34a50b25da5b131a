//go:build !openblas

package credlab

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/credlab/credlab/fastblas"
)

// BLASBackend names the BLAS implementation in use at run time, as set by
// this package's init or by UseBLAS: "go-avx512" or "go-avx2" for the
// pure-Go assembly kernels (Dgemm, Dsyrk, Dtrsm and Dtrmm on every core,
// named after the Dgemm micro-kernel), "gonum" for gonum's own BLAS, or
// "openblas" in a build with -tags openblas. Read it, do not assign it.
var BLASBackend string

// init installs the fastest BLAS this CPU runs into gonum's blas64, for
// the whole process (gonum/mat and every other gonum user included): the
// assembly kernels on amd64 with AVX2 and FMA, gonum's otherwise. The
// environment variable CREDLAB_BLAS, read once here, overrides the choice
// with any name UseBLAS takes.
func init() {
	setBackend("gonum")
	if env := os.Getenv("CREDLAB_BLAS"); env != "" {
		err := UseBLAS(env)
		if err == nil {
			return
		}
		fmt.Fprintf(os.Stderr, "credlab: CREDLAB_BLAS: %v; using the default\n", err)
	}
	if fastblas.Install() {
		setBackend("go-" + fastblas.Kernel())
	}
}

// UseBLAS installs the named BLAS into gonum's blas64 for the whole
// process and records it in BLASBackend: "gonum", "go-avx2" or "go-avx512"
// (when this CPU runs it; BLASBackends lists the choices here). Call it at
// start-up, before any computation and never concurrently with one. A name
// this machine cannot run is an error and leaves the backend unchanged.
// Results agree between backends to rounding, not bit for bit.
func UseBLAS(name string) error {
	switch name {
	case "gonum":
		blas64.Use(gonum.Implementation{})
	case "go-avx2", "go-avx512":
		if !fastblas.Available() || !fastblas.UseKernel(strings.TrimPrefix(name, "go-")) {
			return &ParamError{Name: "BLAS backend", Value: strconv.Quote(name), Want: "one of " + strings.Join(BLASBackends(), ", ") + " (it does not run on this CPU)"}
		}
		blas64.Use(fastblas.Implementation{})
	default:
		return &ParamError{Name: "BLAS backend", Value: strconv.Quote(name), Want: "one of " + strings.Join(BLASBackends(), ", ")}
	}
	setBackend(name)
	return nil
}

// BLASBackends lists the backends UseBLAS can install on this machine,
// fastest first.
func BLASBackends() []string {
	var out []string
	if fastblas.Available() {
		k := fastblas.Kernel()
		for _, name := range []string{"avx512", "avx2"} {
			if fastblas.UseKernel(name) {
				out = append(out, "go-"+name)
			}
		}
		fastblas.UseKernel(k)
	}
	return append(out, "gonum")
}

func setBackend(name string) {
	BLASBackend = name
	triBreakEven = map[string]int{"gonum": 14, "go-avx2": 11, "go-avx512": 12}[name]
}

// potrfLower factors the lower triangle of a in place, a = L L^T.
func potrfLower(a blas64.Symmetric) (blas64.Triangular, bool) { return lapack64.Potrf(a) }

// trtriLower replaces the lower triangular t by its inverse.
func trtriLower(t blas64.Triangular) bool { return lapack64.Trtri(t) }
