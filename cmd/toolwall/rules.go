package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/engine"
)

func newRules() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rules [PREFIX]",
		Short: "List every rule id: its analyzer, default action, what it protects and an example",
		Long: `Lists the rule catalog: every rule id the gate can report (the analyzers',
the gate's own, the chain rules and the configuration's [[rule]] entries),
with the analyzer that reports it, its default action, what it protects and
an example call it stops. With PREFIX, only ids that start with it
("rm.", "git.reset-hard"). rules.disable names ids from this list.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			var rs []engine.Rule
			for _, r := range engine.Rules(cfg) {
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
