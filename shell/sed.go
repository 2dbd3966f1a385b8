package shell

import "strings"

// sedCommands returns the shell commands a GNU sed script runs: the text
// of an `e COMMAND` command, and for the e flag of s (s/RE/REPL/e, which
// runs the pattern space once substituted) the replacement when it
// replaces the whole line with a text of its own (s/.*/CMD/e). What runs
// is only known at run time — a bare `e` (the pattern space), an s///e
// whose result depends on the input — is runtimeHole. Other commands,
// addresses, labels, comments and a/i/c text are skipped.
func sedCommands(script string) []string {
	var out []string
	s := script
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!':
			continue
		case c == '#':
			i = lineEnd(s, i)
		case c >= '0' && c <= '9' || c == '$' || c == ',' || c == '~' || c == '+':
			// a line-number address (and first~step, addr,+N)
		case c == '/' || c == '\\' && i+1 < len(s):
			// a regular-expression address: /RE/ or \cREc, then its flags
			d := byte('/')
			if c == '\\' {
				i++
				d = s[i]
			}
			_, i = sedPart(s, i+1, d, true)
			for i+1 < len(s) && (s[i+1] == 'I' || s[i+1] == 'M') {
				i++
			}
		case c == ':':
			i = lineEnd(s, i) // a label runs to the end of the line
		case c == 'b' || c == 't' || c == 'T':
			for i+1 < len(s) && s[i+1] != ';' && s[i+1] != '\n' && s[i+1] != '}' {
				i++
			}
		case c == 'a' || c == 'i' || c == 'c' || c == 'r' || c == 'R' || c == 'w' || c == 'W':
			i = sedText(s, i)
		case c == 'e':
			end := lineEnd(s, i)
			cmd := strings.TrimSpace(s[i+1 : end])
			if cmd == "" {
				out = append(out, runtimeHole) // the pattern space
			} else {
				out = append(out, cmd)
			}
			i = end
		case c == 's' || c == 'y':
			if i+1 >= len(s) {
				return out
			}
			d := s[i+1]
			re, j := sedPart(s, i+2, d, c == 's')
			repl, k := sedPart(s, j+1, d, false)
			i = k
			if c == 'y' {
				continue
			}
			exec, bad := false, false
		flags:
			for i+1 < len(s) && !strings.ContainsRune(";\n}", rune(s[i+1])) {
				i++
				switch f := s[i]; {
				case f == 'e':
					exec = true
				case f == 'w':
					i = lineEnd(s, i) - 1 // w FILE runs to the end of the line
				case strings.IndexByte("gpiImM0123456789 \t", f) >= 0:
				default:
					// sed refuses an unknown flag: the script runs nothing
					bad = true
					break flags
				}
			}
			if bad {
				return out
			}
			if exec {
				out = append(out, sedExecText(re, repl))
			}
		default:
			// one-letter commands (p d D n N g G h H x l q Q = z F …)
		}
	}
	return out
}

// sedExecText is the command an s///e runs: when the expression matches
// the whole line (.*, or anchored at both ends), the replacement, with
// what it takes from the line (& and \N) only known at run time — one
// word each, as an item a runner fills in; else runtimeHole.
func sedExecText(re, repl string) string {
	switch {
	case re == ".*" || re == "^.*" || re == ".*$":
	case strings.HasPrefix(re, "^") && strings.HasSuffix(re, "$") && !strings.HasSuffix(re, `\$`):
	default:
		return runtimeHole
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		switch c := repl[i]; {
		case c == '&':
			b.WriteString(`"` + runtimeHole + `"`)
		case c == '\\' && i+1 < len(repl):
			i++
			switch n := repl[i]; {
			case n >= '0' && n <= '9':
				b.WriteString(`"` + runtimeHole + `"`)
			case n == 'n':
				b.WriteByte('\n')
			default:
				b.WriteByte(n)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// sedPart reads s from i up to the unescaped delimiter d and returns the
// text and the delimiter's index (len(s) when unclosed). In a regular
// expression (re) a bracket expression may hold d unescaped ([/]).
func sedPart(s string, i int, d byte, re bool) (string, int) {
	var b strings.Builder
	for ; i < len(s); i++ {
		switch {
		case re && s[i] == '[':
			end := bracketEnd(s, i)
			b.WriteString(s[i:end])
			i = end - 1
		case s[i] == '\\' && i+1 < len(s):
			if s[i+1] != d {
				b.WriteByte('\\')
			}
			b.WriteByte(s[i+1])
			i++
		case s[i] == d:
			return b.String(), i
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), len(s)
}

// sedText skips the text of a/i/c and the file name of r/R/w/W: the rest
// of the line, continued by a backslash at its end.
func sedText(s string, i int) int {
	for {
		end := lineEnd(s, i)
		if end == len(s) || end == 0 || s[end-1] != '\\' {
			return end
		}
		i = end
	}
}

// lineEnd returns the index of the newline that ends the line holding
// s[i], or len(s).
func lineEnd(s string, i int) int {
	if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(s)
}

// bracketEnd returns the index after the bracket expression that starts
// at s[i] ("[", an optional "^", a leading "]" kept literal, classes such
// as [:alpha:]), or i+1 when it is not closed.
func bracketEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for ; j < len(s); j++ {
		switch {
		case s[j] == '[' && j+1 < len(s) && (s[j+1] == ':' || s[j+1] == '.' || s[j+1] == '='):
			if k := strings.Index(s[j+2:], string(s[j+1])+"]"); k >= 0 {
				j += k + 3
			}
		case s[j] == ']':
			return j + 1
		}
	}
	return i + 1
}
