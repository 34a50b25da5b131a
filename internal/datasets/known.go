package datasets

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
)

// Split is a data set with a fixed train/test split.
type Split struct {
	XTrain *mat.Dense
	YTrain []float64
	XTest  *mat.Dense
	YTest  []float64
}

// LoadCOIL2000 reads the Insurance Company Benchmark (COIL 2000, the NYTRO
// paper's "InsuranceCompany") from dir: training rows from ticdata2000.txt
// (5822 x 85 features, target CARAVAN in column 86) and test rows from
// ticeval2000.txt (4000 x 85) with targets in tictgts2000.txt. Targets are
// 0/1 as in the files. Each file may also be gzip-compressed with a ".gz"
// suffix. The data is for non-commercial research and education only.
func LoadCOIL2000(dir string) (*Split, error) {
	var s Split
	var err error
	if s.XTrain, s.YTrain, err = LoadTable(pick(dir, "ticdata2000.txt"), TableOptions{Header: HeaderNone}); err != nil {
		return nil, err
	}
	if s.XTest, _, err = LoadTable(pick(dir, "ticeval2000.txt"), TableOptions{Header: HeaderNone, NoTarget: true}); err != nil {
		return nil, err
	}
	tpath := pick(dir, "tictgts2000.txt")
	t, _, err := LoadTable(tpath, TableOptions{Header: HeaderNone, NoTarget: true})
	if err != nil {
		return nil, err
	}
	if _, c := t.Dims(); c != 1 {
		return nil, errorf(tpath, 0, "%d columns, want 1 target per line", c)
	}
	s.YTest = mat.Col(nil, 0, t)
	if err := s.check(dir, 85); err != nil {
		return nil, err
	}
	return &s, nil
}

// LoadA9A reads the LIBSVM a9a version of UCI Adult from dir: a9a for
// training (32561 rows) and a9a.t for testing (16281 rows), both with
// d = 123 binary features and labels -1/+1.
func LoadA9A(dir string) (*Split, error) {
	var s Split
	var err error
	if s.XTrain, s.YTrain, err = LoadLIBSVM(pick(dir, "a9a"), 123); err != nil {
		return nil, err
	}
	if s.XTest, s.YTest, err = LoadLIBSVM(pick(dir, "a9a.t"), 123); err != nil {
		return nil, err
	}
	return &s, s.check(dir, 123)
}

// LoadCPUSmall reads the Delve cpuSmall regression set (8192 x 12, target
// "usr") from dir/cpu_small.arff. It has no standard split.
func LoadCPUSmall(dir string) (*mat.Dense, []float64, error) {
	return LoadARFF(pick(dir, "cpu_small.arff"), "usr")
}

func (s *Split) check(dir string, d int) error {
	_, dtr := s.XTrain.Dims()
	nte, dte := s.XTest.Dims()
	if dtr != d || dte != d {
		return fmt.Errorf("datasets: %s: %d training and %d test features, want %d", dir, dtr, dte, d)
	}
	if len(s.YTest) != nte {
		return fmt.Errorf("datasets: %s: %d test rows but %d test targets", dir, nte, len(s.YTest))
	}
	return nil
}

// pick returns dir/name, or dir/name.gz if only the compressed file exists.
func pick(dir, name string) string {
	p := filepath.Join(dir, name)
	if exists(p) || !exists(p+".gz") {
		return p
	}
	return p + ".gz"
}
