//go:build tools

// Package kernel pins the gophernotes Jupyter kernel that runs credlab's
// notebooks; notebooks/setup builds it. It is a module of its own so that
// the kernel's dependencies stay out of the library's go.mod.
package kernel

import _ "github.com/gopherdata/gophernotes"
