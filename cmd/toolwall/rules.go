package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/internal/mcprules"
	"github.com/toolwall/toolwall/policy"
)

func newRules() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rules [PREFIX]",
		Short: "List every rule id: its analyzer, default action, what it protects and an example",
		Long: `Lists the rule catalog: every rule id the gate can report (the analyzers',
the gate's own, the chain rules and the configuration's [[rule]] entries)
and the MCP proxy's own (mcp.*), with the analyzer that reports it, its
default action, what it protects and an example call it stops. With
PREFIX, only ids that start with it ("rm.", "git.reset-hard", "mcp.").
rules.disable names the gate's ids from this list (not mcp.*).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			var rs []engine.Rule
			for _, r := range catalog(cfg) {
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
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "rule\tanalyzer\taction\tprotects\texample")
			for _, r := range rs {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, strings.Join(r.Analyzers, ","), r.Action, r.Protects, strings.ReplaceAll(r.Example, "\t", " "))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the catalog as JSON")
	return cmd
}

// catalog is the gate's rule catalog for cfg (engine.Rules) with the MCP
// proxy's own rules (mcprules.List), sorted by id: hooks and the proxy
// share rule ids, so one listing covers both.
func catalog(cfg *policy.Config) []engine.Rule {
	out := engine.Rules(cfg)
	for _, r := range mcprules.List() {
		out = append(out, engine.Rule{Rule: r, Analyzers: []string{mcprules.Analyzer}})
	}
	slices.SortFunc(out, func(a, b engine.Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}
