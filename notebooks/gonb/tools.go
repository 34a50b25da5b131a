//go:build tools

// Package gonb pins the GoNB Jupyter kernel ("Go (GoNB)") and goimports,
// which GoNB runs on every cell; notebooks/setup and docker/Dockerfile build
// both. A module of its own, like notebooks/kernel, so that the kernels'
// dependencies stay out of the library's go.mod.
package gonb

import (
	_ "github.com/janpfeifer/gonb"
	_ "github.com/janpfeifer/gonb/gonbui"
	_ "golang.org/x/tools/cmd/goimports"
)
