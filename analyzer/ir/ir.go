// Package ir is the intermediate representation soacgen fuses: a
// let-normalised view of one Go function in which every call of a
// runtime/soac combinator is its own statement binding one variable, every
// other statement carries a summary of what it reads and writes, and
// compound statements (if, switch, loops, closures, lambda bodies) hold
// nested blocks.
//
// The IR is built by package analyzer/build from type-checked Go syntax and
// consumed by package analyzer/fusion. It imports nothing from soacgen: it
// only describes, it decides nothing. Derived data (the dependency graph) is
// not stored here; see Graph, which is rebuilt from a Function on demand.
//
// Invariants, checked by Verify:
//   - every SOAC input is a *Var, never an arbitrary expression: nested calls
//     and non-variable array arguments are hoisted into earlier statements
//     in evaluation order;
//   - each *Var is defined once (by one statement, or as a parameter or free
//     variable of the function); a Go variable that is assigned several times
//     has one *Var per assignment, all sharing its types.Object;
//   - every statement belongs to exactly one Block, and Block.Parent links
//     each nested block to the statement that owns it.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the IR types:
// Function, Block, statements (SOAC, Plain, If, Switch, Loop, Closure),
// the canonical Screma node plus Filter, Stream, Iota, Replicate; Effects
// of every statement; alias classes; Verify.
package ir

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Program is the IR of every function of one package that calls
// runtime/soac, in source order.
type Program struct {
	Fset  *token.FileSet
	Pkg   *types.Package
	Funcs []*Function
	// Problems are malformed or misplaced //soac: directives found while
	// building, sorted by position. The builder reports nothing; the vet
	// analyzer reports these.
	Problems []Problem
}

// Problem is a malformed or misplaced directive, with the position of its
// comment and a sentence saying what is wrong.
type Problem struct {
	Pos token.Pos
	Msg string
	// Untyped reports that the problem is not a malformed directive but a
	// function left out because its type information is incomplete (the
	// package has type errors).
	Untyped bool
}

// Function is the IR of one top-level Go function (or method) that calls
// runtime/soac. Function literals inside it are not separate Functions: a
// literal passed to a SOAC is a Lambda with its own Body, and any other
// literal is a Closure statement.
type Function struct {
	Name string        // the Go name of the function
	Decl *ast.FuncDecl // its declaration
	Obj  *types.Func   // its object
	// Fuse is the //soac:fuse directive this Function is generated
	// for, nil if the function is not a spec: the first of Fuses in
	// Program.Funcs, another in the Functions Directed returns.
	Fuse *Directive
	// Fuses are every //soac:fuse directive of the spec, in the order of
	// its doc comment; each generates its own function.
	Fuses  []*Directive
	Params []*Var // parameters and named results, in order
	Body   *Block // the function body
	Vars   []*Var // every Var of the function, indexed by Var.ID
	// Unsupported lists SOAC calls that the builder recognised but could not
	// put into the IR (for example a SOAC called through a function value, or
	// one evaluated conditionally inside && or ||). They stay as they are,
	// unfused, inside the statement that contains them.
	Unsupported []Unsupported
	// Alias records which Vars may share memory (see MayAlias).
	Alias Aliases
	// Info is the type information of the function's package, for a
	// consumer that must know what an identifier in the syntax denotes
	// (a builtin or a user's object of the same name); nil for IR built
	// without types, where such a consumer assumes the worst.
	Info *types.Info
}

// Directed returns one Function per directive of the spec fn, in
// directive order (nil when fn is not a spec): fn itself for the first
// (fn.Fuse), and for each later one a shallow copy of fn whose Fuse is
// that directive. The copies share fn's IR (Body, Vars, Alias, ...):
// the fusion engine and the generator read it and never change it, so
// each directive gets its own plan (its cluster= may differ) and its own
// generated function from one build of the spec. Each call makes new
// copies: what is kept per directive across calls (a plan) is keyed by
// the directive (Fuse), not by the Function.
func (fn *Function) Directed() []*Function {
	if fn.Fuse == nil {
		return nil
	}
	out := []*Function{fn}
	for _, d := range fn.Fuses {
		if d == fn.Fuse {
			continue
		}
		c := *fn
		c.Fuse = d
		out = append(out, &c)
	}
	return out
}

// The backends a directive's backend= and soacgen's -backend flag name
// (docs/contract.md). Backends lists them: the one list of backend names
// the directive parser, the report, the command and the generator's
// chain (package rewrite/backend) read.
const (
	BackendCPU      = "cpu"
	BackendParallel = "parallel"
	BackendOpenCL   = "opencl"
	BackendAuto     = "auto"
)

