package unixshield

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/internal/rows"
)

func TestMatchTable(t *testing.T) {
	for _, r := range rows.ReadRest(t, "testdata/match.tsv", 3) {
		n, fields := r.Line, r.Fields
		text := fields[2]
		if strings.HasPrefix(text, `"`) {
			var err error
			if text, err = strconv.Unquote(text); err != nil {
				t.Fatalf("line %d: %v", n, err)
			}
		}
		needle := strings.TrimSpace(normalize(fields[1]))
		got := contains(normalize(text), needle)
		if want := fields[0] == "hit"; got != want {
			t.Errorf("line %d: contains(%q, %q) = %v, want %v", n, text, fields[1], got, want)
		}
		if fields[0] == "hit" || fields[0] == "miss" {
			if isASCII(needle) && needle != "" && got != oracle(needle).MatchString(text) {
				t.Errorf("line %d: the oracle disagrees on %q / %q", n, text, needle)
			}
		} else {
			t.Errorf("line %d: expect %q is neither hit nor miss", n, fields[0])
		}
	}
}

// spaceClass lists every rune unicode.IsSpace accepts.
const spaceClass = `[\t\n\v\f\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]`

// oracle builds, independently of normalize and contains, a regexp that
// matches raw text exactly when the ASCII needle (already normalised)
// occurs in its normalised view on token boundaries.
func oracle(needle string) *regexp.Regexp {
	var b strings.Builder
	word := func(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
	if word(needle[0]) {
		b.WriteString(`(?:^|[^0-9A-Za-z_])`)
	}
	for i := 0; i < len(needle); i++ {
		c := needle[i]
		switch {
		case c == ' ':
			b.WriteString(spaceClass + `+`)
		case 'a' <= c && c <= 'z':
			b.WriteString("[" + string(c) + strings.ToUpper(string(c)) + "]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if word(needle[len(needle)-1]) {
		b.WriteString(`(?:[^0-9A-Za-z_]|$)`)
	}
	return regexp.MustCompile(b.String())
}

// alphabet mixes ASCII, white space of every kind and non-ASCII runes
// whose lower case is not ASCII (so that case folding cannot differ
// between the oracle and ToLower).
var alphabet = []rune("aAbcdeFfhHiIklmMoOrRsStuUwxX_09 -|/.;&>~$\t\n\r\v\f\u0085\u00a0\u2003\u3000éÉßжЖ")

var spaces = []rune(" \t\n\r\v\f\u0085\u00a0\u2003\u3000")

var needles = []string{"rm -rf", "| sh", "|sh", "curl", "/etc/", ".ssh/", "chmod 777", "sudo", "rm -r -f", "x", "-", "a b"}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(6) {
		if r.IntN(3) == 0 {
			// a needle with random case and white space, to make hits common
			for _, c := range needles[r.IntN(len(needles))] {
				switch {
				case c == ' ':
					for range 1 + r.IntN(2) {
						b.WriteRune(spaces[r.IntN(len(spaces))])
					}
				case r.IntN(2) == 0:
					b.WriteString(strings.ToUpper(string(c)))
				default:
					b.WriteRune(c)
				}
			}
			continue
		}
		for range r.IntN(5) {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
	}
	return b.String()
}

// TestMatcherOracle is a property test: on random text, contains on the
// normalised view agrees with a per-pattern regexp on the raw text.
func TestMatcherOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	res := make([]*regexp.Regexp, len(needles))
	for i, n := range needles {
		res[i] = oracle(n)
	}
	hits := 0
	for range 20000 {
		text := randomText(r)
		norm := normalize(text)
		for i, n := range needles {
			got, want := contains(norm, n), res[i].MatchString(text)
			if got != want {
				t.Fatalf("contains(normalize(%q), %q) = %v, oracle %v", text, n, got, want)
			}
			if got {
				hits++
			}
		}
	}
	if hits < 1000 {
		t.Fatalf("only %d hits: the generator does not exercise matches", hits)
	}
}

// TestNormalizeOracle checks normalize against strings.ToLower and a
// white-space regexp.
func TestNormalizeOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ws := regexp.MustCompile(spaceClass + `+`)
	for range 20000 {
		text := randomText(r)
		if got, want := normalize(text), ws.ReplaceAllString(strings.ToLower(text), " "); got != want {
			t.Fatalf("normalize(%q) = %q, want %q", text, got, want)
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
