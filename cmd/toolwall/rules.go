package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/internal/rulelist"
)

// rulesWidth is the width `toolwall rules` fits its table in, without
// --wide.
const rulesWidth = 100

func newRules() *cobra.Command {
	var asJSON, wide bool
	cmd := &cobra.Command{
		Use:   "rules [PREFIX]",
		Short: "List every rule id: its analyzer, default action, what it protects and an example",
		Long: `Lists the rule catalog: every rule id the gate can report (the analyzers',
the gate's own, the chain rules and the configuration's [[rule]] entries)
and the MCP proxy's own (mcp.*), with the analyzer that reports it, its
default action, what it protects and an example call it stops. With
PREFIX, only ids that start with it ("rm.", "git.reset-hard", "mcp.").
rules.disable names the gate's ids from this list (not mcp.*).

The table fits 100 columns: what a rule protects is wrapped and the
example left out. --wide prints one line per rule with its example;
--json the whole catalog.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			var rs []engine.Rule
			for _, r := range rulelist.All(cfg) {
				if len(args) == 0 || strings.HasPrefix(r.ID, args[0]) {
					rs = append(rs, r)
				}
			}
			if len(rs) == 0 {
				return fmt.Errorf("no rule id starts with %q", args[0])
			}
			out := cmd.OutOrStdout()
			if asJSON {
				type row struct {
					ID        string   `json:"id"`
					Analyzers []string `json:"analyzers"`
					Action    string   `json:"action"`
					Protects  string   `json:"protects"`
					Example   string   `json:"example,omitempty"`
				}
				var rows []row
				for _, r := range rs {
					rows = append(rows, row{r.ID, r.Analyzers, r.Action.String(), r.Protects, r.Example})
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			if !wide {
				return printRules(out, rs, rulesWidth)
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "rule\tanalyzer\taction\tprotects\texample")
			for _, r := range rs {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, strings.Join(r.Analyzers, ","), r.Action, r.Protects, strings.ReplaceAll(r.Example, "\t", " "))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the catalog as JSON")
	cmd.Flags().BoolVar(&wide, "wide", false, "print the full table, one line per rule, with an example each (wider than 100 columns)")
	return cmd
}

// printRules writes the rules as a table of rule, action, analyzer and
// what it protects, the last column wrapped so that every line fits width
// (a single word longer than the column stands alone on its line).
func printRules(w io.Writer, rs []engine.Rule, width int) error {
	const gap = 2
	head := [3]string{"rule", "action", "analyzer"}
	cols := [3]int{}
	for i, h := range head {
		cols[i] = len(h)
	}
	cells := make([][3]string, len(rs))
	for i, r := range rs {
		cells[i] = [3]string{r.ID, r.Action.String(), strings.Join(r.Analyzers, ",")}
		for j, c := range cells[i] {
			cols[j] = max(cols[j], utf8.RuneCountInString(c))
		}
	}
	indent := cols[0] + cols[1] + cols[2] + 3*gap
	rest := max(width-indent, 24)
	var b strings.Builder
	line := func(c [3]string, text string) {
		for j, s := range c {
			b.WriteString(s)
			b.WriteString(strings.Repeat(" ", cols[j]-utf8.RuneCountInString(s)+gap))
		}
		for i, l := range wrap(text, rest) {
			if i > 0 {
				b.WriteString(strings.Repeat(" ", indent))
			}
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	line(head, "protects")
	for i, r := range rs {
		line(cells[i], r.Protects)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// wrap splits text into lines of at most width runes, at spaces; it
// returns one empty line for empty text.
func wrap(text string, width int) []string {
	var lines []string
	cur, n := "", 0
	for _, word := range strings.Fields(text) {
		k := utf8.RuneCountInString(word)
		switch {
		case n == 0:
			cur, n = word, k
		case n+1+k <= width:
			cur, n = cur+" "+word, n+1+k
		default:
			lines = append(lines, cur)
			cur, n = word, k
		}
	}
	return append(lines, cur)
}
