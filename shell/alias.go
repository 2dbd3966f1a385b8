package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// defineAlias records the static NAME=VALUE operands of `alias` in the
// current shell (bash manual §6.6) and forgets those of `unalias` (-a:
// all); `hash -p PATH NAME` makes NAME run PATH, read as an alias.
func (w *walker) defineAlias(cmd *Command, f frame) {
	if f.define {
		return
	}
	s := f.scope
	if cmd.Name == "hash" {
		// hash -p PATH NAME…: NAME runs PATH from then on, in this shell
		args := cmd.Args[1:]
		if len(args) < 3 || args[0].Value != "-p" || args[0].Dynamic || args[1].Dynamic {
			return
		}
		for _, n := range args[2:] {
			if n.Dynamic || n.Value == "" {
				continue
			}
			if s.aliases == nil {
				s.aliases = map[string]string{}
			}
			s.aliases[n.Value] = "'" + strings.ReplaceAll(args[1].Value, "'", `'\''`) + "'"
		}
		return
	}
	for _, a := range cmd.Args[1:] {
		if a.Dynamic {
			continue
		}
		if cmd.Name == "unalias" {
			if a.Value == "-a" {
				s.aliases = nil
			}
			delete(s.aliases, a.Value)
			continue
		}
		name, value, ok := strings.Cut(a.Value, "=")
		if !ok || name == "" || strings.HasPrefix(name, "-") {
			continue
		}
		if s.aliases == nil {
			s.aliases = map[string]string{}
		}
		s.aliases[name] = value
	}
}

// aliasOf returns the alias that replaces the first word of ce: a word
// written as a plain literal (no quote, no backslash) naming an alias of
// the current shell that is not being expanded already.
func (w *walker) aliasOf(ce *syntax.CallExpr, f frame) (name, value string, ok bool) {
	if len(ce.Args) == 0 || len(f.scope.aliases) == 0 || len(ce.Args[0].Parts) != 1 {
		return "", "", false
	}
	l, isLit := ce.Args[0].Parts[0].(*syntax.Lit)
	if !isLit || strings.ContainsRune(l.Value, '\\') || w.aliasing[l.Value] {
		return "", "", false
	}
	value, ok = f.scope.aliases[l.Value]
	return l.Value, value, ok
}

// expandAlias re-reads a command whose first word is an alias with the
// alias text in place of that word (Via "alias NAME", Depth+1), the way
// bash and zsh substitute it before parsing the rest. The command itself
// is emitted as written before this.
func (w *walker) expandAlias(cmd *Command, ce *syntax.CallExpr, name, value string, f frame) {
	text := value
	if len(ce.Args) > 1 {
		a, b := int(ce.Args[1].Pos().Offset()), int(ce.Args[len(ce.Args)-1].End().Offset())
		if a < 0 || b > len(f.src) || a > b {
			return
		}
		text += " " + f.src[a:b]
	}
	if len(ce.Assigns) > 0 {
		text = rawText(f.src, &syntax.CallExpr{Assigns: ce.Assigns}) + " " + text
	}
	if w.aliasing == nil {
		w.aliasing = map[string]bool{}
	}
	w.aliasing[name] = true
	bf := f
	bf.depth++
	bf.via = "alias " + name
	bf.parent = cmd
	bf.wrappers = nil
	bf.redirs = cmd.Redirects
	bf.stdin = cmd.Stdin
	bf.background = cmd.Background
	w.reparse(text, bf)
	delete(w.aliasing, name)
}
