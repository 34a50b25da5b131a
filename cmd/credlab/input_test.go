package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeFile writes a test input file in dir.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// table returns a CSV of n rows with columns a, b and y = a + b^2, with
// extra cells appended to each line from extra (nil: none).
func csvTable(n int, header string, extra func(i int) string) string {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := 0; i < n; i++ {
		a, c := rng.Float64(), rng.Float64()
		fmt.Fprintf(&b, "%g,%g,%g", a, c, a+c*c)
		if extra != nil {
			b.WriteString("," + extra(i))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestBadInputTable runs each bad input of a table through the command:
// every bad input gets its exit status and a message naming the place and
// the flag that changes it.
func TestBadInputTable(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	good := csvTable(40, "a,b,y", nil)
	withCell := func(cell string) string {
		lines := strings.Split(good, "\n")
		f := strings.Split(lines[4], ",")
		f[1] = cell
		lines[4] = strings.Join(f, ",")
		return strings.Join(lines, "\n")
	}
	abc := writeFile(t, dir, "abc.csv", withCell("abc"))
	huge := writeFile(t, dir, "huge.csv", withCell("1e999"))
	inf := writeFile(t, dir, "inf.csv", withCell("Inf"))
	nan := writeFile(t, dir, "nan.csv", withCell("NaN"))
	city := writeFile(t, dir, "city.csv", csvTable(40, "a,b,y,city", func(i int) string { return []string{"x", "y", "z"}[i%3] }))
	bom := writeFile(t, dir, "bom.csv", "\ufeff"+good)
	dup := writeFile(t, dir, "dup.csv", strings.Replace(good, "a,b,y", "a,a,y", 1))
	empty := writeFile(t, dir, "empty.csv", strings.Replace(good, "a,b,y", "a,,y", 1))
	nul := writeFile(t, dir, "nul.csv", "a\x00\x00,b\n1,2\n")
	noext := writeFile(t, dir, "data.txt", good)
	blanks := writeFile(t, dir, "data.dat", strings.ReplaceAll(good, ",", " \t "))
	nanPredict := writeFile(t, dir, "nanp.csv", "x1,x2\n1,2\n3,NA\n")
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "-data", "testdata/train.csv", "-target", "y", "-out", model, "-quiet")
	fit := func(data string, more ...string) []string {
		return append([]string{"fit", "-data", data, "-target", "y", "-out", out, "-method", "krls", "-lambda", "1e-3", "-validation", "0"}, more...)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"abc in a numeric column", fit(abc), 1, []string{`abc.csv:5:2: column "b", row 3: "abc"`, "-bad-as-missing"}},
		{"1e999 in a numeric column", fit(huge), 1, []string{`column "b", row 3: "1e999"`}},
		{"bad cells as missing", fit(abc, "-bad-as-missing"), 1, []string{`column "b" (1 of 40 rows)`, "row 3", "-dropna"}},
		{"bad cells as missing, dropped", fit(abc, "-bad-as-missing", "-dropna"), 0, []string{"fit: krls on 39 rows"}},
		{"Inf with its row", fit(inf), 1, []string{`"b"`, "+Inf in row 3"}},
		{"NaN is missing", fit(nan), 1, []string{`column "b"`, "row 3", "-dropna"}},
		{"string column", fit(city), 1, []string{`"city"`, "-onehot", "-exclude city"}},
		{"string column encoded", fit(city, "-onehot"), 0, nil},
		{"string column excluded", fit(city, "-exclude", "city"), 0, nil},
		{"string column, simulate", []string{"simulate", "-data", city, "-target", "y", "-budgets", "10,20", "-methods", "uniform", "-quiet", "-out", out}, 1, []string{`"city"`, "-onehot"}},
		{"string column encoded, simulate", []string{"simulate", "-data", city, "-target", "y", "-budgets", "10,20", "-methods", "uniform", "-quiet", "-onehot", "-out", out}, 0, nil},
		{"BOM stripped", fit(bom, "-columns", "a,b"), 0, nil},
		{"duplicated names", fit(dup), 1, []string{"dup.csv:1:2", `"a" appears twice`}},
		{"empty name", fit(empty), 1, []string{"empty.csv:1:2", "empty column name"}},
		{"NUL in the header", []string{"select", "-pool", nul, "-budget", "2", "-out", out}, 1, []string{"nul.csv:1:1", "control characters"}},
		{"format unknown", fit(noext), 2, []string{"-format"}},
		{"format given", fit(noext, "-format", "csv"), 0, nil},
		{"bad format", fit(noext, "-format", "xls"), 2, []string{"flag -format"}},
		{"fields separated by blanks", fit(blanks, "-whitespace"), 0, []string{"fit: krls on 40 rows"}},
		{"blanks read as commas", fit(blanks, "-format", "csv"), 1, []string{"data.dat"}},
		{"lambda range", fit(abc, "-lambda", "-1"), 2, []string{"flag -lambda -1: want a positive finite number, or 0"}},
		{"method", fit(bom, "-method", "svm"), 2, []string{`flag -method "svm": want "auto"`}},
		{"m beyond the rows", fit(bom, "-method", "nkrls", "-m", "500"), 2, []string{"flag -m 500: want 1 to 40"}},
		{"memory limit", fit(bom, "-method", "nkrls", "-m", "30", "-memory-limit", "12KiB"), 1, []string{"Nyström factor", "-memory-limit"}},
		{"memory limit flag", fit(bom, "-memory-limit", "lots"), 2, []string{"flag -memory-limit"}},
		{"select nystrom memory", []string{"select", "-pool", bom, "-budget", "5", "-features", "nystrom", "-m", "30", "-memory-limit", "4KiB", "-out", out}, 1, []string{"-memory-limit"}},
		{"flat scores", []string{"select", "-pool", bom, "-budget", "5", "-sigma", "1e-4", "-exclude", "y", "-out", out}, 0, []string{"scores are flat", "another -sigma", "credlab: warning: sigma 0.0001 (SelectSpec.Sigma, flag -sigma) is far below"}},
		{"flat scores, unstandardized", []string{"select", "-pool", bom, "-budget", "5", "-sigma", "1e-4", "-exclude", "y", "-standardize=false", "-out", out}, 0, []string{"scores are flat", "try standardize (-standardize), or a larger -lambda", "credlab: warning: sigma 0.0001 (SelectSpec.Sigma, flag -sigma) is far below"}},
		{"predict with missing values", []string{"predict", "-model", model, "-data", nanPredict, "-out", out}, 1, []string{`column "x2", data row 1 (0-based)`, ".csv:3:", "-missing skip"}},
		{"degenerate sigma in fit", fit(bom, "-sigma", "1000"), 0, []string{"warning: sigma 1000 (Spec.Sigma, flag -sigma) is far above the median distance"}},
		{"degenerate sigma in fit, in the JSON", fit(bom, "-sigma", "1000", "-json"), 0, []string{`"warnings": [`, `"sigma 1000 (Spec.Sigma, flag -sigma) is far above`}},
		{"degenerate sigma in select, quiet", []string{"select", "-pool", bom, "-budget", "5", "-sigma", "1e-4", "-exclude", "y", "-out", out, "-quiet"}, 0, []string{"credlab: warning: sigma 0.0001 (SelectSpec.Sigma, flag -sigma) is far below"}},
		{"degenerate sigma in budget, quiet", []string{"budget", "-pool", bom, "-exclude", "y", "-sigma", "1e-4", "-out", out, "-quiet"}, 0, []string{"credlab: warning: sigma 0.0001 (BudgetSpec.Sigma, flag -sigma) is far below"}},
		{"ARFF", []string{"fit", "-data", "testdata/tiny.arff", "-target", "y", "-out", out}, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.RemoveAll(out) // a file, or simulate's directory
			stdout, errs, code := runBin(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, c.code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(stdout+errs, w) {
					t.Errorf("output lacks %q:\n%s%s", w, stdout, errs)
				}
			}
			if _, err := os.Stat(out); (err == nil) != (c.code == 0) {
				t.Errorf("exit %d, output file present: %v", c.code, err == nil)
			}
		})
	}
}

