// Package programs is toolwall's catalog of what programs do with their
// command lines (knowledge of programs has one home): for
// each program, its options — which take a value, how they are spelled,
// whether they bundle, whether long options may be abbreviated, where
// option parsing stops — and what each operand and option value is to
// it: a file read, written, appended to or deleted, a destination to copy
// into, a permission change, a directory it works in, a command it runs
// (an argv, a shell string, a script file, program text, a command for
// another host), a network destination, data it sends, a host path
// mounted into a container. One parser, [Parse], reads every program's
// arguments through its [Program] entry; the shell reader turns the
// result into effects and the analyzers judge the effects. A program not
// in the catalog is read as written: every word an operand of unknown
// role.
//
// The catalog is data: the files under catalog/ are embedded in the
// binary and read once, on first use. Adding a program is a few lines
// there and a row in testdata/parse.tsv. `toolwall programs NAME` prints
// an entry.
//
// # Format
//
// One directive a line; blank lines and lines starting with "#" are
// skipped; leading blanks are ignored (indent for readability).
//
//	program NAME [NAME…]   start an entry (at the start of a line, not
//	                       indented); the first name is canonical,
//	                       the others are names the same program is
//	                       installed under (grm, python3.12 is matched by
//	                       "versions")
//	doc TEXT               one line: what it is, with its manual page
//	style WORD…            how the program reads options:
//	                         gnu       options anywhere, short options
//	                                   bundle (-rf), long options may be
//	                                   a unique prefix (--recur), "--"
//	                                   ends options (the default; a sub
//	                                   takes its program's style, and
//	                                   gnu there drops posix: git's
//	                                   subcommands read options anywhere)
//	                         posix     options end at the first operand
//	                         exact     long options are never abbreviated
//	                         negate    --no-NAME turns NAME off
//	                         dashlong  one dash starts a long option
//	                                   (find -name, java -jar)
//	                         modes     words like -w or -rwx are modes,
//	                                   not options (chmod)
//	                         plus      +x is an option too (set, sh)
//	                         nobundle  -abc is one option, not three
//	                         dash      a lone "-" is an option (env -)
//	                         strict    an option not listed makes the
//	                                   program run nothing (bash builtins)
//	                       Spellings may end in :N (N from 2 to 9) for a
//	                       value of N words (bwrap --bind SRC DEST), or
//	                       :# for optional attached digits (perl -l).
//	versions               NAME followed by digits and dots is this
//	                       program too (python3.12, perl5.36)
//	wrapper                the command it runs (its argv operands)
//	                       replaces it in place, its privilege, directory
//	                       and environment changes applied (sudo, env)
//	recursive              its deletes and changes reach whole trees
//	                       (find); otherwise an option named "recursive"
//	                       says so
//	privileged [unless COND]
//	                       runs its command with raised privilege (sudo)
//	workdir DIR [if COND]  where the command it runs starts when no
//	                       option of role cd says ("/" for chroot, "~")
//	writes-tree [if COND]  writes entries it does not name under its
//	                       working directory (tar -x, unzip)
//	flow KIND [if COND]    what the files it writes and the text it
//	                       prints are made of: what it reads (files,
//	                       URLs, stdin) passed through as KIND — copy
//	                       (cp, tee, cat), decoded (base64 -d, xxd -r),
//	                       archive (tar -x, unzip), transformed (sed,
//	                       tr, awk), network (curl, git clone: a URL's
//	                       content); origins follow it (provenance)
//	runs FILE… [if COND]   files under its working directory it runs
//	                       as code (git commit: .git/hooks/pre-commit;
//	                       "." for everything there)
//	shellconfig KEY…       configuration keys (KEY=VALUE through an option
//	                       of role config) whose value is a shell command
//	                       it runs; "*" ends a prefix, "=!" at the end
//	                       counts only values starting with "!"
//	envcommand NAME…       environment variables whose value is a shell
//	                       command it runs (GIT_SSH_COMMAND)
//	prints WHAT [if COND]  what it prints, for the dry run: tmpdir,
//	                       tmpfile (a fresh temporary path), cwd, user,
//	                       home, nothing, dirname, basename, realpath
//	                       (of the operands), stdin (what it reads: cat with
//	                       no file), secret (a credential: gh auth token),
//	                       shellenv (shell code of its own making that
//	                       sets up its environment, which users eval:
//	                       ssh-agent, pyenv init -, brew shellenv,
//	                       kubectl completion bash)
//	opt SPELLING… [= NAME] [-> ROLE] [ends]
//	                       an option; spellings are -x (a switch), -x:
//	                       (takes a value, attached or the next word),
//	                       -x:: (an optional value, attached only),
//	                       --name, --name= (a value, after "=" or the
//	                       next word), --name=? (an optional value after
//	                       "="); with style dashlong, -name and -name= as
//	                       well; with style plus, "+::" is every word
//	                       that starts with "+", the rest its value
//	                       (vim +CMD). NAME is the canonical name analyzers ask
//	                       for (default: the first long spelling, else
//	                       the first short letter); ROLE is what the
//	                       value is (see Role); "ends": every word after
//	                       it is an operand (python -c). An option not
//	                       listed is a switch unless written with "=".
//	opts SPELLING…         several options at once, each its own, none
//	                       with a role; spellings joined by "|" are one
//	                       option (-s|--silent), named as opt names it
//	operands ROLE… [if COND]
//	                       the roles of the operands in order; a role
//	                       written ROLE… repeats for every operand until
//	                       the roles after it (so "read… dest" makes the
//	                       last operand the destination); the first line
//	                       whose condition holds applies. COND is a
//	                       comma-separated list of NAME or !NAME, NAME an
//	                       option's canonical name or "noargs"
//	stdin ROLE [if COND]   what the program does with its standard input
//	                       when it reads it (script, code, upload, items)
//	sub NAME [NAME…]       start a subcommand (git push); the lines after
//	                       it, up to the next sub or program, belong to
//	                       it; "sub compose up" nests; NAME|NAME gives
//	                       aliases; "sub container run = run" makes a
//	                       path stand for a sub defined before
//	lang LANG              the language of code and script operands
//	                       (python, node, perl, ruby, php, lua, sh, awk)
//	ext .X…                the extensions of script files it runs (.py),
//	                       looked up by [ForFile]
//	grammar NAME           arguments follow a grammar of their own, read
//	                       by Go code in this package: find (an
//	                       expression), dd (key=value), tar (a first word
//	                       of letters without a dash), parallel (a
//	                       command, then ::: and its inputs)
package programs
