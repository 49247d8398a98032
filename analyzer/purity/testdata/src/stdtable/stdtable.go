// Package stdtable calls every row of the standard-library table at least once.
package stdtable

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"log"
	"maps"
	"math"
	"math/bits"
	"math/cmplx"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

func Builtins(xs []int, m map[int]int, c complex128) int { // want `^pure$`
	n := len(xs) + cap(xs) + min(1, 2) + max(3, 4)
	z := complex(real(c), imag(c))
	_ = z
	p := new(int)
	_ = p
	return n
}

func MakeAppendCopy(xs []int) []int { // want `^pure; maypanic$`
	out := make([]int, 0, len(xs))
	out = append(out, xs...)
	copy(out, xs)
	clear(out)
	m := map[int]int{1: 1}
	delete(m, 1)
	k := make([]int, len(xs)+1) // a sum may overflow to a negative size
	return append(out, k...)
}

func ClearParam(xs []int) { clear(xs) } // want `^impure: calls clear, which writes argument 0 \(xs\), memory reachable from parameter xs$`

func DeleteParam(m map[int]int) { delete(m, 1) } // want `^impure: calls delete, which writes argument 0 \(m\), memory reachable from parameter m$`

func Panic() { panic(1) } // want `^pure; maypanic$`

func Print() { print(1) } // want `^impure: calls print \(I/O\)$`

func Println() { println(1) } // want `^impure: calls println \(I/O\)$`

func CloseIt(ch chan int) { close(ch) } // want `^impure: calls close \(closes a channel\); maypanic$`

func Recover() { _ = recover() } // want `^impure: calls recover \(recovers from a panic\)$`

type pair struct{ a, b int32 }

func Unsafe(p pair, b []byte, s string) uintptr { // want `^pure; maypanic$`
	q := unsafe.Add(unsafe.Pointer(&p), 4)
	_ = q
	_ = unsafe.SliceData(b)
	_ = unsafe.StringData(s)
	_ = unsafe.String(unsafe.StringData(s), len(s))
	_ = unsafe.Slice(unsafe.SliceData(b), len(b))
	return unsafe.Sizeof(p) + unsafe.Alignof(p) + unsafe.Offsetof(p.b)
}

func Math(x float64, c complex128) float64 { // want `^pure$`
	return math.Sqrt(x) + float64(bits.OnesCount(uint(x))) + cmplx.Abs(c) + float64(cmp.Compare(x, 1))
}

func Bits(x, y uint) uint { // want `^pure; maypanic$`
	q, _ := bits.Div(0, x, y)
	return q + bits.Rem(0, x, y)
}

func Strings(s string) string { // want `^pure$`
	r := strings.ToUpper(s) + strings.TrimSpace(s)
	var sb strings.Builder
	sb.WriteString(r)
	sb.WriteByte('x')
	_ = sb.Len()
	return sb.String()
}

func Repeat(s string, n int) string { return strings.Repeat(s, n) } // want `^pure; maypanic$`

func StringsFunc(s string) int { // want `^pure$`
	isX := func(r rune) bool { return r == 'x' } // want `^pure$`
	n := strings.IndexFunc(s, isX) + strings.LastIndexFunc(s, isX)
	if strings.ContainsFunc(s, isX) {
		n++
	}
	_ = strings.FieldsFunc(s, isX)
	_ = strings.FieldsFuncSeq(s, isX)
	_ = strings.TrimFunc(s, isX) + strings.TrimLeftFunc(s, isX) + strings.TrimRightFunc(s, isX)
	return n + len(strings.Map(unicode.ToUpper, s))
}

var seen []rune

func StringsMapImpure(s string) string { // want `^impure: calls strings.Map with a func literal, which writes package-level variable seen$`
	return strings.Map(func(r rune) rune { // want `^impure: writes package-level variable seen$`
		seen = append(seen, r)
		return r
	}, s)
}

func BuilderParam(sb *strings.Builder) { // want `^impure: calls strings.Builder.WriteString, which writes its receiver sb, memory reachable from parameter sb; maypanic$`
	sb.WriteString("x")
}

func Strconv(s string) string { // want `^pure$`
	f, _ := strconv.ParseFloat(s, 64)
	i, _ := strconv.Atoi(s)
	u, _ := strconv.Unquote(s)
	return strconv.FormatFloat(f, 'g', -1, 64) + strconv.Itoa(i) + strconv.Quote(u)
}

