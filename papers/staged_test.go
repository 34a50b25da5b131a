package papers

import (
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadStagedErrors(t *testing.T) {
	if _, _, err := LoadStaged(t.TempDir(), "usps"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "CREDLAB_DATA") {
		t.Errorf("missing data: %v", err)
	}
	if _, _, err := LoadStaged(t.TempDir(), "mnist"); err == nil || !strings.Contains(err.Error(), "usps") {
		t.Errorf("unknown set: %v", err)
	}
	if DescribeStaged("a9a") == "" || len(StagedNames()) != 5 {
		t.Error("descriptions")
	}
}

func TestLoadStagedFormats(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "breast_cancer_wisconsin"), 0o755)
	os.WriteFile(filepath.Join(dir, "breast_cancer_wisconsin", "breast_cancer.csv"),
		[]byte("3,2,malignant,benign\n1.5,2,0\n3,4.5,1\n5,6,1\n"), 0o644)
	tr, te, err := LoadStaged(dir, "breast_cancer_wisconsin")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Nrow() != 3 || te.Nrow() != 0 || strings.Join(tr.Names(), ",") != "x1,x2,y" {
		t.Fatalf("frame %v x %v, test %d", tr.Nrow(), tr.Names(), te.Nrow())
	}
	if y := tr.Col("y").Float(); y[0] != -1 || y[1] != 1 {
		t.Errorf("labels %v, want -1 (malignant) and +1", y)
	}
	os.MkdirAll(filepath.Join(dir, "usps"), 0o755)
	for _, name := range []string{"zip.train.gz", "zip.test.gz"} {
		f, _ := os.Create(filepath.Join(dir, "usps", name))
		z := gzip.NewWriter(f)
		z.Write([]byte("3.0000 -1 1 0 \n7.0000 1 -1 -0.5 \n"))
		z.Close()
		f.Close()
	}
	tr, te, err = LoadStaged(dir, "usps")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Ncol() != 4 || te.Nrow() != 2 {
		t.Fatalf("usps frame %d columns, test %d rows", tr.Ncol(), te.Nrow())
	}
	if x := tr.Col("x3").Float(); x[1] != 0.25 || tr.Col("y").Float()[1] != 7 {
		t.Errorf("pixels not mapped to [0, 1]: %v", x)
	}
}

// The staged copies, when present beside the repository.
func TestLoadStagedShared(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no staged data beside the repository")
	}
	want := map[string][4]int{"usps": {7291, 257, 2007, 257}, "breast_cancer_wisconsin": {569, 31, 0, 0},
		"coil2000": {5822, 86, 4000, 86}, "cpusmall": {8192, 13, 0, 0}}
	for name, w := range want {
		tr, te, err := LoadStaged(dir, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := [4]int{tr.Nrow(), tr.Ncol(), te.Nrow(), te.Ncol()}; got != w {
			t.Errorf("%s: %v, want %v", name, got, w)
		}
	}
}
