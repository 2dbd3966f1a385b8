package programs

import "strings"

// Near is a word of a command line that the program does not accept as
// written but that nearly spells one it does. The parser records two
// kinds ([Parsed.Near]):
//
//   - a subcommand written in another case ("git RESET"): git looks its
//     commands up with strcmp, so "RESET" is no command (and the dashed
//     "git-RESET" a case-insensitive file system finds still dies with
//     "cannot handle RESET as a builtin"); the parser reads the words
//     after it through the subcommand's entry all the same;
//   - a long option the entry does not list that is one it lists written
//     in another case ("--HARD"), one it lists followed by "-" and more
//     text ("--force-with-lease-if-includes" begins with "--force" and
//     "--force-with-lease"), or the start of one it lists in another case
//     or of several ("--HAR", "--forc"). git's parse-options compares
//     long options case-sensitively, takes "--NAME" only when nothing but
//     "=VALUE" follows the name, and takes an abbreviation only when it
//     is the start of exactly one option (parse-options.c,
//     parse_long_opt); getopt_long does the same. So the program refuses
//     every such word ("unknown option", "ambiguous option").
//
// The command as written then does nothing, but whoever wrote it meant
// one of the spellings in As; an analyzer may judge those readings (the
// git rules ask about "git RESET --HARD" as about "git reset --hard").
type Near struct {
	// Word is the index of the word in argv.
	Word int
	// As are what the word nearly spells: the subcommand's name, or long
	// option spellings ("--hard"), one per option, in sorted order.
	As []string
}

// minNear is the shortest long option word ("--" and two letters) read
// as the start of a listed one.
const minNear = 4

// nearLong returns the long spellings the entry lists, in p or else in
// the first of its parents with any, that the long option name (without
// "=VALUE"), which p does not list, nearly is (see [Near]); nil when
// there is none. A spelling equal but for case is the only one; several
// spellings of one option count once.
func (p *Program) nearLong(name string) []string {
	if len(name) < minNear || !strings.HasPrefix(name, "--") {
		return nil
	}
	for q := p; q != nil; q = q.Parent {
		var (
			out  []string
			opts []*Option
		)
		for _, s := range q.longs {
			if len(s) == len(name) && strings.EqualFold(s, name) {
				return []string{s} // --HARD is --hard, not also --hard-x
			}
			if !nearSpelling(name, s) {
				continue
			}
			o := q.spell[s].opt
			dup := false
			for _, seen := range opts {
				dup = dup || seen == o
			}
			if !dup {
				opts = append(opts, o)
				out = append(out, s)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// nearSpelling reports whether the word name, of another length than
// the listed long option s, nearly spells it: s in any case then "-" and
// more, or the start of s in any case.
func nearSpelling(name, s string) bool {
	if len(name) > len(s) {
		return name[len(s)] == '-' && strings.EqualFold(name[:len(s)], s)
	}
	return len(name) < len(s) && strings.EqualFold(name, s[:len(name)])
}
