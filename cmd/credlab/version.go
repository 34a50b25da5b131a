package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
)

// versionCmd prints the module version (and VCS revision when the build
// recorded one), the Go toolchain, the platform, the model file format and
// the BLAS backend.
func versionCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", "version", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, versionLine())
	return nil
}

func versionLine() string {
	v, rev := "(devel)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = " " + s.Value[:12]
			}
		}
	}
	return fmt.Sprintf("credlab %s%s (%s %s/%s, model format %s, BLAS %s)", v, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH,
		frames.FormatVersion, credlab.BLASBackend)
}
