package frames

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
)

// ParquetPackage is the package that reads Parquet files: importing it
// registers the "parquet" format with LoadData (RegisterFormat).
const ParquetPackage = "github.com/credlab/credlab/frames/parquet"

// builtinExts maps the file name extensions of the formats package frames
// reads itself to their format.
var builtinExts = map[string]string{
	".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".arff": "arff",
	".libsvm": "libsvm", ".svm": "libsvm", ".svmlight": "libsvm", ".idx": "idx",
}

// registered is a format another package reads (RegisterFormat); load is
// nil until that package is imported.
type registered struct {
	exts []string
	load func(path string) (dataframe.DataFrame, error)
	pkg  string // the package to import
}

var (
	formatsMu sync.RWMutex
	// formats holds the registered formats, "parquet" declared in advance
	// so that its names are known and its error says what to import.
	formats = map[string]*registered{
		"parquet": {exts: []string{".parquet", ".parq"}, pkg: ParquetPackage},
	}
)

// RegisterFormat has LoadData read the format name (LoadOptions.Format,
// case-insensitive) with load, and DataFormat map the file name extensions
// exts (such as ".parquet", case-insensitive) to it. A package reading a
// format calls it from its init function, as package
// github.com/credlab/credlab/frames/parquet does for "parquet": a program
// reads the format by importing that package, and other programs do not
// link its dependencies. Registering a name again replaces its loader and
// extensions. An empty name, a name or an extension of a format frames
// reads itself (csv, tsv, arff, libsvm, idx) or of another registered
// format, or a nil load, is a *credlab.ParamError.
func RegisterFormat(name string, exts []string, load func(path string) (dataframe.DataFrame, error)) error {
	name = strings.ToLower(name)
	bad := func(what, value, want string) error {
		return &credlab.ParamError{Name: "RegisterFormat " + what, Value: strconv.Quote(value), Want: want}
	}
	switch {
	case name == "" || strings.ContainsAny(name, " \t\n"):
		return bad("name", name, "a format name such as \"parquet\"")
	case slices.Contains(builtinNames, name):
		return bad("name", name, "a name other than "+strings.Join(builtinNames, ", ")+" (formats frames reads itself)")
	case load == nil:
		return bad("load", "nil", "a function reading a file")
	}
	low := make([]string, len(exts))
	for i, e := range exts {
		low[i] = strings.ToLower(e)
		if !strings.HasPrefix(low[i], ".") || len(low[i]) < 2 || low[i] == ".gz" {
			return bad("extension", e, "a file name extension such as \".parquet\"")
		}
		if f := builtinExts[low[i]]; f != "" {
			return bad("extension", e, "an extension that is not the "+f+" format's")
		}
	}
	formatsMu.Lock()
	defer formatsMu.Unlock()
	for other, r := range formats {
		for _, e := range low {
			if other != name && slices.Contains(r.exts, e) {
				return bad("extension", e, "an extension that is not the "+other+" format's")
			}
		}
	}
	r := formats[name]
	if r == nil {
		r = &registered{}
		formats[name] = r
	}
	r.exts, r.load = low, load
	if !slices.Contains(Formats, name) {
		Formats = append(Formats, name)
	}
	return nil
}

// builtinNames are the formats frames reads itself.
var builtinNames = []string{"csv", "tsv", "arff", "libsvm", "idx"}

// registeredFormat returns the registered format of an extension ("" if
// none).
func registeredFormat(ext string) string {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	for name, r := range formats {
		if slices.Contains(r.exts, ext) {
			return name
		}
	}
	return ""
}

// loadRegistered reads path with the loader of the registered format f;
// ok is false when f is not a registered format.
func loadRegistered(path, f string) (df dataframe.DataFrame, ok bool, err error) {
	formatsMu.RLock()
	r := formats[f]
	formatsMu.RUnlock()
	switch {
	case r == nil:
		return dataframe.DataFrame{}, false, nil
	case r.load == nil:
		return dataframe.DataFrame{}, true, &FormatNotLinkedError{Format: f, File: filepath.Base(path), Package: r.pkg}
	}
	df, err = r.load(path)
	return df, true, err
}

// FormatNotLinkedError reports a file of a format whose reader lives in a
// package the program does not import (Parquet's, to keep its dependencies
// out of programs that do not read Parquet).
type FormatNotLinkedError struct {
	Format  string // "parquet"
	File    string // the file's name
	Package string // the package that reads the format
}

func (e *FormatNotLinkedError) Error() string {
	return fmt.Sprintf("frames: %s is a %s file, and this program does not read %s: import _ %q (the credlab command does)",
		e.File, e.Format, e.Format, e.Package)
}
