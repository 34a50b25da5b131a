package papertest

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadCSV returns the records of the CSV file at path.
func ReadCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// CheckReport reports an error for each string of want that the file at
// path lacks.
func CheckReport(t *testing.T, path string, want ...string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range want {
		if !strings.Contains(string(b), s) {
			t.Errorf("%s lacks %q", filepath.Base(path), s)
		}
	}
}

// Near reports whether a and b agree to 12 digits (absolutely, for b
// below 1).
func Near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
