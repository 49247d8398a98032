// Package unfused runs soacgen: fixes add no //go:generate line.
package unfused

//go:generate go run github.com/soacgen/soacgen/cmd/soacgen