// Backends are the backend names, in the order the documentation lists
// them.
var Backends = []string{BackendCPU, BackendParallel, BackendOpenCL, BackendAuto}

// Directive is a parsed //soac:fuse comment.
type Directive struct {
	Name    string    // the name of the function to generate
	Backend string    // one of Backends, or "" when the directive names none
	Cluster string    // "greedy", "ilp", "wsp", or "" when the directive names none
	Pos     token.Pos // position of the comment
}

// Unsupported records a SOAC call the IR does not model, with the reason.
type Unsupported struct {
	Call   *ast.CallExpr // nil when a combinator is used as a value
	Reason string
	// Expr is the expression as written: Call itself, or the reference to
	// the combinator (soac.Map, soac.Map[int, int]) when it is used as a
	// value rather than called. Expr.Pos() is where to report it.
	Expr ast.Expr
}

// Var is one definition of a value: a parameter, a free variable of the
// function (package-level variables, and for a lambda body the enclosing
// function's variables), a SOAC result, a temporary introduced by
// let-normalisation, or one assignment to a Go variable.
type Var struct {
	ID   int
	Name string       // the Go name, or a "_soacN" name for temporaries
	Obj  types.Object // the Go variable; nil for temporaries
	Type types.Type
	// Def is the statement that defines this Var; nil for parameters,
	// package-level variables and variables defined outside the block tree
	// being analysed.
	Def Stmt
	Pos token.Pos
	// Global reports whether the Var is a package-level variable (or may
	// point into memory reachable from one).
	Global bool
}

// Block is a sequence of statements that execute in order.
type Block struct {
	Stmts []Stmt
	// Parent is the statement that owns this block (an *If, *Switch, *Loop,
	// *Closure, or the *SOAC whose lambda body it is); nil for a function
	// body.
	Parent Stmt
}

// Stmt is a statement of the IR. The set of statement types is closed:
// *SOAC, *Plain, *If, *Switch, *Loop and *Closure.
type Stmt interface {
	// Pos is the position of the statement (for a SOAC, of its call).
	Pos() token.Pos
	// Effects summarises what executing the statement once may read, define
	// and write, including everything inside its nested blocks.
	Effects() *Effects
	// Block is the block that contains the statement.
	Block() *Block
	isStmt()
}

// Effects summarises the observable behaviour of a statement for the
// legality checks of fusion. It is conservative: a may-write is recorded
// wherever a write cannot be ruled out.
type Effects struct {
	// Uses are the Vars the statement reads (its operands, the captured
	// variables of its closures, the variables of nested blocks that are
	// defined outside them).
	Uses []*Var
	// Defs are the Vars the statement defines: assignments to Go variables
	// (a new Var per assignment) and the results of SOACs.
	Defs []*Var
	// Writes are the Vars whose pointed-to memory (slice elements, struct
	// fields through a pointer, map entries) the statement may write: the
	// target of an index assignment, of copy, clear or append into shared
	// capacity, and slices passed to calls that may write them. Any Var that
	// may alias one of these (Function.MayAlias) may see the write.
	Writes []*Var
	// WritesGlobal reports whether the statement may write memory reachable
	// from package-level variables or from escaped values (for example by
	// calling a function that is not known to be pure).
	WritesGlobal bool
	// Impure is empty when the statement has no effect beyond Defs and
	// Writes; otherwise it says why (I/O, a channel operation, a call of a
	// function with side effects, ...) and ImpurePos says where.
	Impure    string
	ImpurePos token.Pos
	// Exits reports whether control may leave the statement other than by
	// falling through to the next statement: return, break or continue to an
	// enclosing statement, goto, panic, or a call that never returns.
	Exits bool
	// Flows are the Vars whose values leave the statement in the variables
	// it merges: the last value a branch gives a variable, or the value a
	// path through it leaves unchanged, which the Var the statement
	// defines after itself takes (an if, a switch, a lambda or closure
	// assigning a capture), and the value a loop's body leaves in a
	// variable, which the next iteration's entry Var and the Var after
	// the loop take (when the body may break or continue, every value the
	// variable has inside). They are read where the statement ends:
	// whoever computes one must store it in its Go variable.
	Flows []*Var
}

// A SOAC is a call of a runtime/soac combinator, bound to Out.
type SOAC struct {
	ID   int
	Op   Op            // the canonical form of the call
	Call *ast.CallExpr // the call as written
	// Site, when not nil, is the call of a local closure whose literal only
	// returns Call, seen through: the SOAC runs there, the literal's
	// parameters being the call's arguments (its inputs are theirs). The
	// generated code replaces Site; nil when the SOAC is Call itself.
	Site *ast.CallExpr
	// Name is the combinator as written: "Map", "Map2", "Reduce", ...
	Name string
	// TypeArgs are the instantiated type arguments, from the type checker.
	TypeArgs []types.Type
	Out      *Var // the result (an array, or a scalar for Reduce and StreamRed)
	Eff      Effects
	Parent   *Block
}

