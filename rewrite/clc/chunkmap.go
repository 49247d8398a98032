package clc

// This file translates the chunk function of a StreamMap whose result is
// a row it allocates itself, of its chunk's length:
//
//	func(chunk []T) []E {
//		row := make([]E, len(chunk))
//		... row[i] = v ...
//		return row
//	}
//
// as Chunk does a StreamRed's, except that the row's length may be any
// expression: the room the caller passes is the chunk's part of the
// output, and the make checks its length against the room on the
// device (a row of another length sets the panic flag, and the CPU code
// then raises the spec's panic).

import (
	"go/ast"
	"go/types"
)

// ChunkMap translates lit, the chunk function of a StreamMap that
// returns the row it makes, typed by info. The function's Result is a
// slice written through the out view the caller passes (the chunk's
// part of the output, of the chunk's length); a make of another length
// sets the panic flag (a makeslice site).
func (u *Unit) ChunkMap(lit *ast.FuncLit, info *types.Info) (*Func, error) {
	fn, _, err := u.chunk(lit, info, false, nil)
	return fn, err
}

// ChunkMapDeclared is ChunkMap for the chunk function fn, a function
// declared in a package whose syntax the Unit's resolver has (not a
// method, not generic).
func (u *Unit) ChunkMapDeclared(fn *types.Func) (*Func, error) {
	if fn.Signature().Recv() != nil || fn.Signature().TypeParams().Len() > 0 || fn.Origin() != fn {
		return nil, u.refuse(fn.Pos(), "chunk function "+fn.FullName(), "methods and generic functions are not translated as chunk functions")
	}
	decl, info := u.resolve(fn)
	if decl == nil || decl.Body == nil {
		return nil, u.refuse(fn.Pos(), "chunk function "+fn.FullName(), "its source is not available to translate (not declared in a package loaded with syntax)")
	}
	f, _, err := u.chunk(&ast.FuncLit{Type: decl.Type, Body: decl.Body}, info, false, fn)
	return f, err
}