// StrconvConst: constant bases and bit sizes in range cannot panic.
func StrconvConst(n int64, f float64, c complex128) string { // want `^pure$`
	s := strconv.FormatInt(n, 16) + strconv.FormatUint(uint64(n), 2) + strconv.FormatComplex(c, 'g', -1, 128)
	a := strconv.AppendUint(make([]byte, 0, 8), uint64(n), 36)
	b := strconv.AppendFloat(make([]byte, 0, 8), f, 'e', 3, 32)
	return s + string(a) + string(b) + strconv.FormatBool(n > 0)
}

func StrconvBase(n int64, base int) string { return strconv.FormatInt(n, base) } // want `^pure; maypanic$`

func StrconvBadBase(n uint64) string { return strconv.FormatUint(n, 37) } // want `^pure; maypanic$`

func StrconvBitSize(f float64, bits int) string { return strconv.FormatFloat(f, 'g', -1, bits) } // want `^pure; maypanic$`

func StrconvComplexBits(c complex128) string { return strconv.FormatComplex(c, 'g', -1, 32) } // want `^pure; maypanic$`

func StrconvAppendBase(n int64, base int) int { // want `^pure; maypanic$`
	return len(strconv.AppendInt(make([]byte, 0, 8), n, base)) + len(strconv.AppendQuote(make([]byte, 0, 8), "x"))
}

func Replacer(a, b string) string { return strings.NewReplacer(a, b).Replace(a) } // want `^impure: calls strings.Replacer.Replace, which is not known to be pure; maypanic$`

func Grow(n int) string { // want `^pure; maypanic$`
	var sb strings.Builder
	sb.Grow(n)
	return sb.String()
}

func StrconvAppend(n int) []byte { // want `^pure$`
	buf := make([]byte, 0, 8)
	return strconv.AppendInt(buf, int64(n), 10)
}

func StrconvAppendParam(buf []byte) []byte { // want `^impure: calls strconv.AppendInt, which writes argument 0 \(buf\), memory reachable from parameter buf$`
	return strconv.AppendInt(buf, 1, 10)
}

func Unicode(r rune) bool { return unicode.IsUpper(r) && utf8.ValidRune(r) } // want `^pure$`

func UTF8(r rune) []byte { // want `^pure; maypanic$`
	b := make([]byte, 4)
	utf8.EncodeRune(b, r)
	return utf8.AppendRune(b, r)
}

func UTF8Param(b []byte) int { return utf8.EncodeRune(b, 'x') } // want `^impure: calls utf8.EncodeRune, which writes argument 0 \(b\), memory reachable from parameter b; maypanic$`

func Bytes(a, b []byte) bool { // want `^pure$`
	_ = bytes.Compare(a, b) + bytes.Count(a, b) + bytes.Index(a, b) + bytes.IndexByte(a, 'x') + bytes.LastIndex(a, b)
	_ = bytes.ContainsAny(a, "x") || bytes.ContainsRune(a, 'x') || bytes.HasPrefix(a, b) || bytes.HasSuffix(a, b) || bytes.EqualFold(a, b)
	_ = bytes.ToUpper(a)
	_ = bytes.ToLower(a)
	_ = bytes.Clone(a)
	return bytes.Equal(a, b) && bytes.Contains(a, b)
}

func BytesRepeat(a []byte, n int) []byte { return bytes.Repeat(a, n) } // want `^pure; maypanic$`

func SlicesRead(xs, ys []int) int { // want `^pure$`
	i, _ := slices.BinarySearch(xs, 3)
	if slices.Equal(xs, ys) || slices.Contains(xs, 1) {
		i++
	}
	_ = slices.Clone(xs)
	return i + slices.Index(xs, 2) + slices.Compare(xs, ys)
}

func SlicesMinMax(xs []int) int { return slices.Max(xs) - slices.Min(xs) } // want `^pure; maypanic$`

func SlicesSortFresh(xs []int) []int { // want `^pure$`
	ys := slices.Clone(xs) // a fresh copy, unused
	zs := append([]int(nil), xs...)
	slices.Sort(zs)
	slices.Reverse(zs)
	slices.SortFunc(zs, func(a, b int) int { return b - a }) // want `^pure$`
	_ = ys
	return zs
}

func SlicesSortParam(xs []int) { slices.Sort(xs) } // want `^impure: calls slices.Sort, which writes argument 0 \(xs\), memory reachable from parameter xs$`

func SlicesReverseParam(xs []int) { slices.Reverse(xs) } // want `^impure: calls slices.Reverse, which writes argument 0 \(xs\), memory reachable from parameter xs$`

