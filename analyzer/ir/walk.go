package ir

// Walk calls visit for every statement of b in order, descending into the
// blocks of compound statements and lambda bodies (depth first, a statement
// before its nested blocks). It stops descending below a statement for
// which visit returns false.
func Walk(b *Block, visit func(Stmt) bool) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		if !visit(s) {
			continue
		}
		for _, nb := range Children(s) {
			Walk(nb, visit)
		}
	}
}

// Children returns the blocks nested directly in s, in source order: the
// branches of an if or switch, a loop or closure body, the bodies of a SOAC's
// function-literal lambdas.
func Children(s Stmt) []*Block {
	switch s := s.(type) {
	case *If:
		if s.Else != nil {
			return []*Block{s.Then, s.Else}
		}
		return []*Block{s.Then}
	case *Switch:
		return s.Cases
	case *Loop:
		return []*Block{s.Body}
	case *Closure:
		return []*Block{s.Body}
	case *SOAC:
		var bs []*Block
		for _, l := range s.Lambdas() {
			if l.Body != nil {
				bs = append(bs, l.Body)
			}
		}
		return bs
	}
	return nil
}

// Lambdas returns the function arguments of the SOAC in argument order.
func (s *SOAC) Lambdas() []*Lambda {
	var ls []*Lambda
	add := func(l *Lambda) {
		if l != nil {
			ls = append(ls, l)
		}
	}
	switch op := s.Op.(type) {
	case *Screma:
		add(op.Map)
		if op.Scan != nil {
			add(op.Scan.Op)
		}
		if op.Reduce != nil {
			add(op.Reduce.Op)
		}
	case *Filter:
		add(op.Pred)
	case *Stream:
		add(op.Op)
		add(op.Chunk)
	}
	return ls
}

// Inputs returns the array Vars the SOAC iterates over, in argument order
// (none for Iota and Replicate).
func (s *SOAC) Inputs() []*Var {
	switch op := s.Op.(type) {
	case *Screma:
		return op.Inputs
	case *Filter:
		return []*Var{op.Input}
	case *Stream:
		return []*Var{op.Input}
	}
	return nil
}

// Operands returns the scalar operands of the SOAC (neutral elements,
// lengths, replicated values, method receivers), in argument order.
func (s *SOAC) Operands() []*Operand {
	var os []*Operand
	add := func(o *Operand) {
		if o != nil {
			os = append(os, o)
		}
	}
	for _, l := range s.Lambdas() {
		add(l.Recv)
	}
	switch op := s.Op.(type) {
	case *Screma:
		if op.Scan != nil {
			add(op.Scan.Neutral)
		}
		if op.Reduce != nil {
			add(op.Reduce.Neutral)
		}
	case *Iota:
		add(op.N)
	case *Replicate:
		add(op.N)
		add(op.Value)
	}
	return os
}

// IsMap reports whether the SOAC is a plain map (Map, Map2, Map3).
func (s *SOAC) IsMap() bool {
	op, ok := s.Op.(*Screma)
	return ok && op.Scan == nil && op.Reduce == nil
}

// IsReduce reports whether the SOAC is a Reduce.
func (s *SOAC) IsReduce() bool {
	op, ok := s.Op.(*Screma)
	return ok && op.Reduce != nil
}

// IsScan reports whether the SOAC is a Scan.
func (s *SOAC) IsScan() bool {
	op, ok := s.Op.(*Screma)
	return ok && op.Scan != nil
}

// IsFilter reports whether the SOAC is a Filter.
func (s *SOAC) IsFilter() bool { _, ok := s.Op.(*Filter); return ok }

// IsStream reports whether the SOAC is a StreamMap or StreamRed.
func (s *SOAC) IsStream() bool { _, ok := s.Op.(*Stream); return ok }

// IsGenerator reports whether the SOAC is an Iota or Replicate: an array
// computed from its index alone, which fusion never needs to materialise.
func (s *SOAC) IsGenerator() bool {
	switch s.Op.(type) {
	case *Iota, *Replicate:
		return true
	}
	return false
}

// Depth returns the lambda nesting depth of block b: 0 for a function body
// and the blocks of its ifs, switches, loops and closures, n+1 inside a
// lambda of a SOAC at depth n.
func Depth(b *Block) int {
	d := 0
	for b != nil && b.Parent != nil {
		if _, ok := b.Parent.(*SOAC); ok {
			d++
		}
		b = b.Parent.Block()
	}
	return d
}
