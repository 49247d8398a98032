package fusiongraph

// This file renders DOT as SVG with Graphviz's dot command. It does not
// build or print graphs.

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// ErrNoGraphviz is returned by SVG when Graphviz's dot command is not on
// the PATH (Debian and Ubuntu: apt-get install graphviz).
var ErrNoGraphviz = errors.New("graphviz's dot command is not on the PATH (install graphviz)")

// HaveGraphviz reports whether Graphviz's dot command is on the PATH.
func HaveGraphviz() bool {
	_, err := exec.LookPath("dot")
	return err == nil
}

// SVG renders the DOT text src as an SVG document with dot -Tsvg. An
// error carries dot's own message.
func SVG(src []byte) ([]byte, error) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		return nil, ErrNoGraphviz
	}
	cmd := exec.Command(dot, "-Tsvg")
	cmd.Stdin = bytes.NewReader(src)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("dot -Tsvg: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out.Bytes(), nil
}