func SortFresh(xs []int, fs []float64, ss []string) int { // want `^pure; maypanic$`
	a := append([]int{}, xs...)
	sort.Ints(a)
	b := append([]float64{}, fs...)
	sort.Float64s(b)
	c := append([]string{}, ss...)
	sort.Strings(c)
	sort.Slice(a, func(i, j int) bool { return a[i] < a[j] })                                 // want `^pure; maypanic$`
	return sort.SearchInts(a, 3) + sort.Search(len(a), func(i int) bool { return a[i] >= 3 }) // want `^pure; maypanic$`
}

func SortParam(xs []int) { sort.Ints(xs) } // want `^impure: calls sort.Ints, which writes argument 0 \(xs\), memory reachable from parameter xs$`

func Format(x int) (string, error) { // want `^pure$`
	_ = fmt.Sprint(x) + fmt.Sprintln(x)
	if x < 0 {
		return "", errors.New("negative")
	}
	return fmt.Sprintf("%d", x), fmt.Errorf("x=%d", x)
}

func FmtPrint(x int) { fmt.Printf("%d\n", x) } // want `^impure: calls fmt.Printf \(I/O\); maypanic$`

func FmtFprint(x int) { fmt.Fprintln(os.Stderr, x) } // want `^impure: calls fmt.Fprintln \(I/O\); maypanic$`

func Log(x int) { log.Println(x) } // want `^impure: calls log.Println \(I/O\); maypanic$`

func LogFatal() { log.Fatal("x") } // want `^impure: calls log.Fatal \(I/O\)$`

func LogPanic() { log.Panicf("x") } // want `^impure: calls log.Panicf \(I/O\); maypanic$`

func Env() string { return os.Getenv("HOME") } // want `^impure: calls os.Getenv \(I/O\); maypanic$`

func Exit() { os.Exit(1) } // want `^impure: calls os.Exit \(exits the program\)$`

func Goexit() { runtime.Goexit() } // want `^impure: calls runtime.Goexit \(exits the goroutine\)$`

func Clock() time.Duration { // want `^impure: calls time.Now \(reads the clock\)$`
	t := time.Now()
	return time.Since(t)
}

func Since(t time.Time) time.Duration { return time.Since(t) } // want `^impure: calls time.Since \(reads the clock\)$`

func Rand() int { return rand.Intn(10) } // want `^impure: calls rand.Intn \(uses the global random source\); maypanic$`

func RandV2() int { return randv2.IntN(10) } // want `^impure: calls rand.IntN \(uses the global random source\); maypanic$`

func RandNoPanic() float64 { return rand.Float64() + randv2.Float64() } // want `^impure: calls rand.Float64 \(uses the global random source\)$`

func RandBounded(n int) int { // want `^impure: calls rand.Int31n \(uses the global random source\); maypanic$`
	return int(rand.Int31n(int32(n))+int32(rand.Int63n(int64(n)))) + len(rand.Perm(n))
}

func RandV2Bounded(n int) uint { // want `^impure: calls rand.Int32N \(uses the global random source\); maypanic$`
	a := uint(randv2.Int32N(int32(n))) + uint(randv2.Int64N(int64(n))) + randv2.UintN(uint(n))
	return a + uint(randv2.Uint32N(uint32(n))) + uint(randv2.Uint64N(uint64(n))) + randv2.N(uint(n))
}

// CloneThenWrite writes the elements of copies the standard library makes
// for it (slices.Clone, slices.Concat, slices.Repeat, bytes.Clone,
// maps.Clone): memory it allocated, so it stays pure.
func CloneThenWrite(xs []int, b []byte, m map[string]int) ([]int, []byte, map[string]int) { // want `^pure; maypanic$`
	c := slices.Clone(xs)
	c[0] = 1
	d := slices.Concat(xs, c)
	d[1] = 2
	r := slices.Repeat(xs, 2)
	r[2] = 3
	e := bytes.Clone(b)
	e[0] = 'x'
	f := maps.Clone(m)
	f["k"] = 1
	return append(append(c, d...), r...), e, f
}

// CloneRowsThenWrite writes a row that a copy of its parameter shares
// with it: slices.Clone copies the rows' headers, not the rows.
func CloneRowsThenWrite(rows [][]int) [][]int { // want `^impure: writes c\[0\]\[0\], memory reachable from local variable c, which is not known to be freshly allocated; maypanic$`
	c := slices.Clone(rows)
	c[0][0] = 1
	return c
}
