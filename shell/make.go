package shell

import "strings"

// makeCommands returns the shell commands of a makefile's recipes: the
// lines that start with a tab (and the text after ";" on a rule line),
// joined across backslash-newlines, without the @, - and + prefixes.
// make expands $(NAME) and ${NAME} before the shell sees the line: each
// is a part only known at run time (runtimeHole); "$$" is a "$" for the
// shell. It is a reading of recipes, not of make's language: variables
// assigned in the makefile with a plain value (NAME = value, :=, ?=)
// and make's built-in ones (CC, RM, MAKE) are put in; others are unknown.
func makeCommands(text string) []string {
	var out []string
	lines := strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n")
	vars := map[string]string{"CC": "cc", "CXX": "g++", "CPP": "cc -E", "AR": "ar", "AS": "as", "LD": "ld",
		"RM": "rm -f", "MAKE": "make", "FC": "f77", "LEX": "lex", "YACC": "yacc", "SHELL": "/bin/sh"}
	for _, l := range lines {
		if name, value, ok := makeAssign(l); ok {
			vars[name] = value
		}
	}
	for _, l := range lines {
		var cmd string
		switch {
		case strings.HasPrefix(l, "\t"):
			cmd = l[1:]
		case !strings.HasPrefix(l, "#") && strings.Contains(l, ":") && strings.Contains(l, ";"):
			rule, rest, _ := strings.Cut(l, ";")
			if strings.Contains(rule, "=") {
				continue // an assignment holding ";"
			}
			cmd = rest
		default:
			continue
		}
		cmd = strings.TrimLeft(cmd, "@-+ \t")
		if strings.TrimSpace(cmd) == "" {
			continue
		}
		out = append(out, makeExpand(cmd, vars, 0))
	}
	return out
}

// makeAssign reads "NAME = value" (also :=, ::=, ?=; += is left out) at
// the start of a makefile line.
func makeAssign(l string) (string, string, bool) {
	if l == "" || l[0] == '\t' || l[0] == '#' {
		return "", "", false
	}
	k := strings.IndexByte(l, '=')
	if k <= 0 {
		return "", "", false
	}
	name := strings.TrimRight(strings.TrimSpace(l[:k]), ":?")
	if strings.HasSuffix(strings.TrimSpace(l[:k]), "+") || name == "" {
		return "", "", false
	}
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return "", "", false
		}
	}
	return name, strings.TrimSpace(l[k+1:]), true
}

// makeExpand replaces make's own references in a recipe line: $(NAME)
// and ${NAME} with the value vars holds (expanded in turn, depth
// bounding a chain), any other $(…) or ${…} and $X (one letter: $@, $<)
// with runtimeHole, $$ with $.
func makeExpand(s string, vars map[string]string, depth int) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; c {
		case '$':
			b.WriteByte('$')
			i++
		case '(', '{':
			end := byte(')')
			if c == '{' {
				end = '}'
			}
			depth, j := 0, i+1
			for ; j < len(s); j++ {
				if s[j] == c {
					depth++
				} else if s[j] == end {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if v, ok := vars[s[min(i+2, len(s)):min(j, len(s))]]; ok && depth < 8 {
				b.WriteString(makeExpand(v, vars, depth+1))
			} else {
				b.WriteString(runtimeHole)
			}
			i = j
		default:
			b.WriteString(runtimeHole)
			i++
		}
	}
	return b.String()
}
