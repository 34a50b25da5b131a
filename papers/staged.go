package papers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/papers/internal/staged"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// StagedTarget is the target column of the frames LoadStaged returns.
const StagedTarget = "y"

// StagedNames lists the data sets LoadStaged reads, sorted.
func StagedNames() []string { return staged.Names() }

// DescribeStaged returns a one-line description of a staged data set, or ""
// for an unknown name.
func DescribeStaged(name string) string { return staged.Sets[name].About }

// LoadStaged reads one of the data sets staged in dataDir (the project's
// ../shared/data; see its README) by name: "usps", "breast_cancer_wisconsin",
// "coil2000", "a9a" or "cpusmall" (StagedNames). Features are the columns
// "x1" ... "xd" and the target is "y"; binary labels are -1/+1 (see
// DescribeStaged). test has no rows for a set without a standard split
// (use SplitRows).
//
// A missing file is an error that wraps fs.ErrNotExist and names the
// directory, so that a notebook can say the data are missing.
func LoadStaged(dataDir, name string) (train, test dataframe.DataFrame, err error) {
	var none dataframe.DataFrame
	set, ok := staged.Sets[name]
	if !ok {
		return none, none, &credlab.ParamError{Name: "staged data set", Value: strconv.Quote(name), Want: "one of " + strings.Join(StagedNames(), ", ")}
	}
	for _, f := range set.Files {
		if _, err := os.Stat(filepath.Join(dataDir, f)); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return none, none, fmt.Errorf("papers: staged data set %q not found: %s is missing (set CREDLAB_DATA to the data directory): %w",
					name, filepath.Join(dataDir, f), fs.ErrNotExist)
			}
			return none, none, fmt.Errorf("papers: staged data set %q: %w", name, err)
		}
	}
	xtr, ytr, xte, yte, err := set.Load(dataDir)
	if err != nil {
		return none, none, fmt.Errorf("papers: loading %s: %w", name, err)
	}
	if train, err = stagedFrame(xtr, ytr); err != nil {
		return none, none, err
	}
	if xte != nil {
		if test, err = stagedFrame(xte, yte); err != nil {
			return none, none, err
		}
	}
	return train, test, nil
}

// stagedFrame returns the features x1..xd and the target y as a frame.
func stagedFrame(x *mat.Dense, y []float64) (dataframe.DataFrame, error) {
	df, err := frames.FromMatrix(x)
	if err != nil {
		return df, err
	}
	df = df.Mutate(series.New(y, series.Float, StagedTarget))
	if df.Err != nil {
		return df, fmt.Errorf("papers: adding the target: %w", df.Err)
	}
	return df, nil
}
