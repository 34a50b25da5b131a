package frames

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// TestParquetNotLinked: package frames alone knows Parquet names but
// refuses the files with an error saying what to import (frames' tests do
// not import frames/parquet).
func TestParquetNotLinked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pool.parquet")
	if err := os.WriteFile(path, []byte("PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f := DataFormat(path + ".gz"); f != "parquet" {
		t.Errorf("DataFormat = %q, want parquet", f)
	}
	for _, opt := range []LoadOptions{{}, {Format: "Parquet"}} {
		_, err := LoadData(path, opt)
		var nl *FormatNotLinkedError
		if !errors.As(err, &nl) || nl.Format != "parquet" || nl.File != "pool.parquet" || !strings.Contains(err.Error(), `import _ "github.com/credlab/credlab/frames/parquet"`) {
			t.Errorf("format %q: %v (%T), want a *FormatNotLinkedError saying to import frames/parquet", opt.Format, err, err)
		}
	}
}

func TestRegisterFormat(t *testing.T) {
	defer func(f []string) {
		formatsMu.Lock()
		delete(formats, "demo")
		formatsMu.Unlock()
		Formats = f
	}(slices.Clone(Formats))
	want := dataframe.New(series.New([]float64{1, 2}, series.Float, "x"))
	var read string
	load := func(path string) (dataframe.DataFrame, error) { read = path; return want, nil }
	for _, c := range []struct {
		name string
		exts []string
		load func(string) (dataframe.DataFrame, error)
		what string
	}{
		{"", []string{".demo"}, load, "name"},
		{"CSV", []string{".demo"}, load, "name"},
		{"demo", []string{".csv"}, load, "extension"},
		{"demo", []string{".parq"}, load, "extension"},
		{"demo", []string{"demo"}, load, "extension"},
		{"demo", []string{".demo"}, nil, "load"},
	} {
		err := RegisterFormat(c.name, c.exts, c.load)
		var pe *credlab.ParamError
		if !errors.As(err, &pe) || pe.Name != "RegisterFormat "+c.what {
			t.Errorf("RegisterFormat(%q, %q): %v, want a *credlab.ParamError of its %s", c.name, c.exts, err, c.what)
		}
	}
	if DataFormat("a.demo") != "" || slices.Contains(Formats, "demo") {
		t.Fatal("a refused registration was kept")
	}
	if err := RegisterFormat("Demo", []string{".DEMO", ".dm"}, load); err != nil {
		t.Fatal(err)
	}
	if f := DataFormat("dir/A.Dm.gz"); f != "demo" || !slices.Contains(Formats, "demo") {
		t.Errorf("DataFormat = %q, Formats %q", f, Formats)
	}
	for _, opt := range []LoadOptions{{}, {Format: "DEMO"}} {
		df, err := LoadData("x.demo", opt)
		if err != nil || df.Nrow() != 2 || read != "x.demo" {
			t.Errorf("format %q: %d rows, %v, read %q", opt.Format, df.Nrow(), err, read)
		}
	}
}
