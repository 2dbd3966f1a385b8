package secrets

import (
	"fmt"
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/places"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// destroy judges what c deletes, empties, overwrites, appends to, edits
// in place and loosens, from its effects.
func (s *state) destroy(c *shell.Command) {
	emptied := empties(c)
	for _, e := range c.Effects {
		if e.Remote {
			continue
		}
		switch e.Kind {
		case shell.Deletes:
			for _, t := range s.targets(c, e) {
				if !s.destroyPath(c, t.path, t.partial, t.rec, "Deleting") && !t.rec {
					s.loss(c, t.path, t.partial, "Deleting")
				}
			}
		case shell.Moves:
			for _, t := range s.targets(c, e) {
				s.destroyPath(c, t.path, t.partial, true, "Moving")
			}
		case shell.Writes:
			p, partial := s.effectPath(c, e)
			if p == "" {
				continue
			}
			if e.From == "tree" {
				if places.Protected(p, s.home, s.project) {
					s.destroyed(c, p, partial, "Extracting an archive into")
				}
				continue
			}
			if e.Role == programs.Dest && !intoKeyDir(c, e, p) {
				continue
			}
			if !s.destroyPath(c, p, partial, false, "Overwriting") && emptied {
				s.loss(c, p, partial, "Emptying")
			}
		case shell.Links:
			p, partial := s.effectPath(c, e)
			if p == "" || !c.Inv.Has("f", "force") || !intoKeyDir(c, e, p) {
				continue
			}
			if !s.destroyPath(c, p, partial, false, "Overwriting") && emptied {
				s.loss(c, p, partial, "Emptying")
			}
		case shell.Appends:
			if p, _ := s.effectPath(c, e); p != "" {
				s.modifyPath(c, p)
			}
		case shell.Modifies:
			p, partial := s.effectPath(c, e)
			if p == "" {
				continue
			}
			if root(c) == "truncate" {
				if !s.destroyPath(c, p, partial, false, "Truncating") && emptied {
					s.loss(c, p, partial, "Emptying")
				}
				continue
			}
			s.modifyPath(c, p)
		case shell.Chmods:
			s.chmod(c, e)
		}
	}
	s.inPlace(c)
	switch r := root(c); {
	case r == "ssh-keygen":
		s.keygen(c)
	case r == "gpg":
		for _, o := range c.Inv.Opts {
			if strings.HasPrefix(o.Name, "delete-secret") {
				s.destroyed(c, paths.Abs(".gnupg/private-keys-v1.d", s.home), false, "Deleting secret keys from")
			}
		}
	}
}

// intoKeyDir reports, for a copy, move or link destination, whether p
// is the destination itself or an entry the sources land in inside a
// key or login directory (cp authorized_keys ~/.ssh/): a new entry in
// another directory (cp -r ~/.ssh /tmp/backup makes /tmp/backup/.ssh)
// destroys nothing.
func intoKeyDir(c *shell.Command, e shell.Effect, p string) bool {
	for _, o := range c.Effects {
		if o.Kind == e.Kind && o.Word.Raw == e.Word.Raw && o.Path != "" && o.Path == path.Dir(e.Path) {
			return places.KeyDir(path.Dir(p)) // the entry named after a source, inside the destination
		}
	}
	return true
}

// target is one path a delete or move reaches.
type target struct {
	path    string
	partial bool
	rec     bool
}

// targets returns what a delete or move effect reaches: the files a find
// lists (its start directories, narrowed by -name), the files an xargs
// or find -exec tail is handed, or the effect's own path.
func (s *state) targets(c *shell.Command, e shell.Effect) []target {
	if placeholder(c, e.Word) {
		var out []target
		for _, w := range s.listed(c) {
			out = append(out, target{path: paths.Abs(paths.Expand(w.Value, s.home), c.Cwd), partial: w.Dynamic, rec: e.Recursive})
		}
		return out
	}
	if root(c) == "find" && e.From == "operand" {
		names := c.Inv.Values("name", "iname", "path", "ipath")
		var out []target
		for _, w := range findFiles(c) {
			out = append(out, target{path: paths.Abs(paths.Expand(w.Value, s.home), c.Cwd), partial: w.Dynamic, rec: len(names) == 0})
		}
		return out
	}
	p, partial := s.effectPath(c, e)
	if p == "" {
		return nil
	}
	return []target{{path: p, partial: partial, rec: e.Recursive}}
}

// empties reports whether what c writes is empty: a redirection alone
// or of ":" or true, echo without words, a copy of /dev/null or
// /dev/zero, truncate to size 0, a link to /dev/null.
func empties(c *shell.Command) bool {
	if len(c.Args) == 0 {
		return true
	}
	switch c.Name {
	case ":", "true":
		return true
	case "echo", "printf":
		for _, w := range c.Args[1:] {
			if w.Dynamic || !strings.HasPrefix(w.Value, "-") && w.Value != "" {
				return false
			}
		}
		return true
	}
	if root(c) == "truncate" {
		for _, w := range c.Inv.Values("size") {
			if strings.TrimLeft(w.Value, "0") != "" {
				return false
			}
		}
		return true
	}
	for _, e := range c.Effects {
		if e.Kind == shell.Reads && (e.Path == "/dev/null" || e.Path == "/dev/zero") {
			return true
		}
	}
	return false
}

// destroyPath reports a protected file deleted or overwritten; a
// recursive delete also destroys every protected file below p. It
// reports whether it found one.
func (s *state) destroyPath(c *shell.Command, p string, partial, rec bool, verb string) bool {
	prot := places.Protected(p, s.home, s.project)
	if !prot && rec && !partial {
		prot = s.aboveProtected(p)
	}
	if prot {
		s.destroyed(c, p, partial, verb)
	}
	return prot
}

// aboveProtected reports whether the tree at p holds home's .ssh or the
// system's account files.
func (s *state) aboveProtected(p string) bool {
	for _, q := range []string{s.home + "/.ssh", "/etc/passwd", "/etc/shadow", "/etc/sudoers", "/root/.ssh"} {
		if strings.HasPrefix(q, "/") && q != "/.ssh" && paths.Under(q, p) {
			return true
		}
	}
	return false
}

// destroyed reports a protected file deleted or overwritten.
func (s *state) destroyed(c *shell.Command, p string, partial bool, verb string) {
	what := places.Classify(p).String()
	if places.Classify(p) == places.None {
		// A directory that holds them (the home, ~/.ssh's parent).
		what = "it holds keys and login files"
	}
	f := toolwall.Finding{
		Rule: RuleDeleteAuth, Action: toolwall.Deny,
		Reason: fmt.Sprintf("%s %s (%s) was refused: `%s` would destroy a key or a file that controls logins and "+
			"privileges, which cannot be undone and can lock the user out. Leave it in place; if it really must "+
			"change, ask the user to do it.", verb, p, what, quote(c)),
	}
	if partial {
		f.Action = toolwall.Ask
		f.Reason = fmt.Sprintf("%s a path ending in %s was stopped: `%s` builds the path from a variable, and it may "+
			"name a key or login file. Use a literal path, or ask the user to confirm.", verb, p, quote(c))
	}
	s.add(f, p)
	s.tag(toolwall.TagDelete, p, "protected")
}

// loss judges a credential or system file deleted or emptied one by one:
// a credential store or private key outside the project is denied (it
// can only be restored by issuing a new one), a system configuration file
// under /etc is asked. Caches of credentials (~/.aws/sso/cache) are
// regenerated and pass.
func (s *state) loss(c *shell.Command, p string, partial bool, verb string) {
	cl := places.Classify(p)
	lp := strings.ToLower(places.Real(p))
	switch {
	case (cl == places.Credential || cl == places.PrivateKey || cl == places.SystemSecret) && !paths.Under(p, s.project) &&
		!places.TempOutside(p, s.home) && !strings.Contains(lp, "/cache/") && !strings.HasSuffix(lp, "/cache"):
		f := toolwall.Finding{
			Rule: RuleDeleteCredential, Action: toolwall.Deny,
			Reason: fmt.Sprintf("%s %s (%s) was refused: `%s` would lose a credential that only its issuer can "+
				"replace, and cut off the tools that use it. Leave it in place; ask the user if it must go.", verb, p, cl, quote(c)),
		}
		if partial {
			f.Action = toolwall.Ask
			f.Reason = fmt.Sprintf("%s a path ending in %s was stopped: `%s` builds the path from a variable, and it "+
				"may name a credential store. Use a literal path, or ask the user to confirm.", verb, p, quote(c))
		}
		s.add(f, p)
		s.tag(toolwall.TagDelete, p, "credential")
	case !partial && (strings.HasPrefix(lp, "/etc/") || strings.HasPrefix(lp, "/private/etc/")):
		s.add(toolwall.Finding{
			Rule: RuleDeleteSystem, Action: toolwall.Ask,
			Reason: fmt.Sprintf("%s %s was stopped for a human: `%s` removes system configuration, which no undo "+
				"restores and which can break logins, services or the network. Ask the user to confirm.", verb, p, quote(c)),
		}, p)
	}
}

// modifyPath reports appending to or editing p in place when that
// grants access.
func (s *state) modifyPath(c *shell.Command, p string) {
	if !places.AppendTarget(p) {
		return
	}
	s.add(toolwall.Finding{
		Rule: RuleModifyAuth, Action: toolwall.Deny,
		Reason: fmt.Sprintf("Changing %s was refused: `%s` would add a login key, an account or a privilege rule "+
			"(a persistence or escalation step). Do not edit authorized_keys, /etc/passwd, /etc/sudoers or PAM "+
			"files from the agent; tell the user what change is needed and let them make it.", p, quote(c)),
	}, p)
}

// inPlace handles interpreters that edit their file operands in place:
// perl -i / -pi, ruby -i, gawk -i inplace.
func (s *state) inPlace(c *shell.Command) {
	v := c.Inv
	edits := false
	switch root(c) {
	case "perl", "ruby":
		edits = v.Has("i")
	case "awk":
		edits = anyValue(v.Values("include"), "inplace")
	}
	if !edits {
		return
	}
	for _, w := range v.OperandsOf(programs.Read) {
		if !w.Dynamic && w.Value != "" {
			s.modifyPath(c, paths.Abs(paths.Expand(w.Value, s.home), c.Cwd))
		}
	}
}

// chmod reports loosening the permissions of a protected file: sshd
// ignores keys in a group- or world-writable .ssh, and anyone may then
// add a key; a readable /etc/shadow or key hands it to every user.
func (s *state) chmod(c *shell.Command, e shell.Effect) {
	p, partial := s.effectPath(c, e)
	if p == "" || partial || e.Mode == "" || !places.Protected(p, s.home, s.project) {
		return
	}
	// A key file may not be readable by others; a key directory only may
	// not be writable (sshd's StrictModes).
	if !loosens(e.Mode, places.Classify(p).Secret() && !places.KeyDir(p)) {
		return
	}
	s.add(toolwall.Finding{
		Rule: RuleModifyAuth, Action: toolwall.Deny,
		Reason: fmt.Sprintf("Loosening the permissions of %s was refused: `%s` would let other users read or change "+
			"a key or login file (and sshd stops accepting keys from a group- or world-writable .ssh). Keep ~/.ssh "+
			"at 700 and keys at 600; ask the user if access must change.", p, quote(c)),
	}, p)
}

// loosens reports whether a chmod mode gives group or others write
// access, or (for a file holding a secret) any access.
func loosens(mode string, secret bool) bool {
	if strings.Trim(mode, "01234567") == "" {
		n := len(mode)
		if n < 3 {
			return false
		}
		g, o := mode[n-2]-'0', mode[n-1]-'0'
		if secret {
			return g != 0 || o != 0
		}
		return g&2 != 0 || o&2 != 0
	}
	for _, clause := range strings.Split(mode, ",") {
		who, perm, ok := strings.Cut(clause, "+")
		if !ok {
			who, perm, ok = strings.Cut(clause, "=")
		}
		if !ok || who != "" && !strings.ContainsAny(who, "goa") {
			continue
		}
		if strings.Contains(perm, "w") || secret && strings.Contains(perm, "r") {
			return true
		}
	}
	return false
}

// keygen: generating a key over an existing one asks "Overwrite (y/n)?";
// an answer fed on stdin (yes | ssh-keygen …) replaces the key.
func (s *state) keygen(c *shell.Command) {
	v := c.Inv
	if c.Stdin.Kind != shell.StdinPipe && c.Stdin.Kind != shell.StdinHeredoc {
		return
	}
	if v.Has("print-public", "fingerprint", "remove-host", "find-host", "change-passphrase", "export", "import",
		"bubblebabble", "download-resident", "sign-op", "print-dns", "query-krl", "hash-hosts", "change-comment") {
		return
	}
	for _, w := range v.Values("file") {
		if p := paths.Abs(paths.Expand(w.Value, s.home), c.Cwd); !w.Dynamic {
			s.destroyPath(c, p, false, false, "Overwriting")
		}
	}
}
