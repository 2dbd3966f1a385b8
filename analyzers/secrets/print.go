package secrets

import (
	"fmt"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// Printed secrets: a credential a command prints (its catalog entry says
// "prints secret") that reaches the agent's output enters the model's
// context and its provider's logs, and cannot be taken back there.

// printed reports the credential c prints when it reaches the output the
// agent reads (secrets.print). The whole environment (env, printenv) is
// not judged here: printing it is ordinary, and sending it is
// secrets.exfil.
func (s *state) printed(c *shell.Command) {
	s.showsFiles(c)
	if envDump(c) || !(printsSecret(c) || s.passesPrinted(c)) || !s.shown(c, 0) {
		return
	}
	s.add(toolwall.Finding{
		Rule: RulePrint, Action: toolwall.Ask,
		Reason: fmt.Sprintf("`%s` was stopped for a human: it prints a credential, which would enter the conversation, "+
			"the model provider's logs and any transcript. Hand the secret to the program that needs it without "+
			"printing it (a pipe into docker login --password-stdin, a file, an environment variable through op run "+
			"or aws-vault exec), print only its metadata, or ask the user to run it.", quote(c)),
	}, quote(c))
	s.tag(toolwall.TagCredential, "", c.Name)
}

// showsFiles tags the files whose content c prints where the agent reads
// it (cat f, head f, less f), for the chain rule that asks when an
// earlier call wrote a credential into one of them.
func (s *state) showsFiles(c *shell.Command) {
	if c.Inv == nil || describer(c) || keeps(c) || toFiles(c) {
		return
	}
	checked := false
	for _, e := range c.Effects {
		if e.Kind != shell.Reads || e.Path == "" || e.Remote || optionRead(e) || e.Role == programs.Upload {
			continue
		}
		if !checked {
			if !s.shown(c, 0) {
				return
			}
			checked = true
		}
		s.tag(toolwall.TagShowFile, e.Path, c.Name)
	}
}

// passesPrinted reports a command that prints a credential another
// command printed earlier in the script: echo or printf of it from a
// substitution or a variable (echo "$(gh auth token)", t=$(op read …);
// echo "$t"), or a read of a file it was written to (gh auth token >
// /tmp/t; cat /tmp/t) by a program that does not keep it.
func (s *state) passesPrinted(c *shell.Command) bool {
	if c.Name == "echo" || c.Name == "printf" {
		for _, x := range s.argSources(c, nil, true) {
			if x.kind == kPrinted {
				return true
			}
		}
		return false
	}
	if keeps(c) || toFiles(c) {
		return false
	}
	if f := s.facts[c]; f != nil {
		for _, x := range f.reads {
			if x.kind == kPrinted {
				return true
			}
		}
	}
	// cat <(gh auth token): a file made by process substitution
	for _, w := range c.Args[1:] {
		if !w.Dynamic || !strings.HasPrefix(w.Raw, "<(") {
			continue
		}
		for _, x := range s.argSources(c, []shell.Word{w}, false) {
			if x.kind == kPrinted {
				return true
			}
		}
	}
	return false
}

// toFiles reports a program that puts what it reads somewhere other
// than its output: it writes, appends, moves, links, changes in place,
// runs or sends files by its own operands or options (cp, tar -c, sed
// -i, curl -T).
func toFiles(c *shell.Command) bool {
	for _, e := range c.Effects {
		if e.Role == programs.Unknown {
			continue // a redirection: judged by shown
		}
		switch e.Kind {
		case shell.Writes, shell.Appends, shell.Moves, shell.Links, shell.Modifies, shell.Runs, shell.Sends:
			return true
		}
	}
	return false
}

// maxShownDepth bounds the walk down pipelines and out of bodies.
const maxShownDepth = 16

// shown reports whether what c writes to standard output reaches the
// agent: c's standard output is not redirected to a file, and every
// stage it is piped into prints its input on in turn (a filter such as
// jq, base64 -d, cut or tee), up to a stage whose output is shown. A
// command inside $(…) or <(…) has its output captured, not shown (where
// the value goes is judged as egress); one in an sh -c body, an xargs
// or find -exec tail shows it where its parent does.
func (s *state) shown(c *shell.Command, depth int) bool {
	if depth > maxShownDepth {
		return true
	}
	for _, r := range c.Redirects {
		if r.Writes() && (r.Fd == "" || r.Fd == "1") && !terminal(r.Target) {
			return false
		}
	}
	if c.Pipeline < c.Piped-1 {
		next := s.downstream(c)
		if next == nil {
			return false
		}
		return !keeps(next) && s.shown(next, depth+1)
	}
	switch {
	case c.Via == "$()" || c.Via == "<()" || c.Via == ">()":
		return false
	case c.Parent != nil && c.Via != "":
		return s.shown(c.Parent, depth+1)
	}
	return true
}

// terminal reports a redirection target that is the output the agent
// reads: the standard streams and the terminal, or a file only known at
// run time (judged shown: what cannot be resolved is not safe).
func terminal(w shell.Word) bool {
	if w.Dynamic {
		return true
	}
	switch w.Value {
	case "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2", "/proc/self/fd/1", "/proc/self/fd/2":
		return true
	}
	return false
}

// downstream returns the stage c is piped into.
func (s *state) downstream(c *shell.Command) *shell.Command {
	for _, d := range s.script.Commands {
		for _, u := range feeds(d) {
			if u == c {
				return d
			}
		}
	}
	return nil
}

// keeps reports a stage that takes a credential on standard input and
// does not print it: a program whose catalog entry gives its standard
// input a role (code run, data sent, items appended: judged by the
// analyzers of those), one told to read a password or token from stdin
// (docker login --password-stdin, gh auth login --with-token), a
// program reading it as a file named "-" or /dev/stdin (kubectl apply
// -f -), a digest, a counter, a clipboard, a key agent, an encryptor,
// and a program the catalog does not describe (a consumer more often
// than a printer). cat prints what it reads.
func keeps(c *shell.Command) bool {
	v := c.Inv
	if v == nil || v.Program() == nil {
		return true
	}
	switch v.Stdin {
	case programs.Code, programs.Upload, programs.Data, programs.Remote, programs.Items:
		return true
	}
	if c.Name != "cat" {
		for _, w := range append(v.ValuesOf(programs.Read), v.OperandsOf(programs.Read)...) {
			if !w.Dynamic && (w.Value == "-" || w.Value == "/dev/stdin") {
				return true
			}
		}
	}
	for _, o := range v.Opts {
		if strings.HasSuffix(o.Spelling, "-stdin") || o.Spelling == "--with-token" {
			return true
		}
	}
	switch c.Name {
	case "wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum",
		"pbcopy", "xclip", "xsel", "wl-copy", "clip", "clip.exe", "ssh-add", "true", ":",
		"gpg", "gpg2", "age", "kubeseal", "sops":
		return true
	case "grep", "egrep", "fgrep", "rg":
		return v.Has("q", "quiet", "silent", "c", "count", "l", "files-with-matches", "L", "files-without-match")
	}
	return false
}