// Op is the canonical form of a SOAC. The set of Op types is closed:
// *Screma, *Filter, *Stream, *Iota and *Replicate.
type Op interface{ isOp() }

// Screma is the canonical node of the map/reduce/scan family (Futhark's
// Screma): it maps Map over the elements of Inputs (all of one length) and
// then, optionally, scans or reduces the mapped values.
//
//	Map(xs, f)           = Screma{Inputs: [xs], Map: f}
//	Map2(xs, ys, f)      = Screma{Inputs: [xs, ys], Map: f}
//	Reduce(xs, ne, op)   = Screma{Inputs: [xs], Reduce: &Operator{op, ne}}
//	Scan(xs, ne, op)     = Screma{Inputs: [xs], Scan: &Operator{op, ne}}
//
// Exactly one of Map, Scan and Reduce is non-nil for a Screma that comes
// from one source call; fused forms (redomap, scanomap) are built by the
// fusion engine as kernels, not by rewriting Screma values.
type Screma struct {
	Inputs []*Var
	Map    *Lambda   // nil: the identity
	Scan   *Operator // nil: no scan
	Reduce *Operator // nil: no reduction
}

// Operator is an associative binary operator with its neutral element.
type Operator struct {
	Op      *Lambda
	Neutral *Operand
}

// Filter keeps the elements of Input for which Pred holds.
type Filter struct {
	Input *Var
	Pred  *Lambda
}

// StreamKind says which streaming SOAC a Stream is.
type StreamKind int

// The streaming SOACs.
const (
	StreamMap StreamKind = iota // chunk function returns a chunk of the output
	StreamRed                   // chunk function returns a partial result combined with Op
)

// Stream is StreamMap or StreamRed over Input.
type Stream struct {
	Kind  StreamKind
	Input *Var
	Chunk *Lambda // f(chunk)
	Op    *Lambda // the combining operator of StreamRed; nil for StreamMap
}

// Iota is [0, 1, ..., N-1].
type Iota struct{ N *Operand }

// Replicate is N copies of Value.
type Replicate struct{ N, Value *Operand }

func (*Screma) isOp()    {}
func (*Filter) isOp()    {}
func (*Stream) isOp()    {}
func (*Iota) isOp()      {}
func (*Replicate) isOp() {}

// Operand is a scalar argument of a SOAC (a neutral element, a length, a
// replicated value): a Go expression evaluated once, at the SOAC's position.
// Nested SOAC calls inside it are hoisted, so Expr calls no combinator.
type Operand struct {
	Expr ast.Expr
	Uses []*Var // the Vars the expression reads
	// Len is non-nil when Expr is len(v) of a slice variable: the operand is
	// the length of Len. It lets the fusion engine prove Iota(len(xs)) has the
	// iteration space of xs.
	Len *Var
	// Const is the value of Expr if it is a constant, else nil.
	Const *types.TypeAndValue
}

// LambdaKind says how a SOAC's function argument is written.
type LambdaKind int

// The ways of writing a lambda.
const (
	FuncLit     LambdaKind = iota // func(x T) U { ... }
	NamedFunc                     // a top-level function of any package: math.Sqrt, square
	MethodValue                   // a bound method value: box.Has
	FuncValue                     // a variable holding a function, not resolved to a literal
	OtherFunc                     // any other expression of function type (a call returning a func, ...)
)

// Lambda is the function argument of a SOAC.
type Lambda struct {
	Kind LambdaKind
	Expr ast.Expr // as written
	// Lit is the function literal: Expr itself when Kind is FuncLit, or the
	// literal a local variable was bound to once and never reassigned.
	Lit  *ast.FuncLit
	Func *types.Func // the function or method, for NamedFunc and MethodValue
	// Recv is the receiver of a MethodValue, evaluated when the SOAC is.
	Recv *Operand
	Sig  *types.Signature
	// Free are the variables of the enclosing function that the lambda reads
	// (its captures), as the Vars reaching the SOAC. For a FuncValue or a
	// MethodValue they include the function variable or receiver itself.
	Free []*Var
	// Body is the IR of Lit's body, with its own nested SOACs; nil when Lit
	// is nil. Its Block.Parent is the SOAC this lambda belongs to.
	Body *Block
	// Params are the Vars of Lit's parameters inside Body.
	Params []*Var
	// Purity is the verdict on the lambda's side effects.
	Purity Purity
}

