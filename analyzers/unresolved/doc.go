// Package unresolved asks about commands whose program cannot be known
// before they run (what cannot be resolved is not
// safe): a command word that comes from a variable, an array, a command
// substitution or a glob — "$x", "${a[@]}", "$(echo rm) -rf ~",
// "/usr/bin/r[m]", "curl … | $SHELL". Every other analyzer recognises
// programs by name; a program toolwall cannot name would pass them all.
//
// A lone $NAME whose every assignment in the script is a literal, one of
// them certain to have run before it ("[ "$(uname)" = FreeBSD ] &&
// cmd=lastlogin || cmd=lastlog; $cmd"), is not asked about: the reader
// emits the command once per value (shell.Command.Candidates) and the
// other analyzers judge each, so a set that holds rm is judged as rm. A
// set that holds a privilege-raising program (cmd=sudo; $cmd …, spec
// c105) is still asked: privilege raised out of sight is what the
// indirection would hide.
//
// Rule unresolved.command (ask, score 0.6). Commands inside eval or sh -c
// bodies are judged the same way once the reader has re-read them; a body
// that is itself only known at run time (shell.Command.BuiltAtRunTime:
// sh -c "$CMD", eval "$r") is the remote analyzer's interp.dynamic-command.
package unresolved