// TestFitListsFeatures checks that the summary names the features used.
func TestFitListsFeatures(t *testing.T) {
	dir := t.TempDir()
	city := writeFile(t, dir, "city.csv", csvTable(30, "a,b,y,city", func(i int) string { return []string{"x", "y"}[i%2] }))
	stdout := mustRun(t, "fit", "-data", city, "-target", "y", "-onehot", "-out", filepath.Join(dir, "m.json"), "-quiet")
	if !strings.Contains(stdout, `features "a", "b", "city" (4 design columns`) {
		t.Errorf("fit output lacks the features:\n%s", stdout)
	}
}

// TestLabelingLoop runs select with -target, label, fit (weights found
// without -weight), predict on the pool and sweep with -m beyond the rows.
func TestLabelingLoop(t *testing.T) {
	dir := t.TempDir()
	pool := writeFile(t, dir, "pool.csv", csvTable(200, "a,b,y", nil))
	chosen, labeled := filepath.Join(dir, "chosen.csv"), filepath.Join(dir, "labeled.csv")
	_, errs, code := runBin(t, "select", "-pool", pool, "-target", "y", "-budget", "40", "-standardize", "-out", chosen)
	if code != 0 || strings.Contains(errs, "warning") {
		t.Fatalf("select: exit %d\n%s", code, errs)
	}
	head, recs := readCSV(t, chosen)
	if strings.Join(head, ",") != "a,b,y,row,prob,weight" || len(recs) != 40 || recs[0][2] != "" {
		t.Fatalf("chosen.csv: header %v, %d rows, first target %q; want an empty y", head, len(recs), recs[0][2])
	}
	// Fitting the unlabeled file says what is missing.
	_, errs, code = runBin(t, "fit", "-data", chosen, "-target", "y", "-out", filepath.Join(dir, "m.json"))
	if code != 1 || !strings.Contains(errs, `"y"`) {
		t.Errorf("fit on the unlabeled rows: exit %d\n%s", code, errs)
	}
	mustRun(t, "label", "-in", chosen, "-from", pool, "-target", "y", "-out", labeled)
	head, recs = readCSV(t, labeled)
	if recs[0][2] == "" {
		t.Fatal("label left y empty")
	}
	model := filepath.Join(dir, "model.json")
	_, errs, code = runBin(t, "fit", "-data", labeled, "-target", "y", "-standardize", "-out", model)
	if code != 0 || !strings.Contains(errs, `importance weights in column "weight"`) {
		t.Fatalf("fit: exit %d, want a note on the weights\n%s", code, errs)
	}
	mustRun(t, "predict", "-model", model, "-data", pool, "-out", filepath.Join(dir, "pred.csv"), "-quiet")
	_, errs, code = runBin(t, "sweep", "-data", labeled, "-target", "y", "-method", "nytro", "-m", "10,20,400", "-out", filepath.Join(dir, "sweep.csv"))
	if code != 0 || !strings.Contains(errs, "-m 400 exceeds the 32 training rows; using m = 32") {
		t.Fatalf("sweep: exit %d\n%s", code, errs)
	}
	// The batch loop: a uniform batch, then LCMD after it; the fit takes
	// the pool weights select wrote.
	first, next := filepath.Join(dir, "first.csv"), filepath.Join(dir, "next.csv")
	mustRun(t, "select", "-pool", pool, "-target", "y", "-budget", "30", "-method", "uniform", "-design", "without", "-out", chosen, "-quiet")
	mustRun(t, "label", "-in", chosen, "-from", pool, "-target", "y", "-out", first)
	mustRun(t, "select", "-pool", pool, "-labeled", first, "-target", "y", "-budget", "20", "-m", "40", "-out", chosen, "-quiet")
	if head, recs := readCSV(t, chosen); !slices.Contains(head, "pool_weight") || len(recs) != 50 {
		t.Fatalf("the batch after labels: header %v, %d rows; want pool_weight and 50 rows", head, len(recs))
	}
	mustRun(t, "label", "-in", chosen, "-from", pool, "-target", "y", "-out", next)
	_, errs, code = runBin(t, "fit", "-data", next, "-target", "y", "-out", model)
	if code != 0 || !strings.Contains(errs, `pool weights in column "pool_weight"`) {
		t.Fatalf("fit after a batch method: exit %d, want a note on the pool weights\n%s", code, errs)
	}
	// A row index outside the full file is an error, not a silent label.
	_, errs, code = runBin(t, "label", "-in", chosen, "-from", writeFile(t, dir, "short.csv", csvTable(5, "a,b,y", nil)), "-target", "y", "-out", filepath.Join(dir, "x.csv"))
	if code != 1 || !strings.Contains(errs, "not a row of the 5 rows") {
		t.Errorf("label with a short file: exit %d\n%s", code, errs)
	}
	// Nor are the rows of another pool, or of this one reordered: label
	// and select name the first row that differs, and write nothing.
	lines := strings.SplitAfter(csvTable(201, "a,b,y", nil), "\n")
	other := writeFile(t, dir, "other.csv", lines[0]+strings.Join(lines[2:], "")) // the pool's rows, shifted by one
	for _, args := range [][]string{
		{"label", "-in", chosen, "-from", other, "-target", "y", "-out", filepath.Join(dir, "x.csv")},
		{"select", "-pool", other, "-labeled", next, "-target", "y", "-budget", "5", "-out", filepath.Join(dir, "x.csv")},
	} {
		_, errs, code = runBin(t, args...)
		if _, err := os.Stat(filepath.Join(dir, "x.csv")); code != 1 || !strings.Contains(errs, "do not come from this pool") || err == nil {
			t.Errorf("%s with another pool: exit %d, x.csv written: %v\n%s", args[0], code, err == nil, errs)
		}
	}
}