// Purity is a verdict on a function's side effects.
type Purity struct {
	// Pure reports whether calling the function has no effect other than
	// computing its results (it may allocate, read any memory, and write
	// memory it allocated itself).
	Pure bool
	// Reason says why the function is not pure, naming the construct
	// ("writes captured variable sum", "calls fmt.Println (I/O)"); empty
	// when Pure.
	Reason string
	// Pos is where the impure construct is.
	Pos token.Pos
	// MayPanic reports whether the function may panic on some input
	// (indexing, division, conversion, nil dereference, calls that may
	// panic). A pure function that cannot panic may be evaluated
	// speculatively, which lets a filter become a select.
	MayPanic bool
}

// Plain is any statement other than a SOAC binding or a compound statement:
// assignments, declarations, increments, expression statements, returns,
// go/defer, sends, branch statements.
type Plain struct {
	Node ast.Stmt
	// Hoisted is non-nil when the statement evaluates only this
	// subexpression of Node, ahead of the rest of Node, and binds it to the
	// temporary it defines (Eff.Defs[0], named "_tmpN"): a non-variable
	// array argument of a SOAC (xs[1:], p.Items, f()), or a call that Go
	// evaluates before a SOAC call of the same statement. The Plain whose
	// Hoisted is nil and whose Node is the same statement comes later and
	// evaluates the rest.
	Hoisted ast.Expr
	Eff     Effects
	// Parent is the containing block.
	Parent *Block
}

// If is an if statement. Its Init (if any) is the last statement of the
// enclosing block before it; Cond's effects are part of Eff.
type If struct {
	Node       *ast.IfStmt
	Then, Else *Block // Else is nil when there is no else branch; an else-if is an Else block holding one *If
	Eff        Effects
	// Own are the effects of Cond alone, as the builder recorded them before
	// adding those of the branches to Eff: they cannot be told apart
	// afterwards (one impurity reason, one WritesGlobal flag for both).
	Own    Effects
	Parent *Block
}

// Switch is an expression or type switch, or a select statement; each case
// clause is a block. Exhaustive reports whether some clause always runs (the
// switch has a default clause).
type Switch struct {
	Node       ast.Stmt
	Cases      []*Block
	Exhaustive bool
	Eff        Effects
	// Own are the effects of the switch's own expressions (tag, case
	// expressions, select communications, type switch bindings) alone, as
	// the builder recorded them before adding those of the cases to Eff.
	Own    Effects
	Parent *Block
}

// Loop is a for or range loop. Its body may run any number of times,
// including zero: nothing outside it fuses into it.
type Loop struct {
	Node   ast.Stmt
	Body   *Block
	Eff    Effects
	Parent *Block
}

// Closure is a function literal that is not a SOAC's lambda (assigned to a
// variable, deferred, passed to another function). Its body may run any
// number of times, at any later point: nothing outside it fuses into it. The
// Plain statement that contains the literal follows the Closure in its block.
type Closure struct {
	Lit    *ast.FuncLit
	Body   *Block
	Eff    Effects
	Parent *Block
}

// Source returns the expression whose value the SOAC is: Site, or Call.
func (s *SOAC) Source() *ast.CallExpr {
	if s.Site != nil {
		return s.Site
	}
	return s.Call
}

// Pos implements Stmt.
func (s *SOAC) Pos() token.Pos    { return s.Source().Pos() }
func (s *Plain) Pos() token.Pos   { return s.Node.Pos() }
func (s *If) Pos() token.Pos      { return s.Node.Pos() }
func (s *Switch) Pos() token.Pos  { return s.Node.Pos() }
func (s *Loop) Pos() token.Pos    { return s.Node.Pos() }
func (s *Closure) Pos() token.Pos { return s.Lit.Pos() }

// Effects implements Stmt.
func (s *SOAC) Effects() *Effects    { return &s.Eff }
func (s *Plain) Effects() *Effects   { return &s.Eff }
func (s *If) Effects() *Effects      { return &s.Eff }
func (s *Switch) Effects() *Effects  { return &s.Eff }
func (s *Loop) Effects() *Effects    { return &s.Eff }
func (s *Closure) Effects() *Effects { return &s.Eff }

// Block implements Stmt.
func (s *SOAC) Block() *Block    { return s.Parent }
func (s *Plain) Block() *Block   { return s.Parent }
func (s *If) Block() *Block      { return s.Parent }
func (s *Switch) Block() *Block  { return s.Parent }
func (s *Loop) Block() *Block    { return s.Parent }
func (s *Closure) Block() *Block { return s.Parent }

func (*SOAC) isStmt()    {}
func (*Plain) isStmt()   {}
func (*If) isStmt()      {}
func (*Switch) isStmt()  {}
func (*Loop) isStmt()    {}
func (*Closure) isStmt() {}
