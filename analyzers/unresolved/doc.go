// Package unresolved asks about commands whose program cannot be known
// before they run (DESIGN.md principle 2: what cannot be resolved is not
// safe): a command word that comes from a variable, an array, a command
// substitution or a glob — "$x", "${a[@]}", "$(echo rm) -rf ~",
// "/usr/bin/r[m]", "curl … | $SHELL". Every other analyzer recognises
// programs by name; a program toolwall cannot name would pass them all.
//
// Rule unresolved.command (ask, score 0.6). Commands inside eval or sh -c
// bodies are judged the same way once the reader has re-read them; a body
// that is itself only known at run time is the remote analyzer's concern.
package unresolved
