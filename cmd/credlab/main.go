// Command credlab runs credlab's estimators from the shell. It is a thin
// layer over the frames and viz packages: flags, files and formatting.
//
//	credlab demo [-out DIR]              CRED against uniform labeling, NYTRO against KRLS, on synthetic data
//	credlab select -pool FILE.csv -budget N -method cred|uniform -seed S -out FILE.csv
//	credlab fit -data FILE.csv -target COL -method krls|kols|gd|nkrls|nytro|sgm -out MODEL.json
//	credlab predict -model MODEL.json -data FILE.csv -out FILE.csv
//	credlab sweep -data FILE.csv -target COL -method M -out FILE.csv [-svg FILE.svg]
//	credlab reproduce cred|sgm|distreg|nytro -data DIR -out DIR [-quick]
//	credlab help
//
// Exit status: 0 on success, 2 for wrong usage (a bad or missing flag, an
// unknown method or column), 1 for bad data or a failed fit, 130 when
// interrupted (SIGINT), with no output file written.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"
)

// usageError marks wrong usage (exit status 2); other errors exit 1.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// interruptGrace is how long an interrupt waits for the work to stop.
const interruptGrace = 2 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	go func() {
		// Work that watches ctx stops within interruptGrace of the first
		// SIGINT; work that cannot (reading a file) is abandoned then,
		// its temporary outputs removed. A second SIGINT kills the process.
		<-ctx.Done()
		stop()
		time.Sleep(interruptGrace)
		pending.removeAll()
		exit(context.Canceled)
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if ctx.Err() != nil && err != nil {
		err = context.Canceled
	}
	exit(err)
}

var exitOnce sync.Once

// exit reports err and ends the process, once: the interrupt's deadline
// and the end of the work may race.
func exit(err error) {
	exitOnce.Do(func() { os.Exit(exitCode(err, os.Stderr)) })
}

// exitCode reports err on w and returns the exit status (see explain).
func exitCode(err error, w io.Writer) int {
	msg, code := explain(err)
	if msg != "" {
		fmt.Fprintln(w, "credlab:", msg)
	}
	return code
}

const usage = `credlab: kernel least-squares regression that chooses which data to label.

Usage:
  credlab demo [-out DIR]
        CRED against uniform labeling at several noise levels, and NYTRO model
        selection against KRLS, on synthetic data; prints tables and writes
        DIR/report.html (default ./credlab-demo)
  credlab select -pool FILE -budget N -method cred|uniform -seed S -target COL -out FILE.csv
        choose N rows of a pool to label; adds the columns row, prob and weight
        (and pool_weight after a batch method or greedy), and an empty COL to fill in
  credlab budget -pool FILE.csv -out DIR [-pilot FILE.csv -target COL]
        before labeling: effective dimension, how uneven the leverage scores are,
        CRED's variance gain, and learning curves projected from a pilot batch
  credlab simulate -data FILE -target COL -out DIR [-budgets 64,128,256]
        on a fully labeled table: hide the labels and run the batch labeling loop
        for every selection method; learning curves and test RMSE against
        uniform labeling
  credlab fit -data FILE.csv -target COL -method krls|kols|gd|nkrls|nytro|sgm|... -out MODEL.json
        fit a model, choosing its parameter on a hold-out split; a file written
        by select is fitted with its weight column
  credlab predict -model MODEL.json -data FILE.csv -out FILE.csv
        append a prediction column
  credlab sweep -data FILE.csv -target COL -method M -out FILE.csv [-svg FILE.svg]
        validation error over a grid of parameters, and its plot
  credlab label -in CHOSEN.csv -from FULL -target COL -out LABELED.csv
        fill the chosen rows' target from a labeled copy of the pool (stands in
        for a person labeling them)
  credlab reproduce cred|sgm|distreg|nytro -data DIR -out DIR [-quick]
        regenerate a paper's figures and tables (docs/reproductions.md)
  credlab version
        the version, Go toolchain, model file format and BLAS backend (also --version)
  credlab help [CMD]
        this text, or CMD's flags; 'credlab CMD -h' also describes CMD's flags

Exit status: 0 on success, 2 for wrong usage, 1 for bad data or a failed fit,
130 when interrupted.
Data files are CSV, TSV, ARFF, LIBSVM, IDX or Parquet, by name or -format; .gz is
decompressed. Progress and a final summary go to stderr (-quiet: neither).
Output files are written to a temporary name and renamed when complete; the
-out of select, label, predict and sweep is Parquet when its name ends in
.parquet, CSV otherwise.
`

// commands maps each subcommand to its function.
var commands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) error{
	"demo":      demo,
	"select":    selectCmd,
	"budget":    budgetCmd,
	"simulate":  simulateCmd,
	"fit":       fitCmd,
	"predict":   predictCmd,
	"sweep":     sweepCmd,
	"label":     labelCmd,
	"reproduce": reproduce,
	"version":   versionCmd,
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{"no command given"}
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				err := c(ctx, []string{"-h"}, stdout, stdout)
				if errors.Is(err, flag.ErrHelp) {
					return nil
				}
				return err
			}
			return usagef("help: unknown command %q", args[1])
		}
		fmt.Fprint(stdout, usage)
		return nil
	case "-version", "--version":
		return versionCmd(ctx, args[1:], stdout, stderr)
	}
	if c, ok := commands[args[0]]; ok {
		return c(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, usage)
	return usagef("unknown command %q", args[0])
}

// newFlags returns a flag set whose usage text lists every flag with its
// default.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: credlab %s\n\nflags:\n", synopsis)
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output(), "\nFlags without a shown default are off, empty or 0.")
	}
	return fs
}

// parse parses flags, turning flag errors into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{fs.Name() + ": " + err.Error()}
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

// required checks that the named string flags are set.
func required(fs *flag.FlagSet, names ...string) error {
	for _, n := range names {
		if f := fs.Lookup(n); f != nil && f.Value.String() == "" {
			return usagef("%s: flag -%s is required", fs.Name(), n)
		}
	}
	return nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
