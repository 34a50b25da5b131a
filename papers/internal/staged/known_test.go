package staged

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func wantFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
}

func countOf(y []float64, v float64) int {
	c := 0
	for _, u := range y {
		if u == v {
			c++
		}
	}
	return c
}

// TestKnownStandIns reads tiny stand-ins with the staged files' layouts.
func TestKnownStandIns(t *testing.T) {
	s, err := COIL2000("testdata/coil2000")
	if err != nil {
		t.Fatal(err)
	}
	if r, c := s.XTrain.Dims(); r != 3 || c != 85 {
		t.Errorf("coil2000 train %d x %d", r, c)
	}
	wantFloats(t, "coil2000 train targets", s.YTrain, []float64{0, 1, 0})
	wantFloats(t, "coil2000 test targets", s.YTest, []float64{1, 0, 0})
	if s.XTrain.At(0, 1) != 3 || s.XTrain.At(2, 84) != 6 {
		t.Errorf("coil2000 features %v ... %v, want 3 ... 6", s.XTrain.At(0, 1), s.XTrain.At(2, 84))
	}

	s, err = A9A("testdata/a9a")
	if err != nil {
		t.Fatal(err)
	}
	if s.XTrain.At(0, 122) != 1 || s.XTest.At(0, 121) != 1 {
		t.Error("a9a: last features not set")
	}
	if _, c := s.XTest.Dims(); c != 123 {
		t.Errorf("a9a.t has %d columns, want 123", c)
	}

	x, y, err := CPUSmall("testdata/cpusmall") // cpu_small.arff.gz
	if err != nil {
		t.Fatal(err)
	}
	if r, c := x.Dims(); r != 2 || c != 12 {
		t.Errorf("cpusmall %d x %d", r, c)
	}
	wantFloats(t, "cpusmall targets", y, []float64{90, 50})

	if _, err := COIL2000("testdata"); err == nil {
		t.Error("coil2000 read from a directory without its files")
	}
}

// TestKnownStaged checks the shapes and label counts documented in the
// staged data's README files, when the staged data is beside the
// repository.
func TestKnownStaged(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no staged data beside the repository")
	}
	s, err := COIL2000(filepath.Join(dir, "coil2000"))
	if err != nil {
		t.Fatal(err)
	}
	if r, c := s.XTrain.Dims(); r != 5822 || c != 85 || countOf(s.YTrain, 1) != 348 {
		t.Errorf("coil2000 train %d x %d, %d positives", r, c, countOf(s.YTrain, 1))
	}
	if r, _ := s.XTest.Dims(); r != 4000 || countOf(s.YTest, 1) != 238 {
		t.Errorf("coil2000 test %d rows, %d positives", r, countOf(s.YTest, 1))
	}

	s, err = A9A(filepath.Join(dir, "a9a"))
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := s.XTrain.Dims(); r != 32561 || countOf(s.YTrain, 1) != 7841 || countOf(s.YTrain, -1) != 24720 {
		t.Errorf("a9a train %d rows, labels %d/%d", r, countOf(s.YTrain, 1), countOf(s.YTrain, -1))
	}
	if r, _ := s.XTest.Dims(); r != 16281 || countOf(s.YTest, 1) != 3846 {
		t.Errorf("a9a.t %d rows, %d positives", r, countOf(s.YTest, 1))
	}

	x, y, err := CPUSmall(filepath.Join(dir, "cpusmall"))
	if err != nil {
		t.Fatal(err)
	}
	if r, c := x.Dims(); r != 8192 || c != 12 {
		t.Errorf("cpusmall %d x %d", r, c)
	}
	for _, v := range y {
		if v < 0 || v > 100 || math.IsNaN(v) {
			t.Fatalf("cpusmall usr = %v outside [0, 100]", v)
		}
	}
}
