package papers

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readCSV returns the records of the CSV file at path.
func readCSV(t *testing.T, path string) [][]string {
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

// checkReport reports an error for each string of want that the file at
// path lacks.
func checkReport(t *testing.T, path string, want ...string) {
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
