//go:build race

package fastblas

// raceEnabled: the race detector slows the kernels' Go code tenfold, so
// the tests skip their large sizes under it.
const raceEnabled = true
