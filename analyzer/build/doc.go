// Package build defines the soacir analyzer, which builds the IR
// (package analyzer/ir) of every function of a package that uses
// runtime/soac.
//
// # Analyzer soacir
//
// soacir: build the let-normalised IR of functions that call runtime/soac
//
// The analyzer reports nothing. Its result, of type *ir.Program, holds one
// ir.Function for every top-level function or method whose body (at any
// depth, closures and lambdas included) refers to a runtime/soac combinator,
// and for every function carrying a //soac:fuse directive. Calls are
// recognised by the identity of their callee (renamed and dot imports and
// explicit instantiations work); every combinator call becomes an ir.SOAC
// statement whose inputs are variables, in Go's evaluation order. Every
// statement carries a conservative summary of its effects, computed with
// the purity analyzer's result. Calls the IR cannot express (a SOAC in the
// right operand of && or ||, in a loop condition, a case expression, a
// combinator used as a value, ...) are listed in Function.Unsupported and
// left in place; malformed or misplaced //soac: directives are listed in
// Program.Problems. Checks that report, such as soacvet, require this
// analyzer and report those.
//
// # Directives
//
// A spec is a top-level function whose doc comment holds one or more
// directives
//
//	//soac:fuse NAME [backend=cpu|parallel|opencl|auto] [cluster=greedy|ilp|wsp]
//
// one a line, each asking for a function NAME with the spec's signature.
// The spec's IR is built once: Function.Fuses lists its valid directives
// in the order of the doc comment, Function.Fuse is the first, and
// Function.Directed returns one Function per directive (the spec itself,
// then shallow copies sharing its IR, each with its own Fuse), so that
// every later stage (fusion plans, generated code, report) works per
// directive. A directive is a Problem, at its comment, when it is
// malformed (no NAME, a NAME that is not an identifier or is _, an
// unknown key or value, a key given twice), misplaced (not in the doc
// comment of a top-level function with a body), when its NAME is the
// spec's own, is given by an earlier directive of the package (on the
// same spec or another), or is declared by the package otherwise than as
// the generated function itself (soacgen's output, or the stub that
// declares NAME at the directive while soacgen loads the package). The
// other directives of the spec stay valid.
//
// Build is the same construction without the go/analysis driver, for tools
// and tests that hold type-checked syntax and a purity.Result of their own.
// ir.Fprint dumps a Function as text and ir.Verify checks its invariants.
//
// # Decisions on edge cases
//
// Evaluation order. A SOAC call is hoisted out of its statement into a SOAC
// statement of its own; so is every effectful call (and channel receive)
// that Go evaluates before it in the same statement and that does not
// contain it, into a Plain whose Hoisted is that call, so that calls keep
// their order. A SOAC preceded in its statement by a conditionally
// evaluated call (f(c && g(), soac.Map(...))) is unsupported. Non-variable
// array arguments are hoisted into "_tmpN" temporaries; nested SOAC
// results are "_soacN" temporaries, numbered in evaluation order (a SOAC's
// result before the temporaries of its lambdas' bodies).
//
// Direct binding. x := soac.F(...), x = ..., var x = ... and the pairs of a
// multiple assignment bind the SOAC's Out to a new Var of x when x is a
// local variable of exactly the result's type; then no Plain is emitted if
// nothing else happens in the statement. Assignments to package-level
// variables, fields, elements and variables of another type go through a
// temporary and a Plain.
//
// Unsupported. A SOAC call is left in place (recorded in
// Function.Unsupported, its statement a Plain that is impure and writes
// global state and every argument) in the right operand of && or ||, in a
// for loop's condition or post statement, in a case expression, in a select
// case, as the call of a go or defer statement (its arguments are still
// hoisted), and anywhere in a function body (or function literal body)
// that uses goto. A combinator used as a value is recorded with Call nil.
//
// Versions. Each definition is a new Var. An If, Switch, Loop or Closure
// defines a fresh Var after itself for every visible variable assigned
// inside it, joined (for alias purposes) with every Var the variable had
// inside. A Loop also defines, at its entry, a Var for every visible
// variable its header or body assigns, and, when the body may call code
// that is not known pure or write through a pointer, for every escaped and
// package-level variable: uses in the body never see the pre-loop Var. A
// The Vars whose values leave a compound statement — a branch's last
// value of a variable (or the value a path leaves unchanged), a loop
// body's value for the next iteration and after the loop (when the body may break or continue, every value the
// variable has inside) — are its Flows (ir.Effects.Flows): read where the
// statement ends, so that a kernel computing one stores it. A
// Closure's body sees, at its entry, fresh Vars of its captures that may
// change (assigned more than once, escaped, or package-level). A SOAC's
// lambda body sees the Vars reaching the SOAC; captured variables a lambda
// assigns get fresh Vars after the SOAC, so such a SOAC (whose lambda is
// impure) defines more than its Out.
//
// Escapes. A variable escapes when its address is taken (&x, x[:] of an
// array, a pointer-receiver method of an addressable x), when a function
// literal assigns it, or when a function literal that is not a SOAC's
// lambda captures it and it is assigned more than once. Every statement
// that is impure, writes global state or writes through a pointer uses
// the current Var of each escaped variable and defines a new one (and, if
// it writes global state, does the same for the package-level variables
// the function uses).
//
// Aliases and Global. Parameters are not Global; package-level variables
// are. Whatever may share memory is joined: copies, re-slices, elements
// and fields holding references, composite literals, append results,
// conversions, method values, range values, results of calls (with every
// reference-typed argument and receiver), stores of a reference into an
// element or field (the container joins the value). Results of calls of
// functions not known pure, values received from channels and values sent
// on channels or passed to goroutines are Global, and a class holding a
// Global Var makes every member Global; a statement writing a Global Var
// writes global state.
//
// Calls. A call whose purity summary says that its only effect is writing
// memory reachable from its arguments (sort.Ints(ks), fill(buf, v), a
// pointer-receiver method of a local) records those writes in Writes, the
// arguments matched to the callee's parameters (every argument of a
// variadic one, the first of a method expression), and is not impure: it
// orders only what reads or writes that memory. Where the arguments cannot
// be matched so, or the call passes a function the caller cannot resolve,
// it is impure. The result of a pure call whose callee allocates it
// (purity's fresh results) and whose elements hold no references shares
// memory with nothing.
//
// Lambdas. A local variable defined once by a function literal and never
// reassigned or escaped is resolved to its literal (FuncValue with Lit);
// its body is built again as the lambda's Body. A method expression
// (T.M) is a NamedFunc. Function values that cannot be resolved, and other
// function expressions, are impure; an OtherFunc's expression is evaluated
// as part of the SOAC statement, whose effects include it.
//
// Closures seen through. An array argument of a SOAC that calls such a
// variable, whose literal only returns a combinator call reading the
// literal's parameters as its arrays, is that call (seethrough.go): the
// SOAC is built where the closure is called, reading the call's arguments,
// with Site the call, so that it fuses as a SOAC written there. Only when
// the arguments are variables of the parameters' types, the call's other
// arguments do not read the parameters, and every name in it means at
// the call what it means in the literal.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): analyzer: recognises
// SOAC calls by object identity and builds *ir.Program.
package build