// TestInterrupt sends SIGINT to a long fit: exit 130, no output file.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	big := writeFile(t, dir, "big.csv", csvTable(1500, "a,b,y", nil))
	// A named pipe nobody writes to: reading it never returns, as a huge
	// file or a slow disk would not in time.
	blocked := filepath.Join(dir, "blocked.csv")
	if err := syscall.Mkfifo(blocked, 0o644); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct{ name, data string }{
		{"during a fit", big},
		{"while reading the data", blocked},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "m.json")
			cmd := exec.Command(binary(t), "fit", "-data", c.data, "-target", "y", "-method", "gd", "-max-iter", "1000000", "-threshold", "-1", "-out", out)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond)
			cmd.Process.Signal(syscall.SIGINT)
			cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(errb.String(), "interrupted") {
				t.Errorf("exit %d, stderr %q; want 130", code, errb.String())
			}
			left, _ := filepath.Glob(filepath.Join(dir, "*m.json*"))
			if len(left) > 0 {
				t.Errorf("files left after SIGINT: %q", left)
			}
		})
	}
}

// TestProgressLines checks that progress reaches a non-terminal stderr as
// lines with the stage and the elapsed time, and that quiet silences it.
func TestProgressLines(t *testing.T) {
	defer func(d time.Duration) { logEvery = d }(logEvery)
	logEvery = 5 * time.Millisecond
	for _, quiet := range []bool{false, true} {
		var b bytes.Buffer
		p := newProgress(&b, quiet, 0)
		stop := p.ticker("fitting krls")
		time.Sleep(50 * time.Millisecond)
		stop()
		got := b.String()
		if quiet != (got == "") || (!quiet && !strings.HasPrefix(got, "credlab: fitting krls... ") || !quiet && !strings.Contains(got, "elapsed\n")) {
			t.Errorf("quiet %v: progress %q", quiet, got)
		}
	}
}

