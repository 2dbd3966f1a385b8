package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

func newPrograms() *cobra.Command {
	var parse string
	cmd := &cobra.Command{
		Use:   "programs [NAME]",
		Short: "Show what the program catalog knows about a program",
		Long: `Without NAME, lists every program in the catalog with one line about it.
With NAME, prints its entry: names, how it reads options, each option's
spellings, canonical name and role (what its value is: a file read or
written, a command run, a network destination, …), the roles of its
operands and standard input, and its subcommands.

--parse COMMAND reads a command line the way the gate does (quote removal,
wrappers, the catalog) and prints each command with its options, operands
and effects. Nothing is run.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			switch {
			case parse != "":
				s, err := shell.Read(parse, shell.Options{Cwd: "/workspace/app", Home: "/home/user"})
				if err != nil {
					return err
				}
				for _, c := range s.Commands {
					fmt.Fprintf(out, "%s\n", c.Shown())
					if c.Via != "" {
						fmt.Fprintf(out, "  via %s\n", c.Via)
					}
					if c.Inv != nil {
						fmt.Fprintf(out, "  %s\n", c.Inv)
					}
					for _, e := range c.Effects {
						p := e.Path
						if p == "" {
							p = e.Word.Raw
						}
						rem := ""
						if e.Remote {
							rem = " (remote)"
						}
						fmt.Fprintf(out, "  %s %s%s\n", e.Kind, p, rem)
					}
				}
				return nil
			case len(args) == 0:
				for _, p := range programs.Builtin().Programs() {
					doc, _, _ := strings.Cut(p.Doc, " (")
					fmt.Fprintf(out, "%-16s %s\n", p.Name, doc)
				}
				return nil
			}
			p := programs.Lookup(args[0])
			if p == nil {
				return fmt.Errorf("%s is not in the program catalog: toolwall reads its arguments as written", args[0])
			}
			return p.Describe(out)
		},
	}
	cmd.Flags().StringVar(&parse, "parse", "", "read a command line (cwd /workspace/app, home /home/user) and print each command's options, operands and effects")
	return cmd
}
