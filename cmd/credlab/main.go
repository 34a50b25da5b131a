// Command credlab runs credlab's estimators from the shell.
//
//	credlab demo [-n N] [-seed S]        compare the solvers on synthetic data
//	credlab reproduce cred|sgm|distreg|nytro -data DIR -out DIR [-quick]
//	credlab help
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
)

// usageError marks wrong usage (exit status 2); other errors exit 1.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	var ue usageError
	switch {
	case err == nil:
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "credlab:", err)
		os.Exit(2)
	case errors.Is(err, flag.ErrHelp):
	default:
		fmt.Fprintln(os.Stderr, "credlab:", err)
		os.Exit(1)
	}
}

const usage = `credlab: kernel least-squares regression that chooses which data to label.

Usage:
  credlab demo [flags]                      fit every solver on synthetic data and print a table
  credlab reproduce cred|sgm|distreg|nytro -data DIR -out DIR [-quick]
                                            regenerate a paper's figures and tables (docs/reproductions.md)
  credlab help                              this text; 'credlab CMD -h' describes CMD's flags
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{"no command given"}
	}
	switch args[0] {
	case "demo":
		return demo(ctx, args[1:], stdout, stderr)
	case "reproduce":
		return reproduce(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return usageError{fmt.Sprintf("unknown command %q", args[0])}
}

// parse parses flags, turning flag errors into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("%s: unexpected argument %q", fs.Name(), fs.Arg(0))}
	}
	return nil
}
