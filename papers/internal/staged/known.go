package staged

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"gonum.org/v1/gonum/mat"
)

// TrainTest is a data set with a fixed train/test split.
type TrainTest struct {
	XTrain *mat.Dense
	YTrain []float64
	XTest  *mat.Dense
	YTest  []float64
}

// COIL2000 reads the Insurance Company Benchmark (COIL 2000, the NYTRO
// paper's "InsuranceCompany") from dir: training rows from ticdata2000.txt
// (5822 x 85 features, target CARAVAN in column 86) and test rows from
// ticeval2000.txt (4000 x 85) with targets in tictgts2000.txt, all
// tab-separated without a header line. Targets are 0/1 as in the files.
// Each file may also be gzip-compressed with a ".gz" suffix. The data is
// for non-commercial research and education only.
func COIL2000(dir string) (*TrainTest, error) {
	train, err := loadNumeric(pick(dir, "ticdata2000.txt"))
	if err != nil {
		return nil, err
	}
	var s TrainTest
	if s.XTrain, s.YTrain, err = splitColumn(train, 85, "ticdata2000.txt"); err != nil {
		return nil, err
	}
	if s.XTest, err = loadNumeric(pick(dir, "ticeval2000.txt")); err != nil {
		return nil, err
	}
	tpath := pick(dir, "tictgts2000.txt")
	t, err := loadNumeric(tpath)
	if err != nil {
		return nil, err
	}
	if _, c := t.Dims(); c != 1 {
		return nil, fmt.Errorf("repro: %s: %d columns, want 1 target per line", tpath, c)
	}
	s.YTest = mat.Col(nil, 0, t)
	return &s, s.check(dir, 85)
}

// A9A reads the LIBSVM a9a version of UCI Adult from dir: a9a for
// training (32561 rows) and a9a.t for testing (16281 rows), both with
// d = 123 binary features and labels -1/+1.
func A9A(dir string) (*TrainTest, error) {
	var s TrainTest
	var err error
	if s.XTrain, s.YTrain, err = datasets.LoadLIBSVM(pick(dir, "a9a"), 123); err != nil {
		return nil, err
	}
	if s.XTest, s.YTest, err = datasets.LoadLIBSVM(pick(dir, "a9a.t"), 123); err != nil {
		return nil, err
	}
	return &s, s.check(dir, 123)
}

// CPUSmall reads the Delve cpuSmall regression set (8192 x 12, target
// "usr") from dir/cpu_small.arff. It has no standard split.
func CPUSmall(dir string) (*mat.Dense, []float64, error) {
	return datasets.LoadARFF(pick(dir, "cpu_small.arff"), "usr")
}

func (s *TrainTest) check(dir string, d int) error {
	_, dtr := s.XTrain.Dims()
	nte, dte := s.XTest.Dims()
	if dtr != d || dte != d {
		return fmt.Errorf("repro: %s: %d training and %d test features, want %d", dir, dtr, dte, d)
	}
	if len(s.YTest) != nte {
		return fmt.Errorf("repro: %s: %d test rows but %d test targets", dir, nte, len(s.YTest))
	}
	return nil
}

// loadNumeric reads a numeric table without a header line whose fields are
// separated by blanks (frames.LoadCSV with Whitespace) as a matrix; a
// missing or non-finite value is an error naming its column.
func loadNumeric(path string) (*mat.Dense, error) {
	return readNumeric(frames.LoadCSV(path, frames.CSVOptions{Whitespace: true, NoHeader: true}))
}

// readNumeric converts the numeric frame a frames reader returned.
func readNumeric(df dataframe.DataFrame, err error) (*mat.Dense, error) {
	if err != nil {
		return nil, err
	}
	return frames.ToMatrix(df)
}

// splitColumn returns the columns of x but column j (0-based), the
// features, and column j, the target.
func splitColumn(x *mat.Dense, j int, name string) (*mat.Dense, []float64, error) {
	n, c := x.Dims()
	if j >= c || c < 2 {
		return nil, nil, fmt.Errorf("repro: %s: %d columns: the target is column %d, beside at least one feature", name, c, j+1)
	}
	f := mat.NewDense(n, c-1, nil)
	for i := 0; i < n; i++ {
		r, d := x.RawRowView(i), f.RawRowView(i)
		copy(d, r[:j])
		copy(d[j:], r[j+1:])
	}
	return f, mat.Col(nil, j, x), nil
}

// pick returns dir/name, or dir/name.gz if only the compressed file exists.
func pick(dir, name string) string {
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		if _, errGz := os.Stat(p + ".gz"); errGz == nil {
			return p + ".gz"
		}
	}
	return p
}

// USPSFile reads one USPS file (zip.train or zip.test of The Elements of
// Statistical Learning, gzip-compressed): per line the digit, then 256
// pixels in [-1, 1], separated by blanks. It returns the pixels and the
// digits.
func USPSFile(path string) (*mat.Dense, []float64, error) {
	x, err := loadNumeric(path)
	if err != nil {
		return nil, nil, err
	}
	return splitColumn(x, 0, filepath.Base(path))
}
