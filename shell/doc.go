// Package shell reads a bash command line the way bash does (DESIGN.md
// principle 1, seed 004 "read compound commands the way the shell does")
// and reports every command that would execute: [Read] parses with
// mvdan.cc/sh/v3/syntax (LangBash) and walks lists, pipelines, subshells,
// groups, if/for/while/until/case/select bodies, functions where called,
// $(…), backticks, <(…), >(…), heredocs, and re-parses the bodies of
// sh -c, eval, trap, su -c, watch, heredocs, here-strings and static text
// piped into a shell. Wrappers (sudo, doas, pkexec, run0, env, command,
// builtin, exec, nohup, nice, timeout, time, stdbuf, ionice, chroot,
// setsid, busybox, leading NAME=value) are peeled off; xargs and find
// -exec tails are emitted as commands of their own.
//
// Words come out after quote removal with ~, $HOME, $PWD, $(pwd) and $USER
// resolved from [Options]; anything only known at run time is marked
// Dynamic (DESIGN.md principle 2: what cannot be resolved is not safe).
// Positional parameters ($0, $1…, ${N}, "$@", $*, $#) are resolved where
// the reader knows them: inside an sh -c body from the words after the
// body (`sh -c 'rm -rf "$1"' _ /`), inside a called function from the
// call's arguments, and after `set -- …` / `shift`; at top level they are
// Dynamic.
// Text that is only data (echo arguments, commit messages, a heredoc
// written to a file) never becomes a command.
//
// Aliases: an `alias NAME=TEXT` earlier in the same shell makes a later
// command whose first word is NAME, written as a plain unquoted literal,
// re-read with TEXT in its place (Via "alias NAME", Depth+1; the command
// is also emitted as written). zsh expands aliases in scripts and bash
// does after `shopt -s expand_aliases`; bash applies a definition only
// from the next line on, the reader from the next command on (stricter).
// Not modelled: an alias text ending in a blank (which makes bash expand
// the next word too) and aliases whose text is only known at run time.
//
// The package holds no rules: analyzers judge the [Script].
//
// Via values: "" (top level), "sh -c" (also su -c, watch), "eval",
// "trap", "stdin" (text piped or heredoc'd into a shell, source
// /dev/stdin), "xargs", "find -exec", "watch" (watch -x), "$()", "<()"
// (also >()), "function NAME", "alias NAME".
//
// A command with only redirections ("> file") or only assignments
// ("HISTFILE=/dev/null", "PATH=/tmp/x:$PATH") is emitted with no Args and
// Name "": the assignments are in Assigns, so that rules can see a shell
// changing its own environment.
package shell
