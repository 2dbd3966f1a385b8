package shell

import "strings"

// awkCommands returns the shell command strings an awk program runs: the
// argument of system(…), the string after an output pipe (print … | "cmd",
// |&) and before an input pipe ("cmd" | getline). A string built at run
// time has runtimeHole where it is not literal.
func awkCommands(prog string) []string {
	var out []string
	for i := 0; i < len(prog); i++ {
		switch {
		case prog[i] == '"':
			_, end := awkString(prog, i)
			i = end - 1
		case prog[i] == '/' && awkRegexStart(prog, i):
			// a regular expression: its | is alternation, not a pipe
			i = awkRegexEnd(prog, i) - 1
		case strings.HasPrefix(prog[i:], "system") && (i == 0 || !isAwkIdent(prog[i-1])):
			j := i + len("system")
			for j < len(prog) && (prog[j] == ' ' || prog[j] == '\t') {
				j++
			}
			if j < len(prog) && prog[j] == '(' {
				text, end := awkExpr(prog, j+1, ')')
				out = append(out, text)
				i = end
			}
		case prog[i] == '|' && i+1 < len(prog) && prog[i+1] != '|' && (i == 0 || prog[i-1] != '|'):
			j := i + 1
			if j < len(prog) && prog[j] == '&' {
				j++
			}
			for j < len(prog) && (prog[j] == ' ' || prog[j] == '\t') {
				j++
			}
			if strings.HasPrefix(prog[j:], "getline") {
				// "cmd" | getline: the command is the expression before the
				// pipe; take the string literal that ends right before it.
				if text, ok := awkStringBefore(prog, i); ok {
					out = append(out, text)
				}
				continue
			}
			text, end := awkExpr(prog, j, ';')
			out = append(out, text)
			i = end
		}
	}
	return out
}

// awkExpr reads a concatenation of string literals and other terms from
// s[i:] until stop, a newline or a closing brace at depth 0, and returns
// the literal parts with runtimeHole for every other term, and where it
// ended.
func awkExpr(s string, i int, stop byte) (string, int) {
	var b strings.Builder
	depth := 0
	hole := false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			lit, end := awkString(s, i)
			b.WriteString(lit)
			hole = false
			i = end - 1
		case depth == 0 && (c == stop || c == '\n' || c == '}' || stop == ';' && c == '>'):
			return b.String(), i
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return b.String(), i
			}
			depth--
		case c == ' ' || c == '\t':
		default:
			if !hole {
				b.WriteString(runtimeHole)
				hole = true
			}
		}
	}
	return b.String(), i
}

// awkString decodes the string literal starting at s[i] == '"' and
// returns it and the index after its closing quote.
func awkString(s string, i int) (string, int) {
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if j+1 < len(s) {
				j++
				switch s[j] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(s[j])
				}
			}
		case '"':
			return b.String(), j + 1
		default:
			b.WriteByte(s[j])
		}
	}
	return b.String(), len(s)
}

// awkStringBefore returns the string literal that ends just before s[i]
// (spaces allowed between).
func awkStringBefore(s string, i int) (string, bool) {
	j := i - 1
	for j >= 0 && (s[j] == ' ' || s[j] == '\t') {
		j--
	}
	if j < 0 || s[j] != '"' {
		return "", false
	}
	for k := j - 1; k >= 0; k-- {
		if s[k] == '"' && (k == 0 || s[k-1] != '\\') {
			lit, _ := awkString(s, k)
			return lit, true
		}
	}
	return "", false
}

func isAwkIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// awkRegexStart reports whether the '/' at s[i] surely opens a regular
// expression: at the start, or after one of ( , { } ; ~ ! & | = ? : or a
// newline, where awk expects an operand. Anywhere else it is read as
// division, the strict side: a | after it still counts as a pipe.
func awkRegexStart(s string, i int) bool {
	j := i - 1
	for j >= 0 && (s[j] == ' ' || s[j] == '\t') {
		j--
	}
	return j < 0 || strings.IndexByte("(,{};~!&|=?:\n", s[j]) >= 0
}

// awkRegexEnd returns the index after the regular expression opening at
// s[i] == '/': its closing unescaped '/' outside a bracket expression, or
// the end of the line when it has none.
func awkRegexEnd(s string, i int) int {
	bracket := false
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			bracket = true
		case ']':
			bracket = false
		case '/':
			if !bracket {
				return j + 1
			}
		case '\n':
			return j
		}
	}
	return len(s)
}
