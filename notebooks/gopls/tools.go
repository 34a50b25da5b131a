//go:build tools

// Package gopls pins gopls, the Go language server that the GoNB kernel
// uses for Tab completion and for the documentation shown on Shift+Tab.
// It is a module of its own so that gopls' golang.org/x/tools stays apart
// from the one GoNB and gophernotes are built with; the lab image builds it
// with its Go 1.24.13 (docker/Dockerfile), notebooks/setup outside it.
package gopls

import _ "golang.org/x/tools/gopls"
