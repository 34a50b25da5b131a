package cred

import (
	"context"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// featurize returns fm's features of the rows of x, computed in blocks of
// 2048 rows to bound the intermediate memory; it stops with ctx's error
// between blocks.
func featurize(ctx context.Context, fm credlab.FeatureMap, x *mat.Dense) (*mat.Dense, error) {
	n, d := x.Dims()
	const block = 2048
	var out *mat.Dense
	for lo := 0; lo < n; lo += block {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+block, n)
		f, err := fm.Features(x.Slice(lo, hi, 0, d).(*mat.Dense))
		if err != nil {
			return nil, err
		}
		_, D := f.Dims()
		if out == nil {
			out = mat.NewDense(n, D, nil)
		}
		out.Slice(lo, hi, 0, D).(*mat.Dense).Copy(f)
	}
	return out, nil
}