// TestWriteToPipe checks that an output that is a named pipe (as
// /dev/null or /dev/stdout are devices) is written, not replaced by a
// regular file.
func TestWriteToPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	model := filepath.Join(filepath.Dir(fifo), "m.json")
	mustRun(t, "fit", "-data", "testdata/train.csv", "-target", "y", "-out", model, "-quiet")
	mustRun(t, "predict", "-model", model, "-data", "testdata/test.csv", "-out", fifo, "-quiet")
	if text := <-got; !strings.HasPrefix(text, "x1,x2,y,prediction\n") {
		t.Errorf("pipe got %q", text)
	}
	if st, err := os.Stat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v", err)
	}
}

// TestMemoryLimitEnvironment checks that CREDLAB_MEMORY_LIMIT reaches the
// checks, and that the message says where the limit came from.
func TestMemoryLimitEnvironment(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvTable(40, "a,b,y", nil))
	cmd := exec.Command(binary(t), "fit", "-data", data, "-target", "y", "-method", "nkrls", "-m", "30", "-out", filepath.Join(dir, "m.json"))
	cmd.Env = append(os.Environ(), "CREDLAB_MEMORY_LIMIT=12KiB")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(errb.String(), "(the limit: CREDLAB_MEMORY_LIMIT)") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestPendingTempFiles checks that an interrupt that cannot wait removes
// the temporary outputs being written and that no rename or new temporary
// file follows it.
func TestPendingTempFiles(t *testing.T) {
	dir := t.TempDir()
	p := &tempFiles{files: map[string]bool{}}
	f, err := p.create(dir, ".out.tmp*")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	p.removeAll()
	if _, err := os.Stat(f.Name()); err == nil {
		t.Errorf("%s left after removeAll", f.Name())
	}
	if err := p.rename(context.Background(), f.Name(), filepath.Join(dir, "out")); !errors.Is(err, context.Canceled) {
		t.Errorf("rename after removeAll: %v, want context.Canceled", err)
	}
	if _, err := p.create(dir, ".out.tmp*"); !errors.Is(err, context.Canceled) {
		t.Errorf("create after removeAll: %v, want context.Canceled", err)
	}
}
